"""Issue #11: the Celery worker survives a Redis outage and carries on when Redis returns.

During play the worker always holds countdown tasks unacknowledged (each turn's action clock,
the next hand's start). Losing Redis then killed it: closing the lost connection, kombu tried
to put those tasks back into Redis and raised AttributeError ("'NoneType' object has no
attribute 'hostname'"), which Celery treats as unrecoverable (pokerroom/worker.py).

The test runs a real worker on a redis-server of its own, stops that Redis while the worker
holds a countdown task, starts it again on the same port, and sends a task.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from celery import Celery
from django.core.cache.backends.redis import RedisCache

from tests.room_processes import PrivateRedis, celery_worker, private_redis, room_env

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# How long Redis stays away: several of the worker's reconnect attempts.
OUTAGE_SECONDS = 6
# Generous bounds for a busy two-core machine; these wait for an event, they time nothing.
WORKER_START = 45
TASK_RUN = 30


@pytest.fixture
def broker() -> Iterator[PrivateRedis]:
    with private_redis() as server:
        yield server


def _send_ping(broker_url: str, queue: str, token: str, *, countdown: float | None = None) -> None:
    """Send the room's ping task as any room process would, on a fresh connection."""
    sender = Celery(broker=broker_url)
    try:
        sender.send_task(
            "pokerroom.tasks.record_ping", args=(token,), queue=queue, countdown=countdown
        )
    finally:
        sender.close()


def _wait_for_ping(
    broker_url: str, token: str, process: subprocess.Popen[bytes], within: float
) -> None:
    """Until the worker has run the ping (it writes to the cache on that same Redis)."""
    cache = RedisCache(broker_url, {})
    deadline = time.monotonic() + within
    while cache.get(f"ping:{token}") is None:
        assert process.poll() is None, "the worker exited"
        assert time.monotonic() < deadline, f"the ping {token} never ran"
        time.sleep(0.1)


def _wait_until_held(broker: PrivateRedis, within: float) -> None:
    """Until the worker holds the countdown task unacknowledged (kombu's "unacked" hash)."""
    client = redis.Redis(port=broker.port)
    deadline = time.monotonic() + within
    while not client.hlen("unacked"):
        assert time.monotonic() < deadline, "the worker never took the countdown task"
        time.sleep(0.1)
    client.close()


def test_the_worker_survives_a_redis_outage_while_holding_a_clock_and_runs_tasks_after(
    broker: PrivateRedis,
) -> None:
    queue = f"q-{uuid.uuid4().hex}"
    env = room_env(REDIS_URL=broker.url, ROOM_TEST_QUEUE=queue)
    with celery_worker(env) as worker:
        ready = uuid.uuid4().hex
        _send_ping(broker.url, queue, ready)
        _wait_for_ping(broker.url, ready, worker, WORKER_START)
        # An action clock waiting for its time, as there always is during play.
        _send_ping(broker.url, queue, "a-clock-for-later", countdown=600)
        _wait_until_held(broker, TASK_RUN)

        broker.stop()
        time.sleep(OUTAGE_SECONDS)
        assert worker.poll() is None, "the worker exited while Redis was away"
        broker.start()

        after = uuid.uuid4().hex
        _send_ping(broker.url, queue, after)
        _wait_for_ping(broker.url, after, worker, TASK_RUN)
        assert worker.poll() is None
