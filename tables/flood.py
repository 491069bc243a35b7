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

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache

from pokerroom.process_cache import process_cache

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


def client_address(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def shared_admit(budgets: list[tuple[str, float]]) -> bool:
    """Spend one message from each budget; False when any of them is spent for this window."""
    if not budgets:
        return True
    window = int(clock() // WINDOW_SECONDS)
    try:
        spent = _count([f"{_KEY_PREFIX}:{key}:{window}" for key, _ in budgets])
    except Exception:
        # The cache is down: the connection's own budget still holds; the room plays on.
        logger.warning("flood budgets unavailable (cache)", exc_info=True)
        return True
    return all(
        count <= max(1, int(rate * WINDOW_SECONDS))
        for count, (_, rate) in zip(spent, budgets, strict=True)
    )


def _count(keys: list[str]) -> list[int]:
    """Add one to each window's count and return them (a count expires after its window)."""
    timeout = int(WINDOW_SECONDS * 2) + 1
    cache = process_cache()  # not the per-context proxy: one Redis pool per process
    client_of = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client_of is not None:  # Redis: one round trip for all the budgets
        full_keys = [cache.make_and_validate_key(key) for key in keys]
        pipe = client_of(full_keys[0], write=True).pipeline(transaction=False)
        for full_key in full_keys:
            pipe.incr(full_key)
            pipe.expire(full_key, timeout)
        return [int(count) for count in pipe.execute()[::2]]
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
