"""The public snapshot of a table, built once for all the visitors a process serves.

A visitor (not logged in) sees what every spectator sees, so twenty visitors asking for a
snapshot need one build, not twenty (issue #11: their snapshots slowed every player). Each
Daphne process keeps the last public snapshot of each table it serves:

- any frame for the table that reaches the process (``changed``, from the consumer) drops it,
  so the next visitor gets the table as it is now; a build that started before that change is
  not kept;
- the first viewer of a table in the process drops it too (no viewer there saw the frames
  since: it may be old);
- in any case it lives ``TTL_SECONDS`` at most (a frame the channel layer lost).

Visitors asking at the same moment share one build. A logged-in player's snapshot (their own
cards, their seat) is always built for them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

TTL_SECONDS = 1.0

Snapshot = dict[str, Any]
clock: Callable[[], float] = time.monotonic


@dataclass
class _Table:
    viewers: int = 0
    generation: int = 0
    snapshot: Snapshot | None = None
    built_at: float = 0.0
    building: asyncio.Future[Snapshot | None] | None = field(default=None, repr=False)


_tables: dict[int, _Table] = {}


def _entry(table_id: int) -> _Table:
    return _tables.setdefault(table_id, _Table())


def viewer_joined(table_id: int) -> None:
    entry = _entry(table_id)
    if entry.viewers == 0:
        changed(table_id)
    entry.viewers += 1


def viewer_left(table_id: int) -> None:
    entry = _tables.get(table_id)
    if entry is None:
        return
    entry.viewers = max(0, entry.viewers - 1)
    if entry.viewers == 0:
        del _tables[table_id]


def changed(table_id: int) -> None:
    """The table changed (a frame for it arrived): the kept snapshot is out of date."""
    entry = _tables.get(table_id)
    if entry is not None:
        entry.generation += 1
        entry.snapshot = None


async def public_snapshot(
    table_id: int, build: Callable[[], Awaitable[Snapshot | None]]
) -> Snapshot | None:
    """The table's public snapshot: the kept one if fresh, else one build shared by all who
    ask meanwhile (None: no such table, never kept)."""
    entry = _entry(table_id)
    if entry.snapshot is not None and clock() - entry.built_at < TTL_SECONDS:
        return entry.snapshot
    loop = asyncio.get_running_loop()
    building = entry.building
    if building is not None and not building.done() and building.get_loop() is loop:
        return await asyncio.shield(building)
    building = entry.building = loop.create_future()
    generation, started = entry.generation, clock()
    try:
        snapshot = await build()
    except asyncio.CancelledError:
        building.cancel()
        raise
    except Exception as failed:
        building.set_exception(failed)
        building.exception()  # retrieved: the callers who share it get it raised
        raise
    finally:
        if entry.building is building:
            entry.building = None
    building.set_result(snapshot)
    if snapshot is not None and entry.generation == generation and entry.viewers > 0:
        entry.snapshot, entry.built_at = snapshot, started
    return snapshot
