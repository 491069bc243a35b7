"""Real room processes for tests: Daphne (and a Celery worker) on the test database.

The browser suite (tests/browser/conftest.py) and the integration tests that need a real
server (tests/bots/test_consumer_bots.py, test_consumer_scale_out.py,
test_tables_restart.py) start them here; what differs between them is the environment
`room_env` builds (the settings module and extra variables).

ROOM_PROCESS_LOGS=<dir> keeps each process's log there (to read after a failure); otherwise
a Daphne's log is a temporary file, shown if it fails to start.
"""

from __future__ import annotations

import os
import signal
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

from tables.realtime.protocol import DAPHNE_SIZE_ARGS

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# The settings of room processes started by tests unless a caller names its own.
ROOM_SETTINGS = "tests.room_settings"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url_of_tests() -> str:
    """The URL of the database the tests run on (pytest-django's test database)."""
    settings = connection.settings_dict
    if settings["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings['NAME']}"
    user, password = settings.get("USER") or "", settings.get("PASSWORD") or ""
    host, port = settings.get("HOST") or "127.0.0.1", settings.get("PORT") or 5432
    return f"postgres://{user}:{password}@{host}:{port}/{settings['NAME']}"


def room_env(*, settings_module: str = ROOM_SETTINGS, **extra: str) -> dict[str, str]:
    """The environment of a room process on the test database. Without a REDIS_URL in
    `extra` the process runs embedded, as `make run` does: the channel layer and the Celery
    tasks live in that one process, and its runner plays beat, whose clock sweep deals the
    next hand and runs the clocks out (DESIGN.md "Time": nothing else does). With one, beat
    is a process of its own (`celery_worker(..., beat=True)`)."""
    env = dict(
        os.environ,
        DATABASE_URL=database_url_of_tests(),
        TASKS_RUN_BEAT="0" if extra.get("REDIS_URL") else "1",
        DJANGO_SETTINGS_MODULE=settings_module,
        **extra,
    )
    if not extra.get("REDIS_URL"):
        env.pop("REDIS_URL", None)
    return env


@contextmanager
def daphne(env: dict[str, str]) -> Iterator[str]:
    """A Daphne process serving the room; yields its http://127.0.0.1:<port> address once
    the login page answers."""
    port = free_port()
    keep = os.environ.get("ROOM_PROCESS_LOGS")
    with tempfile.NamedTemporaryFile(
        prefix=f"daphne-{port}-", suffix=".log", dir=keep, delete=not keep
    ) as log:
        process = subprocess.Popen(
            [
                str(BIN / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                *DAPHNE_SIZE_ARGS.split(),
                "pokerroom.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_http(url, process, Path(log.name))
            yield url
        finally:
            _stop(process)


def _wait_http(url: str, process: subprocess.Popen[bytes], log: Path, within: float = 30) -> None:
    deadline = time.monotonic() + within
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"Daphne at {url} did not start: {log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/accounts/login/", timeout=2):
                return
        except OSError:
            time.sleep(0.2)


@contextmanager
def celery_worker(env: dict[str, str], *, beat: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """A Celery worker on the test's queue; `beat`: with an embedded beat (the sweep), a
    child process of the worker. Yields its process (to see that it is still alive); the
    worker leads a process group of its own, so `kill_group` kills it with its beat."""
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
        start_new_session=True,
    )
    try:
        yield process
    finally:
        _stop(process)
        if keep:
            log.close()  # type: ignore[union-attr]


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL a process started with its own group (`celery_worker`) and every child of it:
    a worker dies with its embedded beat, as a machine's crash would take both."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


class PrivateRedis:
    """A redis-server of the test's own on a free port, without persistence, that the test
    stops and starts again on the same port (a Redis outage). Never the shared servers."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError as refused:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on {self.port} did not start") from refused
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
            self.process = None


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    redis = PrivateRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
