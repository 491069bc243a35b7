"""The room's clock (DESIGN.md "Time", issue #15): a deadline is data, the sweep keeps time.

A service that sets a deadline (a hand's `action_deadline`, a table's `next_hand_at`, a seat
offer's `offered_until`) stores it and sends nothing. Beat runs the clock sweep every
`sweep_seconds()` (1 s: `deadlines_sweep`, through `tables.services.hand_deadlines_sweep`). Each
sweep, for every registered deadline kind:

- every deadline already passed is applied there and then, one table change each, with the
  table row taken `FOR UPDATE SKIP LOCKED` (a table another process holds is left to the task
  or sweep that holds it);
- every deadline falling before the next sweep (now < deadline <= now + `sweep_horizon()`)
  gets one task at that exact time (`eta=deadline`), carrying the row and what makes it
  current (a hand's `seq`); the task does nothing when it finds the row moved on.

So a clock that runs out fires on time, a turn answered early costs no message, and a lost
task or a dead worker costs at most one sweep interval.

A deadline set closer than the horizon may pass before the next sweep sees it: the service
that sets it sends its task itself (`deadline_send_if_soon`). With the room's timings that
is rare: never on the act path of a table whose action clock is longer than the horizon
(10 s by default; the horizon is 1.5 s), never for the pause between hands (3 s) or a seat
offer (60 s); only a time bank with less than the horizon left, or a timing set that short.

A new timed thing (the tournaments' levels and breaks) is one `DeadlineKind` registered with
`deadline_kind_register` when its services module is imported (the app's tasks module imports
it, and every process that runs the sweep imports every tasks module: the worker's
autodiscovery, the in-process runner's `import_task_modules`). Its task is sent by registered
name, so the services import no task (pyproject.toml's import contract).

The browser tests' hold (`sweep_hold`): the room those tests run in a Daphne of their own sweeps
the test database, while the test process plays and dates hands on it. Their settings module
(tests/browser/server_settings.py, and only that one) names a file, `CLOCK_SWEEP_TEST_HOLD_FILE`,
that the harness writes: table ids, one a line; the sweep leaves those tables'
deadlines alone (no task scheduled, nothing applied) while they are listed. The room's own
settings (pokerroom/settings.py) never define it nor read an environment variable for it, and
it is read only with DEBUG on: production, DEBUG off on the room's settings, cannot hold a
table (tests/tables/test_clock.py checks both).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.utils import timezone

from tables import kinds

logger = logging.getLogger(__name__)

ACTION_CLOCK_EXPIRE = "tables.tasks.action_clock_expire"
HAND_START_NEXT = "tables.tasks.start_next_hand"
WAITING_LIST_OFFER_EXPIRE = "tables.tasks.expire_waiting_list_offer"
DEADLINES_SWEEP = "tables.tasks.sweep_action_deadlines"
SWEEP_ENTRY = "sweep-expired-action-clocks"


def sweep_seconds() -> float:
    """Seconds between two clock sweeps: beat's entry `sweep-expired-action-clocks`
    (pokerroom/celery.py, DEADLINE_SWEEP_SECONDS in the environment, 1 s by default)."""
    entry = current_app.conf.beat_schedule.get(SWEEP_ENTRY)
    if entry is None:  # pragma: no cover - an app without the room's beat schedule
        return 1.0
    return float(entry["schedule"].total_seconds())


def sweep_horizon() -> timedelta:
    """How far ahead a sweep schedules tasks: one interval and a half, so that a sweep that
    runs a little late (beat's own tick, a busy worker) finds nothing already passed that
    the one before it could have scheduled. A deadline seen by two sweeps gets two tasks; the
    second finds it applied and does nothing."""
    return timedelta(seconds=1.5 * sweep_seconds())


# The rows of a kind whose deadline is at or before a time: (deadline, table id, task
# arguments); the table id (None for a deadline of no one table, a tournament's level) is
# what a test's hold (`sweep_hold`) names.
DueRows = Callable[[datetime], Iterable[tuple[datetime, int | None, Sequence[Any]]]]
# Apply one passed deadline from the sweep (`now`, the table taken SKIP LOCKED); True when
# it was applied (not stale, not busy).
ApplyPassed = Callable[..., bool]


@dataclass(frozen=True)
class DeadlineKind:
    """One kind of timed thing the sweep keeps.

    `due`: the rows whose deadline is at or before the given time, with their table's id
    and the arguments of their task (one query; the sweep asks once per run for everything
    up to its horizon);
    `task`: the registered name of the task that applies one at its time (it must be a no-op
    when its row moved on); `apply`: the service the sweep calls for one already passed,
    `apply(*arguments, now=now)`, taking its table `FOR UPDATE SKIP LOCKED`."""

    name: str
    due: DueRows
    task: str
    apply: ApplyPassed


DEADLINE_KINDS: dict[str, DeadlineKind] = {}


def deadline_kind_register(kind: DeadlineKind) -> None:
    """Add (or replace, by name) a kind the sweep keeps."""
    DEADLINE_KINDS[kind.name] = kind


# A tournament table between hands (tables/kinds.py names its task).
TOURNAMENT_TABLE_BETWEEN_HANDS = kinds.TOURNAMENT_TABLE_BETWEEN_HANDS


def task_send(name: str, *args: Any, countdown: float, **options: Any) -> None:
    """Queue the task registered as `name` to run `countdown` seconds from now (`options`:
    Celery's, e.g. a test's own queue)."""
    current_app.send_task(name, args=args, countdown=countdown, **options)


def task_send_at(name: str, args: Sequence[Any], *, eta: datetime) -> None:
    """Queue the task registered as `name` to run at `eta`: to the broker, or in the embedded
    mode to the in-process runner (pokerroom/celery.py)."""
    current_app.send_task(name, args=tuple(args), eta=eta)


def deadline_send_if_soon(
    after_commit: Callable[[Callable[[], None]], None],
    task: str,
    args: Sequence[Any],
    *,
    deadline: datetime,
    now: datetime,
) -> None:
    """A deadline closer than the sweep's horizon may pass before the next sweep sees it:
    its task goes out after the commit (`after_commit`: the change's outbox). Any later
    deadline is the sweep's, and nothing is sent."""
    if deadline - now > sweep_horizon():
        return
    arguments = tuple(args)
    after_commit(lambda: task_send_at(task, arguments, eta=deadline))


def sweep_hold() -> frozenset[int]:
    """The tables a browser test holds off the sweep (the module's docstring). Always none
    unless the settings name the test harness's file and DEBUG is on."""
    path = getattr(settings, "CLOCK_SWEEP_TEST_HOLD_FILE", None)
    if not path or not settings.DEBUG:
        return frozenset()
    try:
        with open(os.fspath(path)) as hold:
            words = hold.read().split()
    except FileNotFoundError:
        return frozenset()
    return frozenset(int(word) for word in words)


def deadlines_sweep(*, now: datetime | None = None) -> int:
    """One run of the clock sweep over every registered kind: first the tasks of the
    deadlines falling before the next sweep (so a backlog to apply delays none of them), then
    every deadline already passed, applied here. Returns how many were applied. A table a
    browser test holds (`sweep_hold`) is skipped."""
    now = timezone.now() if now is None else now
    until = now + sweep_horizon()
    due = [(kind, list(kind.due(until))) for kind in list(DEADLINE_KINDS.values())]
    # Read after the rows: a hold written before a test gave its table a deadline holds it.
    held = sweep_hold()
    passed: list[tuple[DeadlineKind, Sequence[Any]]] = []
    for kind, rows in due:
        for deadline, table_id, args in rows:
            if table_id is not None and table_id in held:
                continue
            if deadline <= now:
                passed.append((kind, args))
            else:
                try:
                    task_send_at(kind.task, args, eta=deadline)
                except Exception:  # the broker away: the next sweep applies it when passed
                    logger.exception("the sweep could not schedule %s %s", kind.name, args)
    applied = 0
    for kind, args in passed:
        try:
            if kind.apply(*args, now=now):
                applied += 1
        except Exception:  # one table's failure must not stop the clock of the others
            logger.exception("the sweep could not apply %s %s", kind.name, args)
    return applied
