"""The room's Prometheus metrics and its action log (issue #16, "The room reports its own
health"): every instrument of the room, and the one-line calls the rest of the code makes.

The code that plays makes one call here where a thing worth counting happens, and knows
nothing of Prometheus:

- `@act_observed` on `hand_act`: its service time (`pokerroom_act_seconds`), its answer by
  outcome and refusal reason (`pokerroom_actions_total`), and the action's log line (logger
  `pokerroom.actions`, with `table`, `hand` and `seq` as fields of the record);
- `@time_out_observed` on `hand_time_out`: the log line of a clock that ran out and played;
- `clock_fired(now, deadline)`: how late an action clock fired (`pokerroom_clock_late_seconds`);
- `hand_dealt(game)`, `rake_taken(cents, game)`: counted when their transaction commits
  (a change rolled back counts nothing);
- `frame_sent()`: every WebSocket frame a consumer sends;
- `task_sent` / `task_started` (Celery signals, pokerroom/celery.py): how long a task waited
  between being due (sent, or its ETA) and a worker starting it.

Gauges of the room as it stands (open tables, players seated and connected, hands in play) are
read from the database when `/metrics` is scraped (pokerroom/health.py), so they are right
whichever process served the players.

Several processes (Daphne processes, Celery workers and their pool) each count their own: with
`PROMETHEUS_MULTIPROC_DIR` set (the same directory for every process of one machine, emptied
before they start), prometheus_client's multiprocess mode writes each process's values there
and `/metrics` adds them up; unset, a process counts in memory and shows its own
(docs/operations.md, "Health and metrics"). This module imports nothing of the room's apps
(a contract in pyproject.toml): the tables services import it.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ParamSpec, Protocol, TypeVar

from django.db import transaction

# prometheus_client chooses its multiprocess mode at import, from the environment; its files
# go in this directory, which must exist before the first metric is made.
MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROCESS_DIR:
    os.makedirs(MULTIPROCESS_DIR, exist_ok=True)

from prometheus_client import Counter, Histogram  # noqa: E402

action_logger = logging.getLogger("pokerroom.actions")

ACTIONS = Counter(
    "pokerroom_actions",
    "Players' actions (hand_act) by outcome (applied, refused, stale) and refusal reason "
    "(tables.services.results.Refusal; empty when applied).",
    ["outcome", "reason"],
)
ACT_SECONDS = Histogram(
    "pokerroom_act_seconds",
    "Service time of hand_act (lock, engine, writes, commit, after-commit jobs), in seconds.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
HANDS_DEALT = Counter("pokerroom_hands_dealt", "Hands dealt, by game.", ["game"])
RAKE_CENTS = Counter("pokerroom_rake_cents", "Rake taken, in cents, by game.", ["game"])
FRAMES_SENT = Counter("pokerroom_websocket_frames_sent", "Frames sent down the tables' WebSockets.")
CLOCK_LATE = Histogram(
    "pokerroom_clock_late_seconds",
    "How late an action clock fired: when its time-out was applied, minus the deadline.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0),
)
TASK_LAG = Histogram(
    "pokerroom_celery_task_lag_seconds",
    "Celery queue lag: a task's start minus when it was due (sent, or its ETA), by task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)

# The header a task message carries its sending time in (Celery signals below).
SENT_AT_HEADER = "pokerroom_sent_at"


class Answer(Protocol):
    """What a table service answers (tables.services.results.TableResult), as read here."""

    @property
    def status(self) -> str: ...
    @property
    def error(self) -> str | None: ...
    @property
    def table_id(self) -> int: ...
    @property
    def hand_id(self) -> int | None: ...
    @property
    def seq(self) -> int | None: ...


P = ParamSpec("P")
A = TypeVar("A", bound=Answer)


def act_observed(service: Callable[P, A]) -> Callable[P, A]:
    """`hand_act`'s time, its answer by outcome and reason, and its log line."""

    @functools.wraps(service)
    def observed(*args: P.args, **kwargs: P.kwargs) -> A:
        started = time.perf_counter()
        answer = service(*args, **kwargs)
        ACT_SECONDS.observe(time.perf_counter() - started)
        ACTIONS.labels(answer.status, "" if answer.error is None else str(answer.error)).inc()
        _log_action(answer, kwargs)
        return answer

    return observed


