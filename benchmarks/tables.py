"""Live tables under load, measured against the transport floor in the same run (issue #15).

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python benchmarks/tables.py                 # everything, about 25 minutes
    .venv/bin/python benchmarks/tables.py --quick         # the same at small scale, minutes

It builds a fresh database `<name>_bench`, and runs, in one invocation:

1. The transport floor (benchmarks/floor.py): the room's Daphne command and channel layer
   serving a bare consumer (one frame in, one reply, one broadcast to the table's 6 sockets
   through channels_redis pub/sub, no database, no game), played by the same bots at the same
   paces and tables: its server CPU per action (Daphnes + Redis) and its memory per socket.
2. The room at full speed (bots act the moment their turn comes), `--tables` (10 and 50):
   actions/s, p50/p99 action-to-broadcast (a bot sending `act` until it receives the table's
   event for it), the CPU split, and pgbench's TPC-B-like tps on the same server with one
   client per table, right after.
3. The room at human pace (`--pace human`: each bot waits a random 1-6 s, `--think`, before
   acting; the tables keep the room's 10 s action clock): a stepped search over `--steps`
   tables of 6, stopping at the first step that fails: p99 action-to-broadcast >= 100 ms,
   or a bot timed out (or told "stale") although it replied inside its clock, or a bot not
   connected.
4. `--daphnes 1 3`: the human-pace run at `--compare` tables with 1 and with 3 Daphne
   processes (fresh processes: their memory per connection is read there); each table's
   bots are spread over the processes, and every bot counts seq gaps and events out of order.

The room is two Daphne processes (unless said), one Celery worker (two pool processes) and
Celery beat on PostgreSQL and Redis. Its CPU is accounted per process from /proc: the
Daphnes, the worker and its pool, beat, the PostgreSQL backends of the bench database (found
in pg_stat_activity, sampled every second) and the redis-server of REDIS_URL (its INFO pid);
PostgreSQL's shared background processes (WAL writer, checkpointer...) and the bots are
reported apart, not in the room. The bots run in `--bot-processes` processes of their own,
each table's bots in one of them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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


def daphne_command(port: int, application: str = "pokerroom.asgi:application") -> list[str]:
    """The room's Daphne command (the floor's is the same with its own application)."""
    return [
        str(Path(sys.executable).with_name("daphne")),
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        *("--websocket-max-message-size", "4194304", "--websocket-max-frame-size", "4194304"),
        application,
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


def wait_for_port(port: int, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


@contextlib.contextmanager
def room_processes(
    env: dict[str, str], ports: list[int], worker_pool: str = "prefork", *, floor: bool = False
) -> Iterator[dict[str, list[int]]]:
    """The room (a Daphne per port, the Celery worker, beat) until the block ends; `floor`:
    the transport floor instead, Daphnes alone serving benchmarks/floor.py."""
    application = "benchmarks.floor:application" if floor else "pokerroom.asgi:application"
    daphne_env = dict(env, FLOOR_SERVER="1") if floor else env
    processes = [
        subprocess.Popen(
            daphne_command(port, application),
            cwd=ROOT,
            env=daphne_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    helpers = [] if floor else [worker_command(worker_pool), beat_command()]
    processes += [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for command in helpers
    ]
    try:
        for port in ports:
            wait_for_port(port)
        pids = {"daphne": [p.pid for p in processes[: len(ports)]]}
        if not floor:
            pids |= {"worker": [processes[-2].pid], "beat": [processes[-1].pid]}
        yield pids
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


def process_rss_kb(pid: int) -> int:
    """Resident memory of one process, KB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children_of(parents: list[int]) -> list[int]:
    """Processes whose parent is one of `parents` (the worker's pool)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) in parents:
            found.append(int(entry.name))
    return found


@dataclass
class Servers:
    """Where the room's PostgreSQL backends and its Redis server are: the backends of the
    bench database (pg_stat_activity, asked through the `postgres` database so that the
    asking is not counted) and the redis-server answering REDIS_URL."""

    admin_url: str
    database: str
    redis_pid: int
    _connection: Any = None

    def postgres_pids(self) -> tuple[list[int], list[int]]:
        """(backends of the bench database, the server's shared background processes)."""
        import psycopg

        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(self.admin_url, autocommit=True)
        rows = self._connection.execute(
            "SELECT pid, datname FROM pg_stat_activity WHERE datname = %s OR datname IS NULL",
            (self.database,),
        ).fetchall()
        return [pid for pid, name in rows if name], [pid for pid, name in rows if not name]

    def counters(self, redis_url: str) -> dict[str, float]:
        """What the servers carried so far: the bench database's committed transactions and
        its connections, Redis's PUBLISHes, commands and clients."""
        import redis

        self.postgres_pids()
        row = self._connection.execute(
            "SELECT xact_commit, numbackends FROM pg_stat_database WHERE datname = %s",
            (self.database,),
        ).fetchone()
        client = redis.Redis.from_url(redis_url)
        try:
            stats = client.info("commandstats")
            info = client.info()
        finally:
            client.close()
        return {
            "pg_commits": float(row[0]) if row else 0.0,
            "pg_connections": float(row[1]) if row else 0.0,
            "redis_publishes": float(stats.get("cmdstat_publish", {}).get("calls", 0)),
            "redis_commands": float(info.get("total_commands_processed", 0)),
            "redis_clients": float(info.get("connected_clients", 0)),
        }


def redis_server_pid(redis_url: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def roles_now(
    room_pids: dict[str, list[int]], servers: Servers | None, bot_pids: list[int]
) -> dict[str, list[int]]:
    """Every process of the account by role, as of now."""
    roles = {role: list(pids) for role, pids in room_pids.items()}
    if "worker" in roles:
        roles["worker"] += children_of(room_pids["worker"])
    if servers is not None:
        roles["redis"] = [servers.redis_pid]
        roles["postgres"], roles["postgres-shared"] = servers.postgres_pids()
    roles["bots"] = list(bot_pids)
    return roles


# Roles outside the room's (or the floor's) own CPU: the load generator, and PostgreSQL's
# background processes, which serve every database of the shared server.
NOT_THE_ROOM = ("bots", "postgres-shared")


class CpuMeter:
    """CPU seconds per role between start() and stop(), read from /proc every second so that
    a process that ends in the window (a database connection closed by CONN_MAX_AGE) counts
    up to its last reading, and one that starts in it counts from zero."""

    def __init__(self, roles: Callable[[], dict[str, list[int]]]) -> None:
        self.roles = roles
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _read(self) -> dict[tuple[str, int], float]:
        return {
            (role, pid): process_cpu_seconds(pid)
            for role, pids in self.roles().items()
            for pid in pids
        }

    def _update(self) -> None:
        for key, seconds in self._read().items():
            if seconds > 0:
                self.last[key] = max(seconds, self.last.get(key, 0.0))

    def start(self) -> None:
        self.first = self._read()
        self.last = dict(self.first)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            with contextlib.suppress(Exception):
                self._update()

    def stop(self) -> dict[str, float]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._update()
        used: dict[str, float] = {}
        for (role, pid), seconds in self.last.items():
            used[role] = used.get(role, 0.0) + seconds - self.first.get((role, pid), 0.0)
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


BANKROLL = 10_000_000


def seat_bots(
    count_tables: int, first_table: int, *, action_clock: int | None = None
) -> list[tuple[int, str]]:
    """Tables and funded players with logged-in sessions: (table_id, session cookie) each.
    `action_clock`: the tables' seconds to act (the model's default when None).

    In bulk (hundreds of tables would take minutes one player at a time): the players, each
    with the deposit of its bankroll on the ledger and the balance it explains (what
    `accounts.services.wallet_credit` writes), and a database session each."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import transaction
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from accounts.models import LedgerEntry, LedgerKind, Player
    from tables.models import Table

    numbers = range(first_table, first_table + count_tables)
    with transaction.atomic():
        tables = Table.objects.bulk_create(
            Table(
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
            for number in numbers
        )
        players = []
        for number in numbers:
            for chair in range(BOTS_PER_TABLE):
                player = Player(
                    username=f"bench{number}-{chair}",
                    email=f"bench{number}-{chair}@bench.invalid",
                    balance=BANKROLL,
                )
                player.set_unusable_password()
                players.append(player)
        players = Player.objects.bulk_create(players)
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                player=player,
                kind=LedgerKind.DEPOSIT,
                amount=BANKROLL,
                balance_after=BANKROLL,
                reason="benchmark bankroll",
            )
            for player in players
        )
        store = SessionStore()
        expires = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
        sessions = [
            Session(
                session_key=get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789"),
                session_data=store.encode(
                    {
                        SESSION_KEY: str(player.pk),
                        BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                        HASH_SESSION_KEY: player.get_session_auth_hash(),
                    }
                ),
                expire_date=expires,
            )
            for player in players
        ]
        Session.objects.bulk_create(sessions)
    return [
        (table.pk, f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
        for table, index in zip(tables, range(0, len(players), BOTS_PER_TABLE), strict=True)
        for session in sessions[index : index + BOTS_PER_TABLE]
    ]


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


# --- the load: bots in processes of their own ---------------------------------------------------

# A floor table whose bots saw no frame for this long is started again (a frame lost).
FLOOR_STALL_SECONDS = {"full": 5.0, "human": 20.0}
# At human pace, the bots are under way once this share of them has acted once (a bot that
# sat down after its table's first deal waits for the next hand, a minute at that pace).
HUMAN_READY_SHARE = 0.9


@dataclass
class Load:
    """One measured run's bots: who plays where, at what pace."""

    seats: list[tuple[int, str]]  # (table_id, cookie), six per table, table after table
    ports: list[int]
    think: tuple[float, float] | None  # None: at once (full speed)
    floor: bool = False
    warm_up: float = 180.0
    processes: int = 2
    ramp: float = 100.0  # connections opened per second, all bot processes together

    @property
    def pace(self) -> str:
        return "full" if self.think is None else "human"

    def shares(self) -> list[list[tuple[int, int, str]]]:
        """(index, table_id, cookie) per bot process, every table's bots in one process; the
        index spreads a table's bots over the Daphnes (bot i uses port i mod the count)."""
        tables = sorted({table_id for table_id, _ in self.seats})
        place = {table_id: n % self.processes for n, table_id in enumerate(tables)}
        shares: list[list[tuple[int, int, str]]] = [[] for _ in range(self.processes)]
        for index, (table_id, cookie) in enumerate(self.seats):
            shares[place[table_id]].append((index, table_id, cookie))
        return [share for share in shares if share]


def ready(bots: list[Any], pace: str) -> bool:
    """Full speed: every table has finished a hand. Human pace: most bots have acted."""
    if pace == "full":
        return {bot.table_id for bot in bots if bot.stats.hands > 0} >= {b.table_id for b in bots}
    acted = sum(1 for bot in bots if bot.stats.actions > 0)
    return acted >= HUMAN_READY_SHARE * len(bots)


# Bots of one process waiting for their first snapshot at once, at most.
CONNECTING = 8
COUNTERS = ("gaps", "out_of_order", "timeouts", "stale_acts", "snapshot_requests", "reconnects")


async def _run_share(conn: Any, share: list[tuple[int, int, str]], load: Load) -> None:
    from bots.client import Bot

    started = time.monotonic()
    bots = [
        Bot(
            base_url=f"http://127.0.0.1:{load.ports[index % len(load.ports)]}",
            table_id=table_id,
            cookie=cookie,
            policy="call",
            buy_in=100_000,
            seed=index,
            think=load.think,
        )
        for index, table_id, cookie in share
    ]
    # Not all at once: the room's connect (session, presence, snapshot) is not what is
    # measured, and handshakes queued past the bots' open timeout (5 s) are given up and
    # opened again, a storm that feeds itself. At most CONNECTING bots of this process wait
    # for their first snapshot at a time, and at most `ramp` a second start in all.
    tasks, connecting = [], []
    for bot in bots:
        while len(connecting) >= CONNECTING:
            await asyncio.sleep(0.05)
            connecting = [b for b in connecting if b.stats.snapshots == 0]
        tasks.append(asyncio.create_task(bot.play()))
        connecting.append(bot)
        await asyncio.sleep(load.processes / load.ramp)
    while any(bot.stats.snapshots == 0 for bot in bots) and time.monotonic() - started < 900:
        await asyncio.sleep(0.2)
    connected_in = time.monotonic() - started
    by_table: dict[int, list[Any]] = {}
    for bot in bots:
        by_table.setdefault(bot.table_id, []).append(bot)
    restarts = 0
    started = time.monotonic()
    if load.floor:
        for table_id, table_bots in by_table.items():
            await table_bots[0].send({"type": "start", "hand_id": table_id * 1_000_000})
    while time.monotonic() - started < load.warm_up and not ready(bots, load.pace):
        await asyncio.sleep(0.5)
    conn.send(
        ("ready", time.monotonic() - started, sum(b.stats.actions > 0 for b in bots), connected_in)
    )
    stop = asyncio.Event()

    async def mend_floor_stalls() -> None:
        """A floor table whose frame was lost stops; start a new hand there."""
        nonlocal restarts
        seen: dict[int, tuple[Any, float]] = {}
        while not stop.is_set():
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for table_id, table_bots in by_table.items():
                where = tuple((bot.hand_id, bot.seq) for bot in table_bots)
                last = seen.get(table_id)
                if last is None or last[0] != where:
                    seen[table_id] = (where, now)
                elif now - last[1] > FLOOR_STALL_SECONDS[load.pace]:
                    restarts += 1
                    hand_id = table_id * 1_000_000 + 500_000 + restarts
                    await table_bots[0].send({"type": "start", "hand_id": hand_id})
                    seen[table_id] = (where, now)

    mender = asyncio.create_task(mend_floor_stalls()) if load.floor else None
    _, window_start, window_end = await asyncio.to_thread(conn.recv)
    await asyncio.sleep(max(0.0, window_start - time.time()))
    marks = [
        (len(b.stats.broadcast_latencies), len(b.stats.reply_latencies), b.stats.actions)
        for b in bots
    ]
    counts = {name: sum(getattr(b.stats, name) for b in bots) for name in COUNTERS}
    restarts_before = restarts
    await asyncio.sleep(max(0.0, window_end - time.time()))
    result = {
        "latencies": [
            x for b, m in zip(bots, marks, strict=True) for x in b.stats.broadcast_latencies[m[0] :]
        ],
        "replies": [
            x for b, m in zip(bots, marks, strict=True) for x in b.stats.reply_latencies[m[1] :]
        ],
        "sent": sum(b.stats.actions - m[2] for b, m in zip(bots, marks, strict=True)),
        **{name: sum(getattr(b.stats, name) for b in bots) - counts[name] for name in COUNTERS},
        "errors": sum(len(b.stats.errors) for b in bots),
        "connected": sum(1 for b in bots if b._ws is not None),
        "bots": len(bots),
        "restarts": restarts - restarts_before,
        # Bots whose play ended (the room closed for good, a failure): how many, and why.
        "bots_ended": sum(1 for task in tasks if task.done()),
        "why_ended": sorted(
            {repr(task.exception())[:200] for task in tasks if task.done() and task.exception()}
        )[:3],
    }
    stop.set()
    conn.send(("result", result))
    if mender is not None:
        mender.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def bot_process_main(conn: Any, share: list[tuple[int, int, str]], load: Load) -> None:
    """One bot process: play its share until the parent's window is over, report it."""
    import logging

    logging.basicConfig(level=logging.WARNING)
    asyncio.run(_run_share(conn, share, load))


@dataclass
class Run:
    """What one measured run found."""

    label: str
    tables: int
    pace: str
    daphnes: int
    seconds: float
    warm_up_seconds: float
    acted_at_start: int
    cpu: dict[str, float]  # CPU seconds per role in the window
    rss_kb: list[int]  # each Daphne's, at the end of the window
    rss_idle_kb: list[int]  # each Daphne's, before this run's bots connected
    bots: dict[str, Any] = field(default_factory=dict)  # merged bot counters and lists
    connect_seconds: float = 0.0  # until every bot had its first snapshot
    servers: dict[str, float] = field(default_factory=dict)  # per second, and connections
    pgbench: dict[str, float] = field(default_factory=dict)

    @property
    def actions(self) -> int:
        return len(self.bots["latencies"])

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    def p(self, fraction: float, what: str = "latencies") -> float:
        return percentile(self.bots[what], fraction) * 1000

    def server_cpu_ms(self) -> float:
        """The room's (or the floor's) CPU per action, bots and shared PostgreSQL apart."""
        used = sum(v for role, v in self.cpu.items() if role not in NOT_THE_ROOM)
        return used * 1000 / max(self.actions, 1)

    def cpu_ms(self, role: str) -> float:
        return self.cpu.get(role, 0.0) * 1000 / max(self.actions, 1)

    def memory_kb_per_connection(self) -> float:
        """Daphne RSS grown since this run's bots connected, per connection."""
        connected = max(self.bots["connected"], 1)
        return (sum(self.rss_kb) - sum(self.rss_idle_kb)) / connected

    def total_kb_per_connection(self) -> float:
        return sum(self.rss_kb) / max(self.bots["connected"], 1)

    def held(self, p99_limit_ms: float = 100.0) -> bool:
        """The human-pace goal's test of one step."""
        b = self.bots
        return (
            self.p(0.99) < p99_limit_ms
            and b["timeouts"] == 0
            and b["stale_acts"] == 0
            and b["connected"] == b["bots"]
            and self.actions > 0
        )

    def summary(self) -> dict[str, Any]:
        b = self.bots
        return {
            "label": self.label,
            "tables": self.tables,
            "pace": self.pace,
            "daphnes": self.daphnes,
            "seconds": round(self.seconds, 1),
            "warm_up_seconds": round(self.warm_up_seconds, 1),
            "connect_seconds": round(self.connect_seconds, 1),
            "acted_at_start": self.acted_at_start,
            "actions": self.actions,
            "actions_per_second": round(self.actions_per_second, 1),
            "p50_ms": round(self.p(0.50), 1),
            "p99_ms": round(self.p(0.99), 1),
            "reply_p99_ms": round(self.p(0.99, "replies"), 1),
            "server_cpu_ms_per_action": round(self.server_cpu_ms(), 2),
            "cpu_ms_per_action": {role: round(self.cpu_ms(role), 2) for role in sorted(self.cpu)},
            "cores": {role: round(v / self.seconds, 2) for role, v in sorted(self.cpu.items())},
            "daphne_rss_mb": [round(kb / 1024, 1) for kb in self.rss_kb],
            "daphne_rss_idle_mb": [round(kb / 1024, 1) for kb in self.rss_idle_kb],
            "kb_per_connection": round(self.memory_kb_per_connection(), 1),
            "total_kb_per_connection": round(self.total_kb_per_connection(), 1),
            **{k: v for k, v in b.items() if not isinstance(v, list)},
            "why_ended": b.get("why_ended", [])[:3],
            **{k: round(v, 1) for k, v in self.servers.items()},
            **self.pgbench,
        }


def prime(ports: list[int], table_id: int) -> None:
    """One visitor's socket opened and closed on each Daphne before its idle memory is read:
    what a process sets up for its first connection (the channel layer's, the database's) is
    not a cost per connection."""
    from websockets.sync.client import connect

    for port in ports:
        origin = f"http://127.0.0.1:{port}"
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", origin=origin) as socket:  # type: ignore[arg-type]
            socket.recv(timeout=30)
    time.sleep(0.5)


def measure(
    label: str,
    load: Load,
    room_pids: dict[str, list[int]],
    servers: Servers | None,
    *,
    seconds: float,
) -> Run:
    """Start the bots, wait until they are under way, measure `seconds` of play."""
    context = multiprocessing.get_context("spawn")
    prime(load.ports, load.seats[0][0])
    rss_idle = [process_rss_kb(pid) for pid in room_pids["daphne"]]
    children, pipes = [], []
    for share in load.shares():
        parent_end, child_end = context.Pipe()
        child = context.Process(target=bot_process_main, args=(child_end, share, load))
        child.start()
        children.append(child)
        pipes.append(parent_end)
    try:
        readies = [pipe.recv() for pipe in pipes]
        bot_pids = [child.pid for child in children if child.pid is not None]
        meter = CpuMeter(lambda: roles_now(room_pids, servers, bot_pids))
        window_start = time.time() + 1.0
        for pipe in pipes:
            pipe.send(("window", window_start, window_start + seconds))
        time.sleep(max(0.0, window_start - time.time()))
        meter.start()
        before = servers.counters(os.environ["REDIS_URL"]) if servers else {}
        started = time.perf_counter()
        time.sleep(max(0.0, window_start + seconds - time.time()))
        cpu = meter.stop()
        elapsed = time.perf_counter() - started
        after = servers.counters(os.environ["REDIS_URL"]) if servers else {}
        carried = (
            {
                "pg_commits_per_second": (after["pg_commits"] - before["pg_commits"]) / elapsed,
                "pg_connections": after["pg_connections"],
                "redis_publishes_per_second": (after["redis_publishes"] - before["redis_publishes"])
                / elapsed,
                "redis_commands_per_second": (after["redis_commands"] - before["redis_commands"])
                / elapsed,
                "redis_clients": after["redis_clients"],
            }
            if servers
            else {}
        )
        rss = [process_rss_kb(pid) for pid in room_pids["daphne"]]
        results = [pipe.recv()[1] for pipe in pipes]
    finally:
        for child in children:
            child.join(30)
            if child.is_alive():
                child.terminate()
    merged: dict[str, Any] = {}
    for result in results:
        for key, value in result.items():
            merged[key] = merged.get(key, [] if isinstance(value, list) else 0) + value
    return Run(
        label=label,
        tables=len({table_id for table_id, _ in load.seats}),
        pace=load.pace,
        daphnes=len(load.ports),
        seconds=elapsed,
        warm_up_seconds=max(r[1] for r in readies),
        connect_seconds=max(r[3] for r in readies),
        acted_at_start=sum(r[2] for r in readies),
        cpu=cpu,
        rss_kb=rss,
        rss_idle_kb=rss_idle,
        bots=merged,
        servers=carried,
    )


def report(run: Run) -> None:
    s = run.summary()
    print(
        f"{run.label}: {run.tables} tables, {run.pace}, {run.daphnes} Daphne(s): "
        f"{s['actions_per_second']} actions/s, p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, "
        f"server CPU {s['server_cpu_ms_per_action']} ms/action, "
        f"{s['connected']}/{s['bots']} connected, timeouts {s['timeouts']}, stale "
        f"{s['stale_acts']}, gaps {s['gaps']}, out of order {s['out_of_order']}, "
        f"{s['kb_per_connection']} KB/connection",
        flush=True,
    )
    if s["why_ended"]:
        print(f"  {s['bots_ended']} bots stopped: {s['why_ended']}", flush=True)
    print(
        "  CPU ms/action by role: "
        + ", ".join(f"{role} {ms}" for role, ms in s["cpu_ms_per_action"].items())
        + " | cores busy: "
        + ", ".join(f"{role} {c}" for role, c in s["cores"].items()),
        flush=True,
    )


def floor_seats(count_tables: int, first_table: int) -> list[tuple[int, str]]:
    """The floor's bots: a seat each, named by a cookie (the floor looks nothing up)."""
    return [
        (table_id, f"floorseat={chair}")
        for table_id in range(first_table, first_table + count_tables)
        for chair in range(BOTS_PER_TABLE)
    ]


def stepped_search(
    steps: list[int], try_step: Callable[[int], bool]
) -> tuple[int | None, int | None]:
    """Try table counts in increasing order until one fails: (the most that held, the first
    that failed), either None when there was none."""
    held = failed = None
    for count in sorted(steps):
        if try_step(count):
            held = count
        else:
            failed = count
            break
    return held, failed


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


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
    parser.add_argument(
        "--quick", action="store_true", help="small scale: a few minutes (defaults below shrink)"
    )
    parser.add_argument("--tables", type=int, nargs="*", help="full speed N (10 50)")
    parser.add_argument("--steps", type=int, nargs="*", help="human pace (50 100 200 300 500)")
    parser.add_argument(
        "--compare", type=int, help="tables of the floor / room / --daphnes comparison (100)"
    )
    parser.add_argument("--daphnes", type=int, nargs="*", help="Daphne counts compared (1 3)")
    parser.add_argument("--seconds", type=float, help="measured seconds at full speed (30)")
    parser.add_argument("--human-seconds", type=float, help="measured seconds, human pace (60)")
    parser.add_argument("--warm-up", type=float, help="at most this long to get under way (90)")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 6.0))
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument(
        "--ramp", type=float, default=100.0, help="bot connections opened per second"
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
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["floor", "full", "human", "daphnes"]
    )
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    options = parser.parse_args()
    quick = options.quick
    full_tables = options.tables if options.tables is not None else ([5] if quick else [10, 50])
    steps = (
        options.steps
        if options.steps is not None
        else ([5, 10] if quick else [50, 100, 200, 300, 500])
    )
    compare = options.compare or (5 if quick else 100)
    daphne_counts = options.daphnes if options.daphnes is not None else [1, 3]
    seconds = options.seconds or (10 if quick else 30)
    human_seconds = options.human_seconds or (20 if quick else 60)
    warm_up = options.warm_up or (60 if quick else 90)
    think = (options.think[0], options.think[1])

    base_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures that shape")
    extra = {} if options.pause is None else {"NEXT_HAND_PAUSE_SECONDS": str(options.pause)}
    env = fresh_room_database(base_url, "bench", **extra)
    bench_url = env["DATABASE_URL"]
    servers = Servers(
        admin_url=database_named(base_url, "postgres"),
        database=urlparse(bench_url).path.lstrip("/"),
        redis_pid=redis_server_pid(redis_url),
    )
    floor_servers = Servers(servers.admin_url, "-no database-", servers.redis_pid)
    runs: list[Run] = []
    first_table = 1

    def room_load(count: int, ports: list[int], pace_think: tuple[float, float] | None) -> Load:
        nonlocal first_table
        started = time.monotonic()
        seats = seat_bots(count, first_table)
        first_table += count
        print(f"  seated {count} tables in {time.monotonic() - started:.0f} s", flush=True)
        return Load(
            seats,
            ports,
            pace_think,
            warm_up=warm_up,
            processes=options.bot_processes,
            ramp=options.ramp,
        )

    def finish(run: Run, load: Load) -> Run:
        close_tables({table_id for table_id, _ in load.seats})
        runs.append(run)
        report(run)
        return run

    # 1. The floor: fresh Daphnes, the human-pace comparison first (its memory is read there).
    floor_runs: dict[tuple[str, int], Run] = {}
    if "floor" not in options.skip:
        ports = [free_port(), free_port()]
        with room_processes(env, ports, floor=True) as pids:
            plan = [("human", compare)] + [("full", n) for n in full_tables]
            for pace, count in plan:
                load = Load(
                    floor_seats(count, 1),
                    ports,
                    think if pace == "human" else None,
                    floor=True,
                    warm_up=warm_up,
                    processes=options.bot_processes,
                    ramp=options.ramp,
                )
                run = measure(
                    f"floor {pace} N={count}",
                    load,
                    pids,
                    floor_servers,
                    seconds=human_seconds if pace == "human" else seconds,
                )
                runs.append(run)
                report(run)
                floor_runs[(pace, count)] = run

    # 2 and 3. The room, two Daphnes: full speed beside pgbench, then the human-pace search.
    room_runs: dict[tuple[str, int], Run] = {}
    held = failed = None
    if "full" not in options.skip or "human" not in options.skip:
        ports = [free_port(), free_port()]
        with room_processes(env, ports, options.worker_pool) as pids:
            if "full" not in options.skip:
                for count in full_tables:
                    load = room_load(count, ports, None)
                    run = measure(f"room full N={count}", load, pids, servers, seconds=seconds)
                    close_tables({table_id for table_id, _ in load.seats})
                    clients = min(count, max_connections(bench_url) - 30)
                    tps = pgbench_tps(bench_url, clients, int(seconds))
                    run.pgbench = {"pgbench_tps": tps, "pgbench_clients": clients}
                    runs.append(run)
                    report(run)
                    print(f"  pgbench: {tps:.0f} tps ({clients} clients)", flush=True)
                    room_runs[("full", count)] = run

            def try_step(count: int) -> bool:
                load = room_load(count, ports, think)
                run = finish(
                    measure(f"room human N={count}", load, pids, servers, seconds=human_seconds),
                    load,
                )
                room_runs[("human", count)] = run
                return run.held()

            if "human" not in options.skip:
                held, failed = stepped_search(steps, try_step)
                print(f"human pace: held {held} tables, first failed {failed}", flush=True)

    # 4. The same human-pace load on 1 and 3 Daphne processes (fresh: memory read here).
    daphne_runs: dict[int, Run] = {}
    if "daphnes" not in options.skip:
        for count in daphne_counts:
            ports = [free_port() for _ in range(count)]
            with room_processes(env, ports, options.worker_pool) as pids:
                load = room_load(compare, ports, think)
                daphne_runs[count] = finish(
                    measure(
                        f"room human N={compare}, {count} Daphne(s)",
                        load,
                        pids,
                        servers,
                        seconds=human_seconds,
                    ),
                    load,
                )

    summary = goals_table(
        floor_runs, room_runs, daphne_runs, held=held, failed=failed, compare=compare
    )
    print()
    print(summary)
    if options.json:
        options.json.write_text(
            json.dumps(
                {
                    "runs": [run.summary() for run in runs],
                    "held": held,
                    "failed": failed,
                    "table": summary,
                },
                indent=1,
            )
        )


