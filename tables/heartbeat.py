"""One presence heartbeat per server process, for all its players' connections.

Every HEARTBEAT_SECONDS the process refreshes the seats its open connections are counted on,
in one query (tables.services.presence.seats_heartbeat), instead of one query per connection:
a heartbeat every 2 s (so that a crashed process's players show gone within seconds, issue
#11) would otherwise be an UPDATE a second for every two seated players. A connection whose
count is gone (the presence sweep cleared it while this process was slow) counts itself again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from channels.db import database_sync_to_async

from tables.services.presence import seats_heartbeat

logger = logging.getLogger(__name__)

# How often the process refreshes its connections' presence (seconds); a count not
# refreshed for tables.models.PRESENCE_STALE (6 s) is stale and the presence sweep clears it.
HEARTBEAT_SECONDS = 2.0


class Counted(Protocol):
    """A connection counted on its seat (tables.realtime.consumer.TableConsumer)."""

    table_id: int
    counted: bool

    @property
    def player(self) -> Any: ...

    async def count_again(self) -> None: ...


class _ProcessBeat:
    def __init__(self) -> None:
        self.connections: set[Counted] = set()
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.beat()
            except Exception:
                logger.exception("presence heartbeat failed")

    async def beat(self) -> None:
        counted = [c for c in self.connections if c.counted and c.player is not None]
        if not counted:
            return
        seats = {(c.table_id, c.player.pk) for c in counted}
        refreshed = await database_sync_to_async(seats_heartbeat)(seats=seats)
        for connection in counted:
            if (connection.table_id, connection.player.pk) not in refreshed:
                await connection.count_again()


# One beat per event loop (a Daphne process has one; each test has its own).
_beats: dict[asyncio.AbstractEventLoop, _ProcessBeat] = {}


def join(connection: Counted) -> None:
    """Keep this connection's presence fresh while it is open."""
    loop = asyncio.get_running_loop()
    beat = _beats.get(loop)
    if beat is None:
        beat = _beats[loop] = _ProcessBeat()
    beat.connections.add(connection)
    if beat.task is None or beat.task.done():
        beat.task = loop.create_task(beat.run())


async def leave(connection: Counted) -> None:
    loop = asyncio.get_running_loop()
    beat = _beats.get(loop)
    if beat is None:
        return
    beat.connections.discard(connection)
    if not beat.connections:
        del _beats[loop]
        if beat.task is not None:
            beat.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat.task
