"""Live tables under load: N tables of 6 bots against a running room, beside pgbench.

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python benchmarks/tables.py --tables 10 50 200 --seconds 30

It builds a fresh database `<name>_bench`, starts two Daphne processes and one Celery worker on
it (the production shape: PostgreSQL, channels_redis, Celery on Redis), seats 6 bots per table,
half of them connected to each Daphne, and lets them play for the given time, each bot acting
the moment its turn comes. It reports actions per second and the action-to-broadcast latency
(from a bot sending its action to that bot receiving the table's event for it), p50 and p99.
In the same run, pgbench's TPC-B-like transactions per second on the same server, with one
client per table, give the ceiling to compare against (each table is one row lock in turn).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BOTS_PER_TABLE = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_named(url: str, name: str) -> str:
    parts = urlparse(url)
    return urlunparse(parts._replace(path=f"/{name}"))


def recreate_database(url: str, name: str) -> None:
    import psycopg

    admin = database_named(url, "postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


@contextlib.contextmanager
def room_processes(env: dict[str, str], ports: list[int]) -> Iterator[None]:
    daphne = str(Path(sys.executable).with_name("daphne"))
    processes = [
        subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "pokerroom.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    processes.append(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "pokerroom",
                "worker",
                "-l",
                "warning",
                "--concurrency",
                "2",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), 1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.3)
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def seat_bots(count_tables: int, first_table: int) -> list[tuple[int, str]]:
    """Tables and funded players with logged-in sessions: (table_id, session cookie) each."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import LedgerKind, Player
    from accounts.services import wallet_credit
    from tables.models import Table

    seats: list[tuple[int, str]] = []
    for number in range(first_table, first_table + count_tables):
        table = Table.objects.create(
            name=f"Bench {number}",
            game="stud",
            small_bet=10,
            big_bet=20,
            ante=5,
            bring_in=10,
            buy_in=100,
            seats=8,
        )
        for chair in range(BOTS_PER_TABLE):
            player = Player.objects.create_user(
                username=f"bench{number}-{chair}",
                email=f"bench{number}-{chair}@bench.invalid",
                password=None,
            )
            wallet_credit(
                player_id=player.pk,
                amount=10_000_000,
                kind=LedgerKind.DEPOSIT,
                reason="benchmark bankroll",
            )
            session = SessionStore()
            session[SESSION_KEY] = str(player.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = player.get_session_auth_hash()
            session.create()
            seats.append((table.pk, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return seats


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def play(
    seats: list[tuple[int, str]], ports: list[int], *, warm_up: float, seconds: float
) -> dict[str, float]:
    from tables.bots import Bot

    bots = [
        Bot(
            base_url=f"http://127.0.0.1:{ports[index % len(ports)]}",
            table_id=table_id,
            cookie=cookie,
            policy="call",
            buy_in=100_000,
            seed=index,
        )
        for index, (table_id, cookie) in enumerate(seats)
    ]
    tasks = [asyncio.create_task(bot.play(timeout=warm_up + seconds + 5)) for bot in bots]
    await asyncio.sleep(warm_up)
    marks = [len(bot.stats.broadcast_latencies) for bot in bots]
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    latencies = [
        latency
        for bot, mark in zip(bots, marks, strict=True)
        for latency in bot.stats.broadcast_latencies[mark:]
    ]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "actions_per_second": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "mean_ms": (statistics.fmean(latencies) * 1000) if latencies else float("nan"),
        "actions": len(latencies),
    }


def pgbench_tps(url: str, clients: int, seconds: int) -> float:
    pgbench = shutil.which("pgbench")
    if pgbench is None:
        raise SystemExit("pgbench is not installed (Debian: postgresql-client)")
    parts = urlparse(url)
    env = dict(os.environ, PGPASSWORD=parts.password or "")
    base = [
        pgbench,
        "-h",
        parts.hostname or "127.0.0.1",
        "-p",
        str(parts.port or 5432),
        "-U",
        parts.username or "postgres",
    ]
    name = parts.path.lstrip("/")
    subprocess.run([*base, "-i", "-q", "-s", "10", name], env=env, check=True, capture_output=True)
    run = subprocess.run(
        [*base, "-c", str(clients), "-j", "2", "-T", str(seconds), "-n", name],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    for line in run.stdout.splitlines():
        if line.startswith("tps ="):
            return float(line.split()[2])
    raise RuntimeError(run.stdout)


def max_connections(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as connection:
        row = connection.execute("SHOW max_connections").fetchone()
    return int(row[0]) if row else 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warm-up", type=float, default=10)
    options = parser.parse_args()

    base_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures that shape")
    bench_name = urlparse(base_url).path.lstrip("/") + "_bench"
    recreate_database(base_url, bench_name)
    bench_url = database_named(base_url, bench_name)
    env = dict(
        os.environ,
        DATABASE_URL=bench_url,
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        CONN_MAX_AGE="60",
    )
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # DEBUG off serves static files from the collected manifest, and the URLs name one at
    # import (the favicon): without it the Celery worker's start-up checks fail and it exits.
    call_command("collectstatic", interactive=False, verbosity=0)
    ports = [free_port(), free_port()]
    rows = []
    first_table = 1
    with room_processes(env, ports):
        for count in options.tables:
            seats = seat_bots(count, first_table)
            first_table += count
            measured = asyncio.run(
                play(seats, ports, warm_up=options.warm_up, seconds=options.seconds)
            )
            clients = min(count, max_connections(bench_url) - 30)
            tps = pgbench_tps(bench_url, clients, int(options.seconds))
            measured.update(
                pgbench_tps=tps, pgbench_clients=clients, ratio=measured["actions_per_second"] / tps
            )
            rows.append((count, measured))
            print(f"N={count}: {measured}", flush=True)
    print()
    print(
        "| tables | bots | actions/s | p50 ms | p99 ms | pgbench tps (clients) | actions/s ÷ tps |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for count, m in rows:
        print(
            f"| {count} | {count * BOTS_PER_TABLE} | {m['actions_per_second']:.1f} | "
            f"{m['p50_ms']:.1f} | {m['p99_ms']:.1f} | {m['pgbench_tps']:.0f} "
            f"({m['pgbench_clients']}) | {m['ratio']:.3f} |"
        )


if __name__ == "__main__":
    main()
