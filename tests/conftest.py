"""Shared test set-up: the two ways of running and the services gate.

Tests marked `services` need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). Without
POKERROOM_REQUIRE_SERVICES they are skipped with the reason shown; with it (as in .ci/run) a
missing service is a failure, never a skip.
"""

from __future__ import annotations

import os
import socket
from typing import Any
from urllib.parse import urlparse

import pytest

REQUIRE_SERVICES = os.environ.get("POKERROOM_REQUIRE_SERVICES") == "1"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 2
        ):
            return True
    except OSError:
        return False


def services_missing() -> str | None:
    """Why the services shape cannot be tested here, or None when it can."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://", "pgsql://")):
        return "DATABASE_URL is not a PostgreSQL URL"
    if not redis_url:
        return "REDIS_URL is not set"
    if not _reachable(database_url, 5432):
        return f"PostgreSQL at {database_url} does not answer"
    if not _reachable(redis_url, 6379):
        return f"Redis at {redis_url} does not answer"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = services_missing()
    if reason is None:
        return
    for item in items:
        if "services" not in item.keywords:
            continue
        if REQUIRE_SERVICES:
            item.user_properties.append(("services_missing", reason))
        else:
            item.add_marker(pytest.mark.skip(reason=f"needs the services: {reason}"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for name, reason in item.user_properties:
        if name == "services_missing":
            pytest.fail(f"POKERROOM_REQUIRE_SERVICES=1 but {reason}", pytrace=False)


@pytest.fixture(autouse=True)
def _no_beat_in_tests(settings: Any) -> None:
    """Tests drive the periodic jobs themselves; the in-process runner plays no beat."""
    settings.TASKS_RUN_BEAT = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Real hashing costs about a second a player on this machine; tests need no secrecy."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _no_persistent_connections_in_tests() -> None:
    """The room keeps PostgreSQL connections open (CONN_MAX_AGE); in tests, the threads of
    consumer tests and of the in-process runner would then hold connections to the test
    database past its teardown ("being accessed by other users")."""
    from django.conf import settings

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture
def admin_client(db: None, admin_user: Any) -> Any:
    """pytest-django's admin client, logged in with a verified second factor (issue #26: the
    admin needs one)."""
    from django.test import Client

    from tests.factories import log_in_staff

    client = Client()
    log_in_staff(client, admin_user)
    return client
