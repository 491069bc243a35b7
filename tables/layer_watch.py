"""Each server process watches its channel layer and makes its connections whole after an
outage (issue #22).

With Redis down nothing is delivered, and what the services broadcast then is lost for good
(tables/services/outbox.py logs it and goes on: the change stands). A client mends a gap by
its seq when a later frame shows it, or at its next ping (docs/protocol.md, "Catching up");
but after an outage the room does not wait for them to ask. Every ``PROBE_SECONDS`` the
process sends one message through its channel layer; when one fails and a later one goes
through, the layer is back, and every connection of the process resyncs: it joins its groups
again (a restarted Redis kept none) and is sent a fresh snapshot. It does so once more at the
probe after (what was published while the layer's subscriptions came back is in that one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

logger = logging.getLogger(__name__)

PROBE_SECONDS = 1.0
# A probe not through within this long counts as failed (a half-open connection).
PROBE_TIMEOUT = 2.0
PROBE_GROUP = "room.layer-probe"


class Resyncing(Protocol):
    """A connection that can make itself whole (tables.realtime.consumer.TableConsumer)."""

    channel_layer: Any

    async def resync(self) -> None: ...


class _ProcessWatch:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.connections: set[Resyncing] = set()
        self.task: asyncio.Task[None] | None = None
        self.down = False
        self.resyncs_due = 0

    async def run(self) -> None:
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            await self.probe()

    async def probe(self) -> None:
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                await self.layer.group_send(PROBE_GROUP, {"type": "room.probe"})
        except Exception:
            if not self.down:
                logger.warning("channel layer unreachable: connections resync when it is back")
            self.down = True
            return
        if self.down:
            self.down = False
            self.resyncs_due = 2
            logger.warning("channel layer back: %d connections resync", len(self.connections))
        if self.resyncs_due:
            self.resyncs_due -= 1
            await self.resync_all()

    async def resync_all(self) -> None:
        for connection in list(self.connections):
            try:
                await connection.resync()
            except Exception:
                logger.exception("a connection's resync failed")


# One watch per event loop (a Daphne process has one; each test has its own).
_watches: dict[asyncio.AbstractEventLoop, _ProcessWatch] = {}


def join(connection: Resyncing) -> None:
    """Watch the layer for this connection while it is open."""
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = _ProcessWatch(connection.channel_layer)
    watch.connections.add(connection)
    if watch.task is None or watch.task.done():
        watch.task = loop.create_task(watch.run())


async def leave(connection: Resyncing) -> None:
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        return
    watch.connections.discard(connection)
    if not watch.connections:
        del _watches[loop]
        if watch.task is not None:
            watch.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch.task
