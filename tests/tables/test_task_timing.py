"""Celery countdowns and ETAs are honoured in both ways of running (the clock sweep sends each
deadline's task with an `eta`; the room depends on it)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache

from pokerroom.tasks import record_ping
from tests.room_processes import celery_worker

ROOT = Path(__file__).resolve().parents[2]


def _wait_for_ping(token: str, *, within: float) -> float | None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        ran_at = cache.get(f"ping:{token}")
        if ran_at is not None:
            return float(ran_at)
        time.sleep(0.02)
    return None


def test_embedded_mode_runs_a_task_one_second_later_not_at_once(settings):
    """The in-process runner: a task sent with countdown=1 runs about 1 s later."""
    settings.TASKS_IN_PROCESS = True
    token = uuid.uuid4().hex
    sent_at = time.time()
    record_ping.apply_async(args=(token,), countdown=1)

    assert _wait_for_ping(token, within=0.7) is None, "ran before its countdown"
    ran_at = _wait_for_ping(token, within=2.0)
    assert ran_at is not None, "never ran"
    assert 0.95 <= ran_at - sent_at <= 1.5


def test_embedded_mode_runs_tasks_in_due_order(settings):
    settings.TASKS_IN_PROCESS = True
    later, sooner = uuid.uuid4().hex, uuid.uuid4().hex
    record_ping.apply_async(args=(later,), countdown=0.6)
    record_ping.apply_async(args=(sooner,), countdown=0.2)
    sooner_at = _wait_for_ping(sooner, within=2.0)
    later_at = _wait_for_ping(later, within=2.0)
    assert sooner_at is not None and later_at is not None
    assert sooner_at < later_at


@pytest.mark.services
def test_services_mode_a_real_worker_runs_a_task_one_second_later(settings):
    """On Redis with a real Celery worker process, countdown=1 means about 1 s."""
    settings.TASKS_IN_PROCESS = False
    queue = f"timing-{uuid.uuid4().hex}"  # a queue of its own: no message of another run
    env = dict(os.environ, TASKS_RUN_BEAT="0", ROOM_TEST_QUEUE=queue)
    with celery_worker(env):
        warm_up = uuid.uuid4().hex
        record_ping.apply_async(args=(warm_up,), queue=queue)
        assert _wait_for_ping(warm_up, within=30.0) is not None, "the worker never started"

        token = uuid.uuid4().hex
        sent_at = time.time()
        record_ping.apply_async(args=(token,), countdown=1, queue=queue)
        assert _wait_for_ping(token, within=0.7) is None, "ran before its countdown"
        ran_at = _wait_for_ping(token, within=3.0)
        assert ran_at is not None, "never ran"
        assert 0.95 <= ran_at - sent_at <= 1.8


_FRESH_SERVER = """
import os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "pokerroom.settings"
import django
django.setup()
from pokerroom.celery import app
assert "tables.tasks" not in sys.modules, "imported before the runner: the test proves nothing"
from pokerroom.inprocess import runner
runner(app).stop()
missing = [
    name
    for entry in app.conf.beat_schedule.values()
    for name in [entry["task"]]
    if name not in app.tasks
]
print("missing:", missing)
sys.exit(1 if missing else 0)
"""


def test_a_fresh_server_process_registers_the_beat_tasks_before_its_runner_starts():
    """The report of `make run` logging "tables.tasks.sweep_action_deadlines is not
    registered": autodiscovery is lazy, and a Daphne process (unlike a Celery worker) never
    imported tables.tasks until a service scheduled something, so beat's sweep could not run
    in a server restarted with a hand waiting. The runner imports the task modules first."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env["TASKS_RUN_BEAT"] = "1"
    run = subprocess.run(
        [sys.executable, "-c", _FRESH_SERVER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
