"""The watchdog of supervisord.conf (issue #16): a web process that runs but no longer answers
/healthz is restarted; one that answers is left alone."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pokerroom.watchdog import probe_url, watch


class Web:
    """A stand-in web process: answers /healthz, or hangs (as a blocked event loop does)."""

    def __init__(self) -> None:
        self.hung = threading.Event()
        self.asked = 0
        web = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                web.asked += 1
                if web.hung.is_set():
                    time.sleep(1.0)  # longer than the watchdog waits
                    return
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b'{"status": "ok"}')

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/healthz"


@pytest.fixture
def web() -> Iterator[Web]:
    web = Web()
    thread = threading.Thread(target=web.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield web
    finally:
        web.server.shutdown()
        web.server.server_close()


def wait_until(condition: Callable[[], bool], within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.02)


def test_a_hung_web_process_is_restarted_and_a_healthy_one_is_not(web: Web) -> None:
    restarts: list[float] = []

    def restart() -> None:  # the supervisor's restart: the new process answers
        restarts.append(time.monotonic())
        web.hung.clear()

    stop = threading.Event()
    watcher = threading.Thread(
        target=watch,
        kwargs={
            "url": web.url,
            "restart": restart,
            "every": 0.02,
            "failures": 2,
            "timeout": 0.2,
            "grace": 0.05,
            "stop": stop,
        },
        daemon=True,
    )
    watcher.start()
    try:
        wait_until(lambda: web.asked >= 5)
        assert restarts == []  # answering: left alone

        web.hung.set()
        wait_until(lambda: len(restarts) == 1)
        asked = web.asked
        wait_until(lambda: web.asked >= asked + 5)
        assert len(restarts) == 1  # answering again after its restart
    finally:
        stop.set()
        watcher.join(10)


def test_a_server_bound_to_every_address_is_asked_on_the_loopback() -> None:
    assert probe_url("http://0.0.0.0:8000/healthz") == "http://127.0.0.1:8000/healthz"
    assert probe_url("http://10.0.0.5:8001/healthz") == "http://10.0.0.5:8001/healthz"
