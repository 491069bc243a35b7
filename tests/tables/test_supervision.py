"""Issue #11: every long-running process of `make run-services` is started again when it dies.

A worker that exited stayed dead under honcho, and with it every table's clock. The room now
runs its processes under supervisord (supervisord.conf). This runs supervisord with the
restart policy of each of the room's programs exactly as that file gives it, with a harmless
command in place of the real one (the real ones need the services), kills each child with
SIGKILL, and sees supervisord start a new one.
"""

from __future__ import annotations

import configparser
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xmlrpc.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from supervisor.xmlrpc import SupervisorTransport

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PROGRAMS = ("web", "worker", "beat", "watchdog")
# Waits for an event on a busy machine; nothing is timed.
WITHIN = 30


def room_programs() -> dict[str, dict[str, str]]:
    """The [program:*] sections of the room's supervisord.conf."""
    config = configparser.RawConfigParser(inline_comment_prefixes=(";",))
    config.read(ROOT / "supervisord.conf")
    return {
        section.split(":", 1)[1]: dict(config.items(section))
        for section in config.sections()
        if section.startswith("program:")
    }


@pytest.fixture
def supervisor() -> Iterator[str]:
    """supervisord running the room's programs' policies around `sleep`; its socket URL."""
    here = Path(tempfile.mkdtemp(prefix="sv-"))  # short: a unix socket path has a limit
    sections = [
        f"[supervisord]\nnodaemon = true\nlogfile = {here}/supervisord.log\n"
        f"pidfile = {here}/supervisord.pid\n",
        f"[unix_http_server]\nfile = {here}/s.sock\n",
        "[rpcinterface:supervisor]\n"
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface\n",
    ]
    for name, options in room_programs().items():
        options = {**options, "command": "sleep 600", "stdout_logfile": f"{here}/{name}.log"}
        lines = "".join(f"{key} = {value}\n" for key, value in options.items())
        sections.append(f"[program:{name}]\n{lines}")
    (here / "supervisord.conf").write_text("\n".join(sections))
    process = subprocess.Popen(
        [str(BIN / "supervisord"), "-c", str(here / "supervisord.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"unix://{here}/s.sock"
    finally:
        process.send_signal(signal.SIGTERM)  # supervisord stops its children, then itself
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(here, ignore_errors=True)


def process_info(socket_url: str, name: str) -> dict[str, Any]:
    """What supervisord says of `name` (a new connection each time: a refused one breaks it)."""
    transport = SupervisorTransport(None, None, socket_url)
    proxy = xmlrpc.client.ServerProxy("http://127.0.0.1", transport=transport)
    return cast(dict[str, Any], proxy.supervisor.getProcessInfo(name))


def running_pid(socket_url: str, name: str, *, other_than: int = 0) -> int:
    """The pid of `name` once supervisord reports it running (with a pid not `other_than`)."""
    deadline = time.monotonic() + WITHIN
    while True:
        try:
            info = process_info(socket_url, name)
            if info["statename"] == "RUNNING" and info["pid"] not in (0, other_than):
                return int(info["pid"])
        except (OSError, xmlrpc.client.Fault):
            pass  # supervisord still starting
        assert time.monotonic() < deadline, f"{name} is not running again"
        time.sleep(0.1)


def test_the_room_runs_daphne_the_worker_beat_and_the_watchdog_under_supervision() -> None:
    assert set(room_programs()) == set(PROGRAMS)
    for options in room_programs().values():
        assert options["autorestart"] == "true"


def test_a_killed_process_is_started_again(supervisor: str) -> None:
    for name in PROGRAMS:
        killed = running_pid(supervisor, name)
        os.kill(killed, signal.SIGKILL)

        again = running_pid(supervisor, name, other_than=killed)

        assert again != killed
