"""The Celery app and its beat schedule.

With REDIS_URL set, tasks go to a real worker through Redis and beat reads its schedule from
the database (django-celery-beat, editable in the admin). Without it (the embedded mode of
`make run`), tasks run inside the server process on the in-process runner, which honours
countdowns and ETAs: Celery's eager mode would run an action clock at once.
"""

import os
from datetime import timedelta
from typing import Any

from celery import Celery, Task
from celery.result import AsyncResult
from celery.schedules import crontab
from celery.signals import before_task_publish, task_postrun, task_prerun, worker_process_init
from django.conf import settings
from django.db import close_old_connections

from pokerroom import metrics
from pokerroom.inprocess import runner

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")


class RoomTask(Task):
    """A task that runs on the in-process runner when the room has no broker."""

    def apply_async(self, args: Any = None, kwargs: Any = None, **options: Any) -> AsyncResult:
        if not getattr(settings, "TASKS_IN_PROCESS", False):
            return super().apply_async(args, kwargs, **options)
        return runner(self.app).submit(
            self.name,
            tuple(args or ()),
            dict(kwargs or {}),
            countdown=options.get("countdown"),
            eta=options.get("eta"),
        )


class RoomCelery(Celery):
    """Tasks sent by name (`app.send_task`, as the table services do) go where a task's own
    `apply_async` goes: to the broker, or without one to the in-process runner."""

    def send_task(
        self, name: str, args: Any = None, kwargs: Any = None, **options: Any
    ) -> AsyncResult:
        if not getattr(settings, "TASKS_IN_PROCESS", False):
            return super().send_task(name, args, kwargs, **options)
        return runner(self).submit(
            name,
            tuple(args or ()),
            dict(kwargs or {}),
            countdown=options.get("countdown"),
            eta=options.get("eta"),
        )


app = RoomCelery("pokerroom", task_cls=RoomTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.conf.imports = ("pokerroom.tasks",)

# How often the clock sweep runs: DEADLINE_SWEEP_SECONDS in the environment (read here, not in
# the settings: this module is imported while the settings module itself is). Change it there,
# not in the admin: the sweep schedules ahead by this interval, and beat's row is rewritten
# from it on start.
DEADLINE_SWEEP_ENTRY = "sweep-expired-action-clocks"
DEADLINE_SWEEP = timedelta(seconds=float(os.environ.get("DEADLINE_SWEEP_SECONDS", "1")))

# The room's periodic jobs. In the services shape django-celery-beat copies these into the
# database on start, where staff can see and change them in the admin; in the embedded mode
# the in-process runner reads them directly.
app.conf.beat_schedule = {
    # The clock sweep (DESIGN.md "Time"): every DEADLINE_SWEEP (1 s) it applies the deadlines
    # passed and schedules a task at the exact time of each one falling before the next sweep
    # (tables/services/scheduling.py reads its interval here): the tables' deadlines and every
    # app's registered kinds (tournaments: starts, level and break ends, idle tables). The
    # entry keeps its first name, so the row django-celery-beat already has is updated rather
    # than a second one added.
    DEADLINE_SWEEP_ENTRY: {
        "task": "tables.tasks.sweep_action_deadlines",
        "schedule": DEADLINE_SWEEP,
    },
    # A player whose Daphne process died shows gone within seconds (tables.services.presence).
    "sweep-stale-presence": {
        "task": "tables.tasks.sweep_stale_presence",
        "schedule": timedelta(seconds=2),
    },
    "reset-all-in-protection-at-new-york-midnight": {
        "task": "accounts.tasks.reset_all_in_allowances",
        "schedule": crontab(minute=0, hour=0),
    },
    # Yesterday's rake report to settings.ACCOUNTING_EMAIL (skipped when it is empty).
    "mail-daily-rake-report": {
        "task": "tables.tasks.mail_daily_rake_report",
        "schedule": crontab(minute=30, hour=0),
    },
    # Collusion signals (issue #25): the hands finished since the last run, read into the
    # pairs' counts (integrity.services.integrity_scan; a locked row, so runs never overlap).
    "integrity-scan-new-hands": {
        "task": "integrity.tasks.scan_new_hands",
        "schedule": timedelta(minutes=5),
    },
}


# Celery queue lag (pokerroom/metrics.py): a message carries its sending time; a worker
# measures, at the task's start, how long after it was due (sent, or its ETA) it started.
before_task_publish.connect(metrics.task_sent, weak=False)
task_prerun.connect(metrics.task_started, weak=False)


@worker_process_init.connect
def broadcast_from_own_loop(**_: Any) -> None:
    """A worker process has no event loop: its broadcasts share one long-lived loop."""
    # Imported here, not above: this module is imported with the settings (pokerroom's
    # __init__), before Django's app registry is ready, and the tables' modules need it.
    from tables.services.broadcast import broadcast_from_own_loop

    broadcast_from_own_loop()


@task_postrun.connect
def close_old_connections_after_task(sender: Task | None = None, **_: Any) -> None:
    """Keep the task's database connection for the next one, as CONN_MAX_AGE allows.

    With CELERY_DB_REUSE_MAX set, Celery no longer closes it; Django's own rule drops it
    when it is too old or broken (after an error, or a database restart), as it does after
    a request. A task applied eagerly runs inside its caller's transaction, whose connection
    is not the task's to close (Celery's own fix-up skips those too).
    """
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    close_old_connections()
