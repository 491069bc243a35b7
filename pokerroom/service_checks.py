"""Do the room's services answer? The staff dashboard's health line (issue #16).

Each check is one round trip with a short timeout: the database runs `SELECT 1`, Redis (when
REDIS_URL is set; the embedded mode has none) answers PING. A check never raises: a service
that does not answer is reported with the error's class, for staff to read.
"""

from __future__ import annotations

from typing import Any

import redis
from django.conf import settings
from django.db import connection

REDIS_TIMEOUT_SECONDS = 1.0


def database_check() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure is "does not answer"
        return {"ok": False, "detail": type(error).__name__}
    return {"ok": True, "detail": connection.vendor}


def redis_check() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"ok": True, "detail": "not used (embedded mode)"}
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:  # any failure is "does not answer"
        return {"ok": False, "detail": type(error).__name__}
    return {"ok": True, "detail": "answers"}


def service_checks() -> dict[str, Any]:
    """{"ok": every service answers, "database": {...}, "redis": {...}}."""
    checks = {"database": database_check(), "redis": redis_check()}
    return {"ok": all(check["ok"] for check in checks.values()), **checks}
