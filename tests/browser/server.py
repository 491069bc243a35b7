"""A real Daphne for the browser tests, serving the room on the test database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_database_url() -> str:
    """The URL of the database the tests run on (pytest-django's test database)."""
    settings = connection.settings_dict
    if settings["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings['NAME']}"
    user, password = settings.get("USER") or "", settings.get("PASSWORD") or ""
    host, port = settings.get("HOST") or "127.0.0.1", settings.get("PORT") or 5432
    return f"postgres://{user}:{password}@{host}:{port}/{settings['NAME']}"


def room_env() -> dict[str, str]:
    """The room's settings (tests/browser/server_settings.py) on the test database, in the
    embedded mode: no REDIS_URL, so the channel layer and the Celery tasks live in the one
    Daphne process."""
    env = dict(
        os.environ,
        DATABASE_URL=test_database_url(),
        TASKS_RUN_BEAT="0",
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="tests.browser.server_settings",
    )
    env.pop("REDIS_URL", None)
    return env


@contextmanager
def daphne(env: dict[str, str]) -> Iterator[str]:
    """Daphne on a free port; yields http://127.0.0.1:<port>. Its log goes to a temporary
    file, shown if it fails to start."""
    port = free_port()
    with tempfile.TemporaryFile() as log:
        yield from _serve(env, port, log)


def _serve(env: dict[str, str], port: int, log: Any) -> Iterator[str]:
    process = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "pokerroom.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"Daphne did not start: {log.read().decode()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/accounts/login/", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
