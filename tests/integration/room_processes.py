"""Real room processes for tests: Daphne (and a Celery worker) on the test database."""

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

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url_of_tests() -> str:
    """The URL of the database this test runs on (pytest-django's test_<name>)."""
    settings = connection.settings_dict
    if settings["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings['NAME']}"
    user, password = settings.get("USER") or "", settings.get("PASSWORD") or ""
    host, port = settings.get("HOST") or "127.0.0.1", settings.get("PORT") or 5432
    return f"postgres://{user}:{password}@{host}:{port}/{settings['NAME']}"


def room_env(**extra: str) -> dict[str, str]:
    env = dict(
        os.environ,
        DATABASE_URL=database_url_of_tests(),
        TASKS_RUN_BEAT="0",
        DJANGO_SETTINGS_MODULE="tests.integration.room_settings",
        **extra,
    )
    if not extra.get("REDIS_URL"):
        env.pop("REDIS_URL", None)
    return env


def _wait_http(url: str, process: subprocess.Popen[bytes], log: Path, within: float = 30) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/accounts/login/", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} never answered")


@contextmanager
def daphne(env: dict[str, str]) -> Iterator[str]:
    """A Daphne process serving the room; yields its http://127.0.0.1:<port> address."""
    port = free_port()
    # ROOM_PROCESS_LOGS=<dir> keeps each process's log there (to read after a failure).
    keep = os.environ.get("ROOM_PROCESS_LOGS")
    with tempfile.NamedTemporaryFile(
        prefix=f"daphne-{port}-", suffix=".log", dir=keep, delete=not keep
    ) as log:
        process = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "pokerroom.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_http(url, process, Path(log.name))
            yield url
        finally:
            _stop(process)


@contextmanager
def celery_worker(env: dict[str, str], *, beat: bool = False) -> Iterator[None]:
    """A Celery worker on the test's queue; `beat`: with an embedded beat (the sweep)."""
    keep = os.environ.get("ROOM_PROCESS_LOGS")
    log = open(Path(keep) / f"celery-{os.getpid()}.log", "w") if keep else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "pokerroom",
            "worker",
            "--pool=solo",
            "--loglevel=warning",
        ]
        + (["-Q", env["ROOM_TEST_QUEUE"]] if env.get("ROOM_TEST_QUEUE") else [])
        + (["--beat"] if beat else []),
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        yield
    finally:
        _stop(process)
        if keep:
            log.close()  # type: ignore[union-attr]


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
