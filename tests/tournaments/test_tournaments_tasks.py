"""The tournament's tasks: the tables send the step between hands by its registered name
(tables import nothing of tournaments), the sweep is on beat, and each task is a thin call
of its service."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app

from pokerroom.celery import app
from pokerroom.inprocess import import_task_modules
from tables.services import scheduling
from tournaments import tasks


def test_a_tournament_tables_hand_end_names_the_tournaments_registered_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, countdown: sent.append((name, args, countdown))
    )
    scheduling.schedule_tournament_table(table_id=4)

    assert sent == [("tournaments.tasks.table_between_hands", (4,), 0)]
    import_task_modules()
    assert current_app.tasks["tournaments.tasks.table_between_hands"].run == (
        tasks.table_between_hands.run
    )
    assert current_app.tasks["tournaments.tasks.clock_tick"].run == tasks.clock_tick.run


def test_beat_runs_the_tournament_sweep_every_second() -> None:
    entry = app.conf.beat_schedule["sweep-tournament-clocks"]
    assert entry["task"] == "tournaments.tasks.sweep"
    assert entry["schedule"].total_seconds() == 1
    import_task_modules()
    assert current_app.tasks["tournaments.tasks.sweep"].run == tasks.sweep.run


@pytest.mark.django_db
def test_the_tasks_do_nothing_for_what_does_not_exist() -> None:
    assert tasks.table_between_hands.run(999_999) is False
    assert tasks.clock_tick.run(999_999) is False
    assert tasks.sweep.run() == 0
