"""One Django cache object per process, for code the WebSocket consumers reach.

`django.core.cache.cache` is a proxy to a cache object per async context, and Channels runs
every WebSocket connection in a context of its own: each connection that touched the cache
got its own cache object and, with Redis, its own connection pool, opened on first use and
never closed (Django closes caches when a request finishes; a WebSocket is no request). The
benchmark of issue #15 saw the room's Redis clients grow by one per connection accepted
(325 for 300 bots, never given back). Code on the consumers' paths (the shared flood budgets,
the chat kept for a reload) uses this object instead: one pool per process, which redis-py
shares safely between threads."""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.signals import setting_changed

_shared: BaseCache | None = None
_lock = threading.Lock()


def process_cache() -> BaseCache:
    """The process's cache object for the default cache (created on first use)."""
    global _shared
    if _shared is None:
        with _lock:
            if _shared is None:
                _shared = caches.create_connection(DEFAULT_CACHE_ALIAS)
    return _shared


def _forget_on_caches_change(*, setting: str, **kwargs: Any) -> None:
    """A test that changes CACHES gets a cache object for the new setting."""
    global _shared
    if setting == "CACHES":
        _shared = None


setting_changed.connect(_forget_on_caches_change, dispatch_uid="pokerroom-process-cache")
