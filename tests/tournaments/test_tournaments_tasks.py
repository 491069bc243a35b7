"""The tournament's tasks: the tables send the step between hands by its registered name
(tables import nothing of tournaments), the room's one clock sweep keeps the tournament's
deadlines, and each task is a thin call of its service."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app

from pokerroom.celery import app
from pokerroom.celery import app as celery_app
from pokerroom.inprocess import import_task_modules
from tables.kinds import TOURNAMENT
from tables.services import scheduling
from tournaments import tasks


def test_a_tournament_tables_hand_end_names_the_tournaments_registered_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, countdown: sent.append((name, args, countdown))
    )
    # What a tournament table's hand end sends (tables/services/flow.py), by the kind's name.
    assert TOURNAMENT.between_hands_task is not None
    scheduling.task_send(TOURNAMENT.between_hands_task, 4, countdown=0)

    assert sent == [("tournaments.tasks.table_between_hands", (4,), 0)]
    import_task_modules(celery_app)
    assert current_app.tasks["tournaments.tasks.table_between_hands"].run == (
        tasks.table_between_hands.run
    )
    assert current_app.tasks["tournaments.tasks.clock_tick"].run == tasks.clock_tick.run
    # What each deal at a tournament table sends (tables/services/hands.py), by name too.
    assert TOURNAMENT.dealt_task == "tournaments.tasks.table_hand_dealt"
    assert current_app.tasks[TOURNAMENT.dealt_task].run == tasks.table_hand_dealt.run


def test_the_tournament_clock_is_kept_by_the_rooms_one_clock_sweep() -> None:
    """DESIGN.md "Time": the tournament's deadlines are kinds of the tables' clock sweep (one
    beat entry), each naming a task the room registered; there is no beat entry of its own."""
    tournament_kinds = {
        kind.name: kind.task
        for kind in scheduling.DEADLINE_KINDS.values()
        if kind.name.startswith("tournament_")
    }
    assert tournament_kinds == {
        "tournament_start": "tournaments.tasks.clock_tick",
        "tournament_level": "tournaments.tasks.clock_tick",
        "tournament_break": "tournaments.tasks.clock_tick",
        "tournament_idle_table": "tournaments.tasks.table_between_hands",
    }
    swept = [entry["task"] for entry in app.conf.beat_schedule.values()]
    assert swept.count("tables.tasks.sweep_action_deadlines") == 1
    assert not any(task.startswith("tournaments.") for task in swept)
    import_task_modules(celery_app)
    assert current_app.tasks["tournaments.tasks.clock_tick"].run == tasks.clock_tick.run


@pytest.mark.django_db
def test_the_tasks_do_nothing_for_what_does_not_exist() -> None:
    assert tasks.table_between_hands.run(999_999) is False
    assert tasks.clock_tick.run(999_999) is False
    assert tasks.table_hand_dealt.run(999_999, 1) is False
