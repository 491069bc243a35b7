"""Sending frames to the Channels groups, only ever after the transaction commits."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.realtime.frames import Frame, frame_text
from tables.services.results import Frames

logger = logging.getLogger(__name__)

# Seconds a process without an event loop waits for its broadcast to be handed to the layer.
BROADCAST_TIMEOUT = 10.0
_own_loop: asyncio.AbstractEventLoop | None = None
# The embedded mode: the server's event loop, where the in-memory channel layer's queues live.
_server_loop: asyncio.AbstractEventLoop | None = None

MESSAGE_TYPE = "room.frames"  # the consumer's `room_frames` handler receives it


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def broadcast(*, table_id: int, frames: Frames) -> bool:
    """Send each frame to its group. A lost message is mended by seq + snapshot (DESIGN.md),
    so a failing channel layer is logged, never raised into the caller; False tells the
    caller the frames were lost (the outbox then spares the player to act their clock)."""
    if not frames:
        return True
    layer = get_channel_layer()
    if layer is None:
        return True
    # One message per group per change, its frames already JSON text: a change of many
    # events (a street dealt) is a few trips to the channel layer, and each frame is
    # serialised once, not once per viewer.
    messages = []
    if frames.table:
        messages.append((table_group(table_id), frames_message(table_id, frames.table)))
    messages += [
        (user_group(user_id), frames_message(table_id, user_frames))
        for user_id, user_frames in frames.users.items()
        if user_frames
    ]

    try:
        send_to_groups(layer, messages)
    except Exception:
        logger.exception("broadcast to table %s failed", table_id)
        return False
    return True


def send_to_groups(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send channel-layer messages to their groups in order, from any thread: on the
    process's own loop when it has one (a Celery worker), else through the server's loop.
    Raises what the layer raises (the callers log it). Also used by tournaments.broadcast."""

    async def send_all() -> None:
        # In order, one after the other: a group's frames must arrive in seq order.
        for group, message in messages:
            await _group_send_once_more_on_failure(layer, group, message)

    loop = _own_loop or _server_loop
    if loop is not None and loop.is_running() and not _running_in(loop):
        asyncio.run_coroutine_threadsafe(send_all(), loop).result(BROADCAST_TIMEOUT)
    else:
        # In a server thread: one trip to the server's event loop for the whole batch.
        async_to_sync(send_all)()


async def _group_send_once_more_on_failure(layer: Any, group: str, message: dict[str, Any]) -> None:
    """One send, tried a second time if the first raised. After Redis restarts, the first
    command on each connection the layer's pool kept fails (the server closed it) and the
    next opens a new one: without the second try, the first broadcast after an outage (the
    time-out applied on Redis's return, with the next player's turn) was lost, and that turn
    waited a whole action clock more (issue #22). Only this message is sent again, so no
    group gets a frame twice from a send that had gone through."""
    try:
        await layer.group_send(group, message)
    except Exception as first:
        logger.warning("group_send to %s failed (%s): trying once more", group, first)
        await layer.group_send(group, message)


def broadcast_from_own_loop() -> None:
    """For a process with no event loop of its own (a Celery worker process): carry every
    broadcast on one long-lived loop in a daemon thread. Otherwise each broadcast would start
    a thread with a new loop and, on Redis, open new connections: more than the change costs."""
    global _own_loop
    if _own_loop is not None:
        return
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="room-broadcasts", daemon=True).start()
    _own_loop = loop


def broadcast_from_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The embedded mode (one process, the in-memory channel layer): carry broadcasts on the
    server's loop, whatever thread they come from. A task of the in-process runner (a time-out,
    a hand dealt by the clock sweep) runs in a thread of its own; sent from there, a frame was
    put on the consumers' queues from another loop, which the server's loop noticed only when
    it next woke (Daphne's one-second tick), so a time-out reached the players a second late."""
    global _server_loop
    _server_loop = loop


def _running_in(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def frames_message(table_id: int, frames: list[Frame]) -> dict[str, Any]:
    """The channel-layer message carrying a table's frames to one group, in order, each
    encoded once (tables/realtime/frames.py)."""
    return {
        "type": MESSAGE_TYPE,
        "table_id": table_id,
        "texts": [frame_text(frame) for frame in frames],
    }