def goals_table(
    floor_runs: dict[tuple[str, int], Run],
    room_runs: dict[tuple[str, int], Run],
    daphne_runs: dict[int, Run],
    *,
    held: int | None,
    failed: int | None,
    compare: int,
) -> str:
    """Issue #15's goals as measured: measure | measured | goal."""
    lines = ["| measure | measured | goal |", "|---|---|---|"]
    for key, room in sorted(room_runs.items()):
        floor = floor_runs.get(key)
        if floor is None:
            continue
        lines.append(
            f"| CPU per action, room ÷ floor, {key[0]} pace, {key[1]} tables | "
            f"{ratio(room.server_cpu_ms(), floor.server_cpu_ms()):.1f}x "
            f"({room.server_cpu_ms():.2f} ÷ {floor.server_cpu_ms():.2f} ms) | <= 2x |"
        )
    if room_runs.get(("human", compare)) or daphne_runs:
        lines.append(
            f"| human pace: most tables of 6 held (p99 < 100 ms, no time-out) | "
            f"{held if held is not None else 'none'} (first failed: {failed}) | >= 500 |"
        )
    floor = floor_runs.get(("human", compare))
    for count, room in sorted(daphne_runs.items()):
        if floor is None:
            break
        lines.append(
            f"| memory per connected player, room ({count} Daphne(s)) ÷ floor, {compare} tables | "
            f"{ratio(room.memory_kb_per_connection(), floor.memory_kb_per_connection()):.1f}x "
            f"({room.memory_kb_per_connection():.0f} ÷ {floor.memory_kb_per_connection():.0f} KB) "
            f"| <= 2x |"
        )
    for count, room in sorted(daphne_runs.items()):
        b = room.bots
        lines.append(
            f"| {compare} tables, human pace, {count} Daphne(s): p50 / p99; gaps, out of order | "
            f"{room.p(0.5):.0f} / {room.p(0.99):.0f} ms; {b['gaps']}, {b['out_of_order']} | "
            f"the same p99; 0, 0 |"
        )
    for (pace, count), room in sorted(room_runs.items()):
        if pace != "full":
            continue
        lines.append(
            f"| full speed, {count} tables: actions/s, p99, pgbench tps | "
            f"{room.actions_per_second:.0f}, {room.p(0.99):.0f} ms, "
            f"{room.pgbench.get('pgbench_tps', float('nan')):.0f} | reported |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
