"""Flood control shared by all of a player's connections, and all of a client address's.

tables.realtime.protocol.RateLimiter holds each connection to its own budget; opening more
connections multiplied it (issue #11: 20 anonymous connections asking for snapshots slowed
every player's pings from 2 ms to 184 ms). Each message therefore also spends from two
shared budgets:

- the player's (``TABLE_WS_USER_RATE`` messages a second over all their connections, any
  table, any process), when logged in;
- the client address's (``TABLE_WS_ADDRESS_RATE``; Daphne's ``scope["client"]``, so behind a
  proxy run Daphne with ``--proxy-headers`` or every visitor shares the proxy's address).

A budget is ``rate * WINDOW_SECONDS`` messages per window of ``WINDOW_SECONDS``, counted in the
Django cache: Redis in the services shape, so every Daphne process spends from the same count;
process memory in the embedded mode, where there is one process. A rate of 0 turns a budget
off. A message over either budget is refused like one over the connection's own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache
from redis.asyncio import Redis as AsyncRedis

from pokerroom.process_cache import process_cache
from tables.realtime.protocol import RateLimiter

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 2.0
_KEY_PREFIX = "table-ws-flood"

# Seconds since the epoch, the same in every process (tests set their own).
clock: Callable[[], float] = time.time


def budget_keys(user_id: int | None, address: str | None) -> list[tuple[str, float]]:
    """The shared budgets a message of this connection spends from: (key, rate) pairs."""
    keys: list[tuple[str, float]] = []
    if user_id is not None and settings.TABLE_WS_USER_RATE > 0:
        keys.append((f"user:{user_id}", settings.TABLE_WS_USER_RATE))
    if address and settings.TABLE_WS_ADDRESS_RATE > 0:
        keys.append((f"address:{address}", settings.TABLE_WS_ADDRESS_RATE))
    return keys


class SocketGuard:
    """One socket's flood control: its own token bucket (``RateLimiter``, the table socket's
    rate, burst and abuse limit) and the shared budgets of its player and address. Every
    socket of the room has one (issue #22: the tournament, tournament-lobby and ping sockets
    had none, and one anonymous connection pulled 67 snapshots a second)."""

    def __init__(self, scope: dict[str, Any], user_id: int | None) -> None:
        self.limiter = RateLimiter(
            rate=settings.TABLE_WS_RATE,
            burst=settings.TABLE_WS_BURST,
            abuse_limit=settings.TABLE_WS_ABUSE_LIMIT,
        )
        self.budgets = budget_keys(user_id, client_address(scope))

    async def refusal(self) -> str | None:
        """Why this message is refused (over a budget), or None: it may be read."""
        if not self.limiter.admit():
            return "too many messages"
        if not await shared_admit_async(self.budgets):
            # Over the player's or the address's budget: counts as this connection's too.
            self.limiter.refused += 1.0
            return "too many messages from your account or address"
        return None

    @property
    def abusive(self) -> bool:
        """Refused so often that the socket is to be closed."""
        return self.limiter.abusive


def client_address(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def shared_admit(budgets: list[tuple[str, float]]) -> bool:
    """Spend one message from each budget; False when any of them is spent for this window."""
    if not budgets:
        return True
    try:
        spent = _count(_window_keys(budgets))
    except Exception:
        # The cache is down: the connection's own budget still holds; the room plays on.
        logger.warning("flood budgets unavailable (cache)", exc_info=True)
        return True
    return _within(spent, budgets)


async def shared_admit_async(budgets: list[tuple[str, float]]) -> bool:
    """The same for a consumer, without blocking its event loop: with Redis, the counts are
    spent through an asyncio client of the process's loop, so the loop serves the other
    connections while the round trip is on its way (py-spy saw the blocking call take 12% of
    a Daphne's event loop at 200 tables). The counts and keys are `shared_admit`'s."""
    if not budgets:
        return True
    try:
        spent = await _count_async(_window_keys(budgets))
    except Exception:
        logger.warning("flood budgets unavailable (cache)", exc_info=True)
        return True
    return _within(spent, budgets)


def _window_keys(budgets: list[tuple[str, float]]) -> list[str]:
    window = int(clock() // WINDOW_SECONDS)
    return [f"{_KEY_PREFIX}:{key}:{window}" for key, _ in budgets]


def _within(spent: list[int], budgets: list[tuple[str, float]]) -> bool:
    return all(
        count <= max(1, int(rate * WINDOW_SECONDS))
        for count, (_, rate) in zip(spent, budgets, strict=True)
    )


def _timeout() -> int:
    """Seconds a window's count is kept: it expires after its window."""
    return int(WINDOW_SECONDS * 2) + 1


def _queue_spend(pipe: Any, full_keys: list[str]) -> None:
    """One more on each window's count, and its expiry: the commands both Redis clients
    (`_count`'s and `_count_async`'s) send in one pipeline."""
    for full_key in full_keys:
        pipe.incr(full_key)
        pipe.expire(full_key, _timeout())


def _counts(replies: list[Any]) -> list[int]:
    """The counts from the pipeline's replies (each INCR's, not its EXPIRE's)."""
    return [int(count) for count in replies[::2]]


def _count(keys: list[str]) -> list[int]:
    """Add one to each window's count and return them (a count expires after its window)."""
    timeout = _timeout()
    cache = process_cache()  # not the per-context proxy: one Redis pool per process
    client_of = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client_of is not None:  # Redis: one round trip for all the budgets
        full_keys = [cache.make_and_validate_key(key) for key in keys]
        pipe = client_of(full_keys[0], write=True).pipeline(transaction=False)
        _queue_spend(pipe, full_keys)
        return _counts(pipe.execute())
    return [_count_here(cache, key, timeout) for key in keys]


def _count_here(cache: BaseCache, key: str, timeout: int) -> int:
    """The same with the process's own cache (the embedded mode)."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=timeout)
        return 1


async def _count_async(keys: list[str]) -> list[int]:
    """`_count` through the running loop's own asyncio Redis client; the process's memory
    (the embedded mode) has no round trip to wait for and is counted at once."""
    cache = process_cache()
    servers = getattr(cache, "_servers", None)
    if getattr(getattr(cache, "_cache", None), "get_client", None) is None or not servers:
        return _count(keys)
    full_keys = [cache.make_and_validate_key(key) for key in keys]
    pipe = _loop_client(servers[0]).pipeline(transaction=False)
    _queue_spend(pipe, full_keys)
    return _counts(await pipe.execute())


# One asyncio Redis client per event loop and server (a Daphne process has one loop; each
# async test its own): a client belongs to the loop it was made on.
_loop_clients: dict[tuple[asyncio.AbstractEventLoop, str], AsyncRedis] = {}


def _loop_client(url: str) -> AsyncRedis:
    loop = asyncio.get_running_loop()
    client = _loop_clients.get((loop, url))
    if client is None:
        for stale in [key for key in _loop_clients if key[0].is_closed()]:
            del _loop_clients[stale]
        client = _loop_clients[(loop, url)] = AsyncRedis.from_url(url)
    return client
