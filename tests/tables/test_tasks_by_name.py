"""The services queue their tasks by registered name (issue #12: no import of tables.tasks from
the services), and a task sent by name runs in both ways of running the room: on the
in-process runner in the embedded mode, on a real worker through Redis."""

from __future__ import annotations

import os
import uuid

import pytest
from celery import current_app

from pokerroom.celery import app as celery_app
from pokerroom.inprocess import import_task_modules
from tables import tasks
from tables.services import scheduling
from tests.room_processes import celery_worker
from tests.tables.test_task_timing import _wait_for_ping

PING = "pokerroom.tasks.record_ping"


def test_the_clock_sweep_schedules_the_tables_tasks_by_their_registered_names() -> None:
    """Each deadline kind the sweep keeps names a task the room registered, the one of
    tables/tasks.py, with the names beat's rows and queued messages already carry."""
    named = {
        kind.name: kind.task
        for kind in scheduling.DEADLINE_KINDS.values()
        if kind.task.startswith("tables.")  # other apps' kinds: their own tests
    }
    assert named == {
        "action_clock": "tables.tasks.action_clock_expire",
        "next_hand": "tables.tasks.start_next_hand",
        "seat_offer": "tables.tasks.expire_waiting_list_offer",
        "reality_check": "tables.tasks.reality_check_send",  # issue #26
    }
    import_task_modules(celery_app)
    registered = {task: current_app.tasks[task].run for task in named.values()}
    assert registered == {
        "tables.tasks.action_clock_expire": tasks.action_clock_expire.run,
        "tables.tasks.start_next_hand": tasks.hand_start_next.run,
        "tables.tasks.expire_waiting_list_offer": tasks.waiting_list_offer_expire.run,
        "tables.tasks.reality_check_send": tasks.reality_check_send.run,
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
