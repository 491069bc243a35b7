"""Do the room's services answer? One probe per service, shared by `/readyz`
(pokerroom/health.py) and the staff dashboard's health line (issue #16).

Each probe is one round trip with a short timeout and raises when the service does not
answer: the database runs `SELECT 1`, Redis (only when REDIS_URL is set; the embedded mode
has none) answers PING. `service_checks()` turns them into the dashboard's figures, never
raising: a service that does not answer is reported with the error's class, for staff to read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

# A Redis that does not answer within this is as good as down.
REDIS_TIMEOUT_SECONDS = 2.0


class NotReady(Exception):
    """A check's failure whose message is fit for anyone to read (a migration's name)."""


def database_probe() -> None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


@functools.cache
def _redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
    )


def redis_probe() -> None:
    if not _redis_client(settings.REDIS_URL).ping():
        raise NotReady("no PONG")


def _answer(probe: Callable[[], None], ok_detail: str) -> dict[str, Any]:
    try:
        probe()
    except Exception as error:  # any failure is "does not answer"
        return {"ok": False, "detail": type(error).__name__}
    return {"ok": True, "detail": ok_detail}


def service_checks() -> dict[str, Any]:
    """{"ok": every service answers, "database": {...}, "redis": {...}}."""
    checks = {
        "database": _answer(database_probe, connections[DEFAULT_DB_ALIAS].vendor),
        "redis": (
            _answer(redis_probe, "answers")
            if settings.REDIS_URL
            else {"ok": True, "detail": "not used (embedded mode)"}
        ),
    }
    return {"ok": all(check["ok"] for check in checks.values()), **checks}