def _log_action(answer: Answer, call: Mapping[str, Any]) -> None:
    player = call.get("player")
    fields = {
        "table": answer.table_id,
        "hand": answer.hand_id,
        "seq": answer.seq,
        "player": getattr(player, "pk", None),
        "action": call.get("kind"),
        "amount": call.get("amount", 0),
        "outcome": answer.status,
    }
    if answer.status == "applied":
        action_logger.info(
            "table %s hand %s seq %s: player %s %s %s",
            *(fields[name] for name in ("table", "hand", "seq", "player", "action", "amount")),
            extra=fields,
        )
        return
    fields["reason"] = None if answer.error is None else str(answer.error)
    action_logger.info(
        "table %s hand %s seq %s: player %s %s %s %s (%s)",
        *(fields[name] for name in ("table", "hand", "seq", "player", "action", "amount")),
        answer.status,
        fields["reason"],
        extra=fields,
    )


def time_out_observed(service: Callable[P, A]) -> Callable[P, A]:
    """The log line of a clock that ran out and was applied (R-TIME-1, or a time bank
    started); a stale or early clock, the common case, logs nothing."""

    @functools.wraps(service)
    def observed(*args: P.args, **kwargs: P.kwargs) -> A:
        answer = service(*args, **kwargs)
        if answer.status == "applied":
            action_logger.info(
                "table %s hand %s seq %s: the clock ran out",
                answer.table_id,
                answer.hand_id,
                answer.seq,
                extra={
                    "table": answer.table_id,
                    "hand": answer.hand_id,
                    "seq": answer.seq,
                    "action": "time_out",
                    "outcome": answer.status,
                },
            )
        return answer

    return observed


def clock_fired(now: datetime, deadline: datetime) -> None:
    """An action clock is applied at `now`; it was due at `deadline` (never counted early)."""
    CLOCK_LATE.observe(max(0.0, (now - deadline).total_seconds()))


def hand_dealt(game: str) -> None:
    """A hand is dealt (counted when the deal commits)."""
    transaction.on_commit(HANDS_DEALT.labels(game).inc)


def rake_taken(cents: int, game: str) -> None:
    """Rake taken from a hand's pots (counted when the hand's end commits)."""
    transaction.on_commit(functools.partial(RAKE_CENTS.labels(game).inc, cents))


def frame_sent() -> None:
    FRAMES_SENT.inc()


# --- Celery: queue lag ------------------------------------------------------------------------


def task_sent(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """`before_task_publish`: the message carries the time it was sent."""
    if headers is not None:
        headers.setdefault(SENT_AT_HEADER, time.time())


def task_started(task: Any = None, **_: Any) -> None:
    """`task_prerun`: the lag between when the task was due and now. Due is its ETA when it
    has one (an action clock), else when it was sent; a task applied in the process (the
    embedded mode) carries neither and is not measured."""
    request = getattr(task, "request", None)
    if request is None or getattr(request, "is_eager", False):
        return
    sent_at = _header(request, SENT_AT_HEADER)
    if sent_at is None:
        return
    due = float(sent_at)
    eta = _when(getattr(request, "eta", None))
    if eta is not None:
        due = max(due, eta.timestamp())
    TASK_LAG.labels(task.name).observe(max(0.0, time.time() - due))


def _when(value: Any) -> datetime | None:
    """A task's ETA: a datetime, or its ISO text (as the message carries it)."""
    if isinstance(value, datetime) or not value:
        return value or None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def _header(request: Any, name: str) -> Any:
    """A custom header of the task's message: Celery puts them on the request itself (message
    protocol 2), or in its `headers` (older clients)."""
    value = getattr(request, name, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(name)
    return value
