"""Sending frames to the Channels groups, only ever after the transaction commits."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.services.results import Frames

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "room.frame"  # the consumer's `room_frame` handler receives it


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def broadcast(*, table_id: int, frames: Frames) -> None:
    """Send each frame to its group. A lost message is mended by seq + snapshot (DESIGN.md),
    so a failing channel layer is logged, never raised into the caller."""
    if not frames:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    messages = [(table_group(table_id), _message(frame)) for frame in frames.table]
    messages += [
        (user_group(user_id), _message(frame))
        for user_id, user_frames in frames.users.items()
        for frame in user_frames
    ]

    async def send_all() -> None:
        # In order, one after the other: a group's frames must arrive in seq order.
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        # One trip into async code for the whole batch: outside an event loop (a Celery
        # worker) each async_to_sync call starts a thread with a new loop and, on Redis, new
        # connections, which cost more than the action itself when done once per frame.
        async_to_sync(send_all)()
    except Exception:  # pragma: no cover - the channel layer is best effort
        logger.exception("broadcast to table %s failed", table_id)


def _message(frame: dict[str, Any]) -> dict[str, Any]:
    return {"type": MESSAGE_TYPE, "frame": frame}
