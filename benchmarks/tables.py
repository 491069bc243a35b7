"""Live tables under load: N tables of 6 bots against a running room, beside pgbench.

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python benchmarks/tables.py --tables 10 50 200 --seconds 30

It builds a fresh database `<name>_bench`, starts two Daphne processes, one Celery worker and
Celery beat (whose clock sweep deals each next hand) on it (the production shape: PostgreSQL,
channels_redis, Celery on Redis), seats 6 bots per table, half of them connected to each
Daphne, and lets them play for the given time, each bot acting the moment its turn comes. It
reports actions per second and the action-to-broadcast latency (from a bot sending its action
to that bot receiving the table's event for it), p50 and p99.
In the same run, pgbench's TPC-B-like transactions per second on the same server, with one
client per table, give the ceiling to compare against (each table is one row lock in turn).

It also accounts the CPU each part of the room used in the measured window (the Daphnes, the
worker, PostgreSQL, Redis and the bots themselves), as cores busy and as milliseconds of CPU
per action: on a machine that runs everything, that budget is what bounds actions/s. Tables
of one N are closed before the next N starts; `--pause` sets the seconds between hands.
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
from typing import Any
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


def daphne_command(port: int) -> list[str]:
    return [
        str(Path(sys.executable).with_name("daphne")),
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        *("--websocket-max-message-size", "4194304", "--websocket-max-frame-size", "4194304"),
        "pokerroom.asgi:application",
    ]


def worker_command(pool: str = "prefork", level: str = "warning") -> list[str]:
    """The room's Celery worker, two pool processes (the production shape of this machine)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "pokerroom",
        "worker",
        "-l",
        level,
        "--pool",
        pool,
        "--concurrency",
        "2",
    ]


def beat_command(level: str = "warning") -> list[str]:
    """Celery beat: its clock sweep deals every next hand and runs the clocks out (DESIGN.md
    "Time": the services send no task per turn or hand)."""
    return [sys.executable, "-m", "celery", "-A", "pokerroom", "beat", "-l", level]


