"""The room reports its own health (issue #16): `/healthz` says the process is up, `/readyz`
says whether it can serve (database, migrations, Redis), as a probe meets them: anonymous,
over plain HTTP, even from an address django-axes has locked out."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.urls import reverse

from pokerroom import health
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_without_a_login_and_without_the_database(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_readyz_is_ready_when_the_database_answers_and_every_migration_is_applied(
    client: Client, settings: Any, django_assert_max_num_queries: Any
) -> None:
    settings.REDIS_URL = ""  # the embedded mode: no Redis to ask

    with django_assert_max_num_queries(2):  # cheap: SELECT 1, and the applied migrations
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "migrations": "ok"},
        "failed": [],
    }


def test_readyz_is_unavailable_and_says_so_when_the_database_does_not_answer(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.REDIS_URL = ""

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr(connections[DEFAULT_DB_ALIAS], "cursor", refused)
    response = client.get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["failed"] == ["database", "migrations"]
    assert body["checks"]["database"] == "failed: OperationalError"  # no host named to the world
    assert body["checks"]["migrations"] == "skipped"


def test_readyz_names_a_migration_not_yet_applied(client: Client, settings: Any) -> None:
    settings.REDIS_URL = ""
    app, name = max(leaf for leaf in health._migration_leaves() if leaf[0] == "tables")
    MigrationRecorder.Migration.objects.filter(app=app, name=name).delete()

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["failed"] == ["migrations"]
    assert response.json()["checks"]["migrations"] == f"failed: not applied: {app}.{name}"


def test_the_probes_answer_an_address_locked_out_by_django_axes(
    client: Client, settings: Any
) -> None:
    settings.REDIS_URL = ""
    player = PlayerFactory(username="locked")
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        client.post(reverse("login"), {"username": player.username, "password": "wrong"})
    locked = client.post(reverse("login"), {"username": player.username, "password": "wrong"})
    assert locked.status_code == 429  # django-axes' lockout, from this address

    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200


def test_the_probes_are_not_redirected_to_https(client: Client, settings: Any) -> None:
    """With DEBUG off the room redirects plain HTTP to HTTPS; a probe on the host speaks plain
    HTTP to the process and gets its answer."""
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = ""

    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    assert client.get("/accounts/login/").status_code == 301  # everything else is redirected


# --- Redis ----------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def own_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test's own, on a free port (never the room's shared one)."""
    binary = shutil.which("redis-server")
    assert binary is not None, "redis-server is needed (the services tests run on Redis)"
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


@pytest.mark.services
def test_readyz_asks_redis_when_the_room_runs_on_it(client: Client, settings: Any) -> None:
    settings.REDIS_URL = os.environ["REDIS_URL"]

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "migrations": "ok", "redis": "ok"}


@pytest.mark.services
def test_readyz_is_unavailable_while_redis_is_down_and_ready_again_when_it_is_back(
    client: Client, settings: Any
) -> None:
    with own_redis() as (url, process):
        settings.REDIS_URL = url
        assert client.get("/readyz").status_code == 200

        process.terminate()
        process.wait(10)
        down = client.get("/readyz")

    assert down.status_code == 503
    assert down.json()["failed"] == ["redis"]
    assert down.json()["checks"]["database"] == "ok"
    assert down.json()["checks"]["redis"] == "failed: ConnectionError"
