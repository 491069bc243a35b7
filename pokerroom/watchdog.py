"""Restart a web process that is running but no longer answers (issue #16).

A supervisor starts again a process that exits; one that hangs (its event loop blocked, out of
file descriptors) stays "running" and its players stay stuck. This asks the process's
`/healthz` every few seconds and, after a few failures in a row, runs the restart command:

    python -m pokerroom.watchdog --url http://127.0.0.1:8000/healthz \
        -- supervisorctl -c supervisord.conf restart web

supervisord.conf runs it as the program `watchdog`; the systemd units in docs/operations.md
use a timer instead. It needs nothing but the standard library and the address to ask.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit, urlunsplit

logger = logging.getLogger("pokerroom.watchdog")


def probe_url(url: str) -> str:
    """A server bound to every address (0.0.0.0, ::) is asked on the loopback."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host in ("0.0.0.0", "::", ""):
        port = f":{parts.port}" if parts.port else ""
        return urlunsplit(parts._replace(netloc=f"127.0.0.1{port}"))
    return url


def answers(url: str, *, timeout: float) -> bool:
    """Whether `url` answers 2xx within `timeout` seconds."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return 200 <= int(response.status) < 300
    except (urllib.error.URLError, OSError, ValueError):
        return False


def watch(
    *,
    url: str,
    restart: Callable[[], None],
    every: float,
    failures: int,
    timeout: float,
    grace: float,
    stop: threading.Event,
) -> None:
    """Ask `url` every `every` seconds; after `failures` failures in a row call `restart`,
    then give the process `grace` seconds to start before asking again. Until `stop` is set."""
    url = probe_url(url)
    failed = 0
    if stop.wait(grace):
        return
    while not stop.is_set():
        if answers(url, timeout=timeout):
            failed = 0
        else:
            failed += 1
            logger.warning("%s did not answer (%d of %d)", url, failed, failures)
            if failed >= failures:
                logger.error("%s does not answer: restarting it", url)
                restart()
                failed = 0
                if stop.wait(grace):
                    return
        stop.wait(every)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the process's /healthz")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between asks")
    parser.add_argument("--failures", type=int, default=3, help="failures in a row to restart")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for an answer")
    parser.add_argument("--grace", type=float, default=30.0, help="seconds to let it start")
    parser.add_argument("command", nargs="+", help="the restart command (after --)")
    args = parser.parse_args(argv)

    def restart() -> None:
        subprocess.run(args.command, check=False)

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    watch(
        url=args.url,
        restart=restart,
        every=args.every,
        failures=args.failures,
        timeout=args.timeout,
        grace=args.grace,
        stop=threading.Event(),
    )


if __name__ == "__main__":
    main()
