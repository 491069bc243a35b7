"""A Celery worker keeps its database connection from one task to the next.

Celery's Django fix-up closes every connection before and after each task unless
CELERY_DB_REUSE_MAX is set; with one action clock per turn that was a new PostgreSQL
connection per action (docs/performance.md, "Live tables"). The room sets it and drops
connections by Django's own rule after each task (pokerroom/celery.py), as after a request.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun
from django.db import connection, transaction

from pokerroom.celery import app
from pokerroom.tasks import record_ping

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker_fixup() -> DjangoWorkerFixup:
    """The fix-up a worker process installs, reading the room's settings."""
    return DjangoWorkerFixup(app)


@pytest.fixture
def connection_max_age() -> Iterator[None]:
    """Restores the test run's CONN_MAX_AGE (tests/conftest.py sets 0) and a fresh connection."""
    before = connection.settings_dict["CONN_MAX_AGE"]
    connection.close()
    yield
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = before


def _task_ended() -> None:
    """The signal a worker sends when a task returns: the room's receivers run."""
    task_postrun.send(
        sender=record_ping, task_id="t", task=record_ping, args=(), kwargs={}, retval=None
    )


def _run_task_as_a_worker_would(fixup: DjangoWorkerFixup) -> object:
    """Prerun, a query, postrun (the fix-up's hooks and the room's receivers): the driver's
    connection object the task used."""
    fixup.on_task_prerun(sender=record_ping)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    used = connection.connection
    fixup.on_task_postrun(sender=record_ping)
    _task_ended()
    return used


@pytest.mark.usefixtures("connection_max_age")
def test_consecutive_tasks_share_one_database_connection(worker_fixup):
    connection.settings_dict["CONN_MAX_AGE"] = 60
    first = _run_task_as_a_worker_would(worker_fixup)
    second = _run_task_as_a_worker_would(worker_fixup)
    third = _run_task_as_a_worker_would(worker_fixup)

    assert first is not None
    assert first is second is third
    assert connection.connection is first


@pytest.mark.usefixtures("connection_max_age")
def test_without_conn_max_age_each_task_closes_its_connection(worker_fixup):
    """Django's rule still applies after a task: CONN_MAX_AGE = 0 closes at once."""
    connection.settings_dict["CONN_MAX_AGE"] = 0
    _run_task_as_a_worker_would(worker_fixup)

    assert connection.connection is None


@pytest.mark.services  # SQLite's connections are always "usable" to Django
@pytest.mark.usefixtures("connection_max_age")
def test_a_broken_connection_is_dropped_after_the_task(worker_fixup):
    """After a database error leaves the connection unusable (PostgreSQL restarted), the
    next task gets a new one."""
    connection.settings_dict["CONN_MAX_AGE"] = 60
    first = _run_task_as_a_worker_would(worker_fixup)
    connection.errors_occurred = True
    first.close()  # as a database restart would leave it
    _task_ended()
    second = _run_task_as_a_worker_would(worker_fixup)

    assert second is not first


@pytest.mark.usefixtures("connection_max_age")
def test_a_task_applied_eagerly_leaves_its_callers_transaction_open(settings):
    """`task.apply()` runs inside the caller's transaction: its end closes nothing."""
    connection.settings_dict["CONN_MAX_AGE"] = 0
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with transaction.atomic():
        record_ping.apply(args=("eager",))
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