@contextlib.contextmanager
def room_processes(
    env: dict[str, str], ports: list[int], worker_pool: str = "prefork"
) -> Iterator[dict[str, list[int]]]:
    processes = [
        subprocess.Popen(
            daphne_command(port),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    processes += [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for command in (worker_command(worker_pool), beat_command())
    ]
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
        yield {
            "daphne": [p.pid for p in processes[:-2]],
            "worker": [processes[-2].pid],
            "beat": [processes[-1].pid],
        }
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def processes_by_role(room_pids: dict[str, list[int]]) -> dict[str, list[int]]:
    """The room's processes (Daphne, the worker and its children) and the servers'
    (every postgres and redis-server process), by role, for the CPU account."""
    roles: dict[str, list[int]] = {role: list(pids) for role, pids in room_pids.items()}
    roles["postgres"], roles["redis"] = [], []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        command = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if command == "postgres":
            roles["postgres"].append(int(entry.name))
        elif command.startswith("redis-server"):
            roles["redis"].append(int(entry.name))
        elif parent in room_pids.get("worker", []):
            roles["worker"].append(int(entry.name))
    return roles


def cpu_by_process(roles: dict[str, list[int]]) -> dict[tuple[str, int], float]:
    account = {
        (role, pid): process_cpu_seconds(pid) for role, pids in roles.items() for pid in pids
    }
    times = os.times()
    account[("bots", os.getpid())] = times.user + times.system
    return account


def cpu_used_by_role(
    before: dict[tuple[str, int], float], after: dict[tuple[str, int], float]
) -> dict[str, float]:
    """CPU seconds each role used between two readings (a process gone by the second reading,
    such as a closed database connection, is left out rather than counted negative)."""
    used: dict[str, float] = {}
    for (role, pid), seconds in after.items():
        if seconds > 0:
            used[role] = used.get(role, 0.0) + seconds - before.get((role, pid), 0.0)
    return used


def fresh_room_database(base_url: str, suffix: str, **extra: str) -> dict[str, str]:
    """Build a fresh database `<name>_<suffix>` beside the one `base_url` names, set this
    process up on it (Django, migrations, static files) and return the environment of the
    room processes that will serve it (`extra`: more variables, such as REDIS_URL)."""
    name = urlparse(base_url).path.lstrip("/") + f"_{suffix}"
    recreate_database(base_url, name)
    env = dict(
        os.environ,
        DATABASE_URL=database_named(base_url, name),
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        # Every bot connects from 127.0.0.1: no per-address flood budget (tables/flood.py).
        TABLE_WS_ADDRESS_RATE="0",
        LOG_LEVEL="WARNING",
        CONN_MAX_AGE="60",
        **extra,
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
    return env


def seat_bots(
    count_tables: int, first_table: int, *, action_clock: int | None = None
) -> list[tuple[int, str]]:
    """Tables and funded players with logged-in sessions: (table_id, session cookie) each.
    `action_clock`: the tables' seconds to act (the model's default when None)."""
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
            **({} if action_clock is None else {"action_clock": action_clock}),
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


def close_tables(table_ids: set[int]) -> None:
    """No new hand at the tables just measured: their bots have gone, and the next N must
    not share the machine with hands of absent players timing out."""
    from tables.services import table_close

    for table_id in sorted(table_ids):
        table_close(table_id=table_id)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def tables_under_way(bots: list[Any], *, within: float) -> float:
    """Wait until every table has finished a hand (all its bots connected, seated and
    playing), or `within` seconds; the seconds it took. Connecting and seating hundreds of
    bots at once is not the steady play the benchmark measures."""
    started = time.perf_counter()
    tables = {bot.table_id for bot in bots}
    while time.perf_counter() - started < within:
        playing = {bot.table_id for bot in bots if bot.stats.hands > 0}
        if playing >= tables:
            break
        await asyncio.sleep(0.5)
    return time.perf_counter() - started


async def play(
    seats: list[tuple[int, str]],
    ports: list[int],
    room_pids: dict[str, list[int]],
    *,
    warm_up: float,
    seconds: float,
) -> dict[str, float]:
    from bots.client import Bot

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
    warmed_up = await tables_under_way(bots, within=warm_up)
    marks = [len(bot.stats.broadcast_latencies) for bot in bots]
    reply_marks = [len(bot.stats.reply_latencies) for bot in bots]
    snapshots_before = sum(bot.stats.snapshots for bot in bots)
    gaps_before = sum(bot.stats.gaps for bot in bots)
    roles = processes_by_role(room_pids)
    cpu_before = cpu_by_process(roles)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    cpu_used = cpu_used_by_role(cpu_before, cpu_by_process(processes_by_role(room_pids)))
    latencies = [
        latency
        for bot, mark in zip(bots, marks, strict=True)
        for latency in bot.stats.broadcast_latencies[mark:]
    ]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    actions = max(len(latencies), 1)
    replies = [
        latency
        for bot, mark in zip(bots, reply_marks, strict=True)
        for latency in bot.stats.reply_latencies[mark:]
    ]
    return {
        # CPU of each role during the measured window: cores busy, and ms per action.
        **{f"cores_{role}": used / elapsed for role, used in cpu_used.items()},
        **{f"cpu_ms_per_action_{role}": used * 1000 / actions for role, used in cpu_used.items()},
        "warm_up_seconds": warmed_up,
        "actions_per_second": len(latencies) / elapsed,
        # From sending an action to the result frame answering it (the service's own time).
        "reply_p50_ms": percentile(replies, 0.50) * 1000,
        "reply_p99_ms": percentile(replies, 0.99) * 1000,
        # Snapshots asked for in the window (a gap, a late turn frame, a stale action).
        "snapshots": sum(bot.stats.snapshots for bot in bots) - snapshots_before,
        "gaps": sum(bot.stats.gaps for bot in bots) - gaps_before,
        "errors": sum(len(bot.stats.errors) for bot in bots),
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
    parser.add_argument(
        "--warm-up",
        type=float,
        default=180,
        help="at most this many seconds for every table to finish a hand before measuring",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=None,
        help="seconds between hands (NEXT_HAND_PAUSE_SECONDS; the room's default when unset)",
    )
    parser.add_argument(
        "--worker-pool",
        default="prefork",
        choices=["prefork", "threads", "solo"],
        help="the Celery worker's pool (concurrency 2)",
    )
    options = parser.parse_args()

    base_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures that shape")
    extra = {} if options.pause is None else {"NEXT_HAND_PAUSE_SECONDS": str(options.pause)}
    env = fresh_room_database(base_url, "bench", **extra)
    bench_url = env["DATABASE_URL"]
    ports = [free_port(), free_port()]
    rows = []
    first_table = 1
    with room_processes(env, ports, options.worker_pool) as room_pids:
        for count in options.tables:
            seats = seat_bots(count, first_table)
            first_table += count
            measured = asyncio.run(
                play(seats, ports, room_pids, warm_up=options.warm_up, seconds=options.seconds)
            )
            close_tables({table_id for table_id, _ in seats})
            clients = min(count, max_connections(bench_url) - 30)
            tps = pgbench_tps(bench_url, clients, int(options.seconds))
            measured.update(
                pgbench_tps=tps, pgbench_clients=clients, ratio=measured["actions_per_second"] / tps
            )
            rows.append((count, measured))
            print(f"N={count}: {measured}", flush=True)
            cores = {
                k.removeprefix("cores_"): v for k, v in measured.items() if k.startswith("cores_")
            }
            print(
                "  CPU cores busy by role: "
                + ", ".join(f"{role} {busy:.2f}" for role, busy in cores.items()),
                flush=True,
            )
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
