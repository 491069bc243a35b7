"""The services queue their tasks by registered name (issue #12: no import of tables.tasks from
the services), and a task sent by name runs in both ways of running the room: on the
in-process runner in the embedded mode, on a real worker through Redis."""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest
from celery import current_app

from pokerroom.inprocess import import_task_modules
from tables import tasks
from tables.services import scheduling
from tests.room_processes import celery_worker
from tests.tables.test_task_timing import _wait_for_ping

PING = "pokerroom.tasks.record_ping"


def test_the_services_schedule_the_tables_tasks_by_their_registered_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each schedule names a task the room registered, the one of tables/tasks.py, with the
    names beat's rows and queued messages already carry."""
    sent: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, countdown: sent.append((name, args, countdown))
    )
    scheduling.schedule_action_clock(hand_id=7, seq=12, countdown=10)
    scheduling.schedule_hand_start(table_id=3, countdown=3)
    scheduling.schedule_offer_expiry(entry_id=5, countdown=60)

    assert sent == [
        ("tables.tasks.action_clock_expire", (7, 12), 10),
        ("tables.tasks.start_next_hand", (3,), 3),
        ("tables.tasks.expire_waiting_list_offer", (5,), 60),
    ]
    import_task_modules()
    registered = {name: current_app.tasks[name].run for name, _args, _countdown in sent}
    assert registered == {
        "tables.tasks.action_clock_expire": tasks.action_clock_expire.run,
        "tables.tasks.start_next_hand": tasks.hand_start_next.run,
        "tables.tasks.expire_waiting_list_offer": tasks.waiting_list_offer_expire.run,
    }


def test_embedded_mode_a_task_sent_by_name_runs_on_the_in_process_runner(settings) -> None:
    settings.TASKS_IN_PROCESS = True
    token = uuid.uuid4().hex
    scheduling.task_send(PING, token, countdown=0.2)
    assert _wait_for_ping(token, within=5.0) is not None, "never ran"


@pytest.mark.services
def test_services_mode_a_task_sent_by_name_runs_on_a_real_worker(settings) -> None:
    settings.TASKS_IN_PROCESS = False
    queue = f"by-name-{uuid.uuid4().hex}"
    env = dict(os.environ, TASKS_RUN_BEAT="0", ROOM_TEST_QUEUE=queue)
    with celery_worker(env):
        token = uuid.uuid4().hex
        scheduling.task_send(PING, token, countdown=0.2, queue=queue)
        assert _wait_for_ping(token, within=45.0) is not None, "the worker never ran it"
