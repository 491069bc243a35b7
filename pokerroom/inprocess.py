"""Celery tasks inside the server process, with countdowns honoured (the embedded mode).

Celery's eager mode runs a task the moment it is sent, which would fire a 10-second action
clock at once. This runner keeps a heap of (due time, task) and a small pool of worker threads
that run each task with Celery's own `Task.apply` when it falls due (a countdown, or an `eta`:
the clock sweep's tasks at a deadline's exact time). It also plays beat: every entry of
`app.conf.beat_schedule` runs when its schedule says it is due, the clock sweep every second.

The runner imports nothing of the room: the Celery app is handed to it (`runner(app)`, by
pokerroom.celery and pokerroom.asgi), so this module sits below the app that uses it.

Nothing here is durable, and it need not be: the clock sweep reads the deadlines from the
database, so a task lost with the process costs at most one sweep, never a hand.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from celery import Celery
from celery.result import EagerResult
from celery.schedules import maybe_schedule
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

logger = logging.getLogger(__name__)

_WORKER_THREADS = 4


@dataclass(order=True)
class _Scheduled:
    due: float
    order: int
    task_name: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    kwargs: dict[str, Any] = field(compare=False)
    task_id: str = field(compare=False)


class InProcessRunner:
    def __init__(
        self, app: Celery, *, worker_threads: int = _WORKER_THREADS, run_beat: bool = True
    ) -> None:
        self._app = app
        self._heap: list[_Scheduled] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._ready: list[_Scheduled] = []
        self._ready_cond = threading.Condition()
        self._stopped = False
        self._run_beat = run_beat
        self._beat_last_run: dict[str, datetime] = {}
        self._threads = [threading.Thread(target=self._clock, name="tasks-clock", daemon=True)]
        self._threads += [
            threading.Thread(target=self._work, name=f"tasks-worker-{n}", daemon=True)
            for n in range(worker_threads)
        ]
        for thread in self._threads:
            thread.start()

    def submit(
        self,
        task_name: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        countdown: float | None = None,
        eta: datetime | None = None,
    ) -> EagerResult:
        delay = 0.0
        if countdown:
            delay = float(countdown)
        elif eta is not None:
            delay = max(0.0, eta.timestamp() - time.time())
        task_id = str(uuid.uuid4())
        item = _Scheduled(
            time.monotonic() + delay, next(self._order), task_name, args, kwargs, task_id
        )
        with self._wake:
            heapq.heappush(self._heap, item)
            self._wake.notify()
        return EagerResult(task_id, None, "PENDING")

    def stop(self, *, wait: float | None = None) -> None:
        """Stop the clock and the workers; `wait`: seconds to wait for each thread to end (a
        task running finishes first)."""
        self._stopped = True
        with self._wake:
            self._wake.notify_all()
        with self._ready_cond:
            self._ready_cond.notify_all()
        if wait is not None:
            for thread in self._threads:
                thread.join(wait)

    def pending(self) -> int:
        with self._wake:
            return len(self._heap)

    # The clock thread moves due tasks to the workers and keeps beat's schedule: it sleeps
    # until the next task or beat entry is due (the clock sweep's 1 s is kept to the tick).
    def _clock(self) -> None:
        beat_next = 1.0
        while not self._stopped:
            with self._wake:
                now = time.monotonic()
                while self._heap and self._heap[0].due <= now:
                    self._hand_to_workers(heapq.heappop(self._heap))
                timeout = min(1.0, beat_next) if self._run_beat else 1.0
                if self._heap:
                    timeout = min(timeout, max(0.0, self._heap[0].due - now))
                self._wake.wait(timeout)
            if self._run_beat:
                beat_next = self._queue_due_beat_entries()

    def _hand_to_workers(self, item: _Scheduled) -> None:
        with self._ready_cond:
            self._ready.append(item)
            self._ready_cond.notify()

    def _queue_due_beat_entries(self) -> float:
        """Queue the beat entries that are due; returns the seconds until the next one."""
        app = self._app
        soonest = 1.0
        for name, entry in app.conf.beat_schedule.items():
            schedule = maybe_schedule(entry["schedule"], app=app)
            last = self._beat_last_run.get(name)
            if last is None:
                self._beat_last_run[name] = timezone.now()
                last = self._beat_last_run[name]
            is_due, next_in = schedule.is_due(last)
            if is_due:
                self._beat_last_run[name] = timezone.now()
                self.submit(entry["task"], tuple(entry.get("args", ())), {})
                _due, next_in = schedule.is_due(self._beat_last_run[name])
            soonest = min(soonest, max(0.01, float(next_in)))
        return soonest

    def _work(self) -> None:
        while not self._stopped:
            with self._ready_cond:
                while not self._ready and not self._stopped:
                    self._ready_cond.wait(1.0)
                if self._stopped:
                    return
                item = self._ready.pop(0)
            self._run(item)

    def _run(self, item: _Scheduled) -> None:
        app = self._app
        close_old_connections()
        try:
            if item.task_name not in app.tasks:
                import_task_modules(app)  # a runner made without runner(): register them now
            task = app.tasks[item.task_name]
            result = task.apply(item.args, item.kwargs, task_id=item.task_id)
            if result.failed():
                logger.error("task %s failed: %s", item.task_name, result.traceback)
        except Exception:
            logger.exception("task %s could not run", item.task_name)
        finally:
            close_old_connections()


_runner: InProcessRunner | None = None
_runner_lock = threading.Lock()


def import_task_modules(app: Celery) -> None:
    """Register every task of the room with the Celery app before anything runs.

    `app.autodiscover_tasks()` is lazy: it waits for `import_default_modules()`, which a
    Celery worker calls when it starts and a Daphne process never does. Without this, beat's
    first sweep in a freshly started server finds no `tables.tasks.sweep_action_deadlines`
    (tables.tasks is otherwise imported only when a service first schedules a task), so a
    hand left waiting by the previous process would never time out.

    Discovery is forced directly rather than through `import_default_modules()`: that sends
    the signal on which Celery's Django fixup runs the worker's start-up checks (all of
    Django's system checks), which a web server has no business running."""
    app.autodiscover_tasks(force=True)
    for module in app.loader.default_modules:
        app.loader.import_task_module(module)


def runner(app: Celery) -> InProcessRunner:
    """The process's runner of `app`'s tasks, started on first use, with every task
    registered."""
    global _runner
    with _runner_lock:
        if _runner is None:
            import_task_modules(app)
            _runner = InProcessRunner(app, run_beat=getattr(settings, "TASKS_RUN_BEAT", True))
        return _runner
