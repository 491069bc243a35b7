"""The Celery worker's consumer, made to survive a Redis outage (issue #11).

When the connection to Redis is lost, Celery's consumer closes the broken connection before
it reconnects. Closing a Redis channel puts back the messages the worker holds unacknowledged
(the tasks waiting for their time: the clock sweep sends each deadline's up to 1.5 s ahead)
by writing them to Redis: the Redis that just went away. With celery and kombu 5.7 (the
newest) that write runs after kombu has already detached the channel from its connection, so
instead of a connection error it raises ``AttributeError: 'NoneType' object has no attribute
'hostname'`` (in kombu's ``_connparams``, from ``QoS.restore_unacked``); Celery counts that as
unrecoverable and the worker exits. Nothing restarted it, so no clock ran out and no hand was
dealt until someone did.

The fix: after a connection loss the consumer does not try to restore those messages through
the lost connection. Nothing is lost by that which the room needs:
- Redis keeps a copy of each in its "unacked" set; if it comes back with its data, kombu
  restores them after the visibility timeout;
- if it comes back empty, they are gone either way, and the beat's sweep
  (``tables.tasks.sweep_action_deadlines``) applies every deadline in the database that
  passed, and starts every hand that is due.
Celery drops the worker's copies of the held tasks on reconnecting (``Consumer.on_close``),
so none runs twice.

tests/tables/test_worker_broker_outage.py stops a private Redis under a worker holding a
task that waits for its time and starts it again.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery.worker.consumer import Consumer

logger = logging.getLogger(__name__)

# Seconds between two attempts to reach the broker again. Celery's are 2, 4, 6, ... up to 30:
# after a long outage the worker would come back up to 30 s after Redis did, while the
# tables' clocks wait. A refused connection costs nothing; try every second.
RECONNECT_INTERVAL = 1.0


class RoomConsumer(Consumer):
    """Celery's consumer, except that a lost connection is closed without writing to it,
    and the broker is tried again every second while it is away."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A task that was running when the connection went finishes later and acknowledges
        # its message on the old channel, which kombu has detached from its connection:
        # AttributeError again (in QoS.ack), not a connection error, and the worker exited
        # (found by benchmarks/chaos.py). Counted as a connection error, the ack failure is
        # logged and the worker goes on; the message stays in the broker's unacked set and
        # comes back after the visibility timeout, when its seq has moved on (a no-op).
        self.connection_errors: tuple[type[BaseException], ...] = (
            *self.connection_errors,
            AttributeError,
        )

    def ensure_connected(self, conn: Any) -> Any:
        conn.ensure_connection = partial(
            conn.ensure_connection,
            interval_start=RECONNECT_INTERVAL,
            interval_step=0,
            interval_max=RECONNECT_INTERVAL,
        )
        return super().ensure_connected(conn)

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        held = keep_unacked_messages_in_the_broker(self.connection)
        if held:
            logger.warning(
                "broker connection lost with %d task(s) held unacknowledged: left to the "
                "broker's copy and the deadline sweep",
                held,
            )
        super().on_connection_error_after_connected(exc)


def keep_unacked_messages_in_the_broker(connection: Any) -> int:
    """Tell each channel of `connection` not to put back its unacknowledged messages when it
    closes (kombu's QoS.restore_at_shutdown). Returns how many messages they hold."""
    if connection is None:
        return 0
    transport = getattr(connection, "_transport", None)  # never create one here
    held = 0
    for channel in getattr(transport, "channels", ()):
        qos = getattr(channel, "_qos", None)  # only a channel that has delivered anything
        if qos is None:
            continue
        held += len(qos._delivered)
        qos.restore_at_shutdown = False
    return held
