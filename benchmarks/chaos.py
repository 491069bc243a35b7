"""Fault harness: live tables of bots while the room's processes are killed at random.

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    .venv/bin/python benchmarks/chaos.py --tables 4 --seconds 120 --seed 1

It builds a fresh database `<name>_chaos_<seed>` (so runs of several seeds may share the
machine), starts its own redis-server (a free port, nothing
saved to disk), two Daphne processes, one Celery worker and Celery beat (the database
scheduler, which runs the action-clock sweep), and seats 6 bots at each table, half on each
Daphne. Once every table has played a hand, for `--seconds` it kills (SIGKILL, the whole
process group) one of Daphne A, Daphne B, the worker, beat or Redis, chosen at random, and
starts it again on the same port after a random pause; the next fault follows after another
random pause. Faults and pauses come from `--seed`, so a run can be replayed. A quiet tail
after the last fault lets the tables show they recovered.

Meanwhile it reads every table's current hand (its seq, its action deadline) and the time
its next hand is due twice a second, and records each interval in which a table made no
progress while a player was due to act (or a hand was due to start). Such an interval that
overlapped a fault counts from the moment the fault cleared (the process was back and
ready). Goal: nothing lost, and no table stalled longer than its action clock plus one
sweep interval (plus `--tolerance`) after a fault cleared.

At the end it reports actions played, the faults (which process, when, how long down), the
longest stall per table and overall, the bots' resyncs (snapshot requests, reconnects) and
error frames, any process that exited on its own (with the tail of its log: a failure), and
runs `manage.py audit_chips` on the harness's database. It exits 1 when the audit fails, a
process exited on its own or did not come back, no action was played, or a stall passed the
bound; `--json PATH` writes the report as JSON too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.tables import (  # noqa: E402
    daphne_command,
    free_port,
    fresh_room_database,
    seat_bots,
    tables_under_way,
    worker_command,
)

TARGETS = ("daphne-a", "daphne-b", "worker", "beat", "redis")
POLL_EVERY = 0.5
# The harness's Redis keeps nothing on disk: a restart loses every queued task and group,
# the worst case the room must survive.
NOTHING_SAVED = ("--save", "", "--appendonly", "no")
READY_WITHIN = 90.0


# --- the room's processes -----------------------------------------------------------------------


class RoomProcess:
    """One process of the room, in its own process group (a kill takes the worker's pool
    processes with it), logging to one file across its restarts."""

    def __init__(
        self,
        name: str,
        command: list[str],
        env: dict[str, str],
        log_path: Path,
        ready: Callable[[RoomProcess], bool],
        port: int,
    ) -> None:
        self.name, self.command, self.env, self.log_path = name, command, env, log_path
        self.port = port  # the same on every start: clients come back to it
        self.ready = ready
        self.process: subprocess.Popen[bytes] | None = None
        self.log_offset = 0  # where this start's lines begin in the log
        self.killed = False  # by the harness: an exit then is expected
        self.exited_at: float | None = None  # when an exit on its own was first seen

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            log.write(f"\n=== {time.strftime('%H:%M:%S')} chaos: starting {self.name}\n".encode())
            self.log_offset = log.tell()
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.killed, self.exited_at = False, None

    def wait_ready(
        self, within: float = READY_WITHIN, meanwhile: Callable[[], None] = lambda: None
    ) -> bool:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            meanwhile()
            if self.exited_on_its_own() is not None:
                return False
            if self.ready(self):
                return True
            time.sleep(0.2)
        return False

    def kill(self) -> None:
        """SIGKILL, as a machine or an OOM killer would: no clean-up runs."""
        self.killed = True
        self._signal_group(signal.SIGKILL)

    def stop(self) -> None:
        self.killed = True
        self._signal_group(signal.SIGTERM)
        if self.process is not None:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)

    def _signal_group(self, signum: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)
        if signum == signal.SIGKILL:
            self.process.wait(10)

    def exited_on_its_own(self) -> int | None:
        """The exit code when the process ended and the harness did not end it."""
        if self.process is None or self.killed:
            return None
        code = self.process.poll()
        if code is not None and self.exited_at is None:
            self.exited_at = time.time()
        return code

    def log_since_start(self) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(self.log_offset)
                return log.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def port_answers_http(port: int) -> Callable[[RoomProcess], bool]:
    def ready(_: RoomProcess) -> bool:
        try:
            url = f"http://127.0.0.1:{port}/accounts/login/"
            with urllib.request.urlopen(url, timeout=2):
                return True
        except OSError:
            return False

    return ready


def redis_answers(port: int) -> Callable[[RoomProcess], bool]:
    def ready(_: RoomProcess) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), 1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    return ready


def log_says(text: str) -> Callable[[RoomProcess], bool]:
    """Ready once this start's log shows `text` (the worker's "ready.", beat sending a task)."""
    return lambda process: text in process.log_since_start()


def room_processes(env: dict[str, str], redis_port: int, logs: Path) -> dict[str, RoomProcess]:
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        raise SystemExit("redis-server is not installed (Debian: redis-server)")
    port_a, port_b = free_port(), free_port()
    celery = [sys.executable, "-m", "celery", "-A", "pokerroom"]
    specs: dict[str, tuple[list[str], Callable[[RoomProcess], bool], int]] = {
        "redis": (
            [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", *NOTHING_SAVED],
            redis_answers(redis_port),
            redis_port,
        ),
        "daphne-a": (daphne_command(port_a), port_answers_http(port_a), port_a),
        "daphne-b": (daphne_command(port_b), port_answers_http(port_b), port_b),
        "worker": (worker_command(level="info"), log_says(" ready."), 0),
        "beat": ([*celery, "beat", "-l", "info"], log_says("Sending due task"), 0),
    }
    return {
        name: RoomProcess(name, command, env, logs / f"{name}.log", ready, port)
        for name, (command, ready, port) in specs.items()
    }


# --- faults -------------------------------------------------------------------------------------


@dataclass
class Outage:
    """A process down: killed by the harness (a fault) or exited on its own."""

    process: str
    down_at: float  # wall-clock seconds (time.time())
    cleared_at: float | None = None  # back and ready; None: it never came back
    on_its_own: bool = False
    exit_code: int | None = None
    log_tail: str = ""


@dataclass
class FaultPlan:
    seconds: float
    targets: tuple[str, ...]
    down: tuple[float, float]  # seconds a killed process stays down
    gap: tuple[float, float]  # seconds between a fault clearing and the next one
    seed: int
    tail: float  # quiet seconds after the last fault, for its tables to recover


class Chaos(threading.Thread):
    """Kills and restarts the room's processes by the plan; restarts any process that
    exited on its own (recorded as an outage of its own, a failure)."""

    def __init__(self, plan: FaultPlan, processes: dict[str, RoomProcess]) -> None:
        super().__init__(name="chaos", daemon=True)
        self.plan, self.processes = plan, processes
        self.rng = random.Random(plan.seed)
        self.outages: list[Outage] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.started_at = time.time()

    def run(self) -> None:
        self.started_at = time.time()
        until = time.monotonic() + self.plan.seconds
        while not self.stopping.is_set():
            self.pause(self.rng.uniform(*self.plan.gap))
            if time.monotonic() >= until or self.stopping.is_set():
                break
            name = self.rng.choice(self.plan.targets)
            down_for = self.rng.uniform(*self.plan.down)
            process = self.processes[name]
            outage = Outage(process=name, down_at=time.time())
            self.record(outage)
            process.kill()
            print(f"chaos: killed {name}, down for {down_for:.1f}s", flush=True)
            self.pause(down_for)
            self.bring_back(process, outage)
        self.pause(self.plan.tail)

    def pause(self, seconds: float) -> None:
        """Sleep, watching for a process that exits on its own meanwhile."""
        deadline = time.monotonic() + seconds
        while True:
            self.restart_what_died()
            left = deadline - time.monotonic()
            if left <= 0 or self.stopping.wait(min(left, 0.25)):
                return

    def note_exits(self) -> None:
        """Note when processes exit on their own while another is being brought back (the
        outage counts from then; they are restarted after)."""
        for process in self.processes.values():
            process.exited_on_its_own()

    def restart_what_died(self) -> None:
        for process in self.processes.values():
            code = process.exited_on_its_own()
            if code is None:
                continue
            outage = Outage(
                process=process.name,
                down_at=process.exited_at or time.time(),
                on_its_own=True,
                exit_code=code,
                log_tail=process.log_tail(),
            )
            self.record(outage)
            print(f"chaos: {process.name} EXITED ON ITS OWN (code {code}), restarting", flush=True)
            self.bring_back(process, outage)

    def bring_back(self, process: RoomProcess, outage: Outage) -> None:
        process.start()
        if process.wait_ready(meanwhile=self.note_exits):
            outage.cleared_at = time.time()
            print(f"chaos: {process.name} back after {outage.cleared_at - outage.down_at:.1f}s")
        else:
            outage.log_tail = outage.log_tail or process.log_tail()
            print(f"chaos: {process.name} DID NOT COME BACK", flush=True)

    def record(self, outage: Outage) -> None:
        with self.lock:
            self.outages.append(outage)

    def outages_so_far(self) -> list[Outage]:
        with self.lock:
            return list(self.outages)


# --- progress -----------------------------------------------------------------------------------


@dataclass
class Stall:
    """An interval in which a table made no progress while a player was due to act (or a
    hand was due to start)."""

    table_id: int
    started: float
    ended: float
    still_open: bool = False  # the run ended with the table still waiting

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    def seconds_after_outages(self, outages: list[Outage]) -> float:
        """The part of the stall after the last outage that overlapped it had cleared (all
        of it when none did). An outage that never cleared leaves nothing to measure: it is
        a failure of its own."""
        begin = self.started
        for outage in sorted(outages, key=lambda o: o.down_at):
            cleared = self.ended if outage.cleared_at is None else outage.cleared_at
            if outage.down_at < self.ended and cleared > begin:
                begin = min(cleared, self.ended)
        return self.ended - begin


@dataclass
class TableView:
    """What one poll read of a table: its latest hand (None before the first) and when its
    next hand is due."""

    hand: tuple[int, int] | None  # (hand id, seq)
    hand_running: bool
    next_hand_at: float | None


class ProgressWatch:
    """Tracks each table's progress from successive polls (see Stall)."""

    def __init__(self) -> None:
        self.marks: dict[int, tuple[int, int] | None] = {}
        self.last_change: dict[int, float] = {}
        self.due_since: dict[int, float] = {}
        self.stalls: list[Stall] = []

    def observe(self, table_id: int, view: TableView, now: float) -> None:
        if table_id not in self.marks or view.hand != self.marks[table_id]:
            self._close(table_id, now)
            self.marks[table_id], self.last_change[table_id] = view.hand, now
        if view.hand_running:
            due_from: float | None = self.last_change[table_id]
        elif view.next_hand_at is not None and view.next_hand_at <= now:
            due_from = max(self.last_change[table_id], view.next_hand_at)
        else:
            due_from = None
        if due_from is None:
            self._close(table_id, now)
        else:
            self.due_since.setdefault(table_id, due_from)

    def finish(self, now: float) -> None:
        for table_id in list(self.due_since):
            self._close(table_id, now, still_open=True)

    def _close(self, table_id: int, now: float, *, still_open: bool = False) -> None:
        started = self.due_since.pop(table_id, None)
        if started is not None:
            self.stalls.append(Stall(table_id, started, now, still_open))


def read_tables(table_ids: list[int]) -> dict[int, TableView]:
    from tables.models import Hand, Table

    latest = {
        row["table_id"]: row
        for row in Hand.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "-id")
        .distinct("table_id")
        .values("table_id", "id", "seq", "ended_at")
    }
    views = {}
    for table_id, next_hand_at in Table.objects.filter(pk__in=table_ids).values_list(
        "pk", "next_hand_at"
    ):
        hand = latest.get(table_id)
        views[table_id] = TableView(
            hand=(hand["id"], hand["seq"]) if hand else None,
            hand_running=bool(hand and hand["ended_at"] is None),
            next_hand_at=next_hand_at.timestamp() if next_hand_at else None,
        )
    return views


class Poller(threading.Thread):
    def __init__(self, table_ids: list[int], watch: ProgressWatch) -> None:
        super().__init__(name="poller", daemon=True)
        self.table_ids, self.watch = table_ids, watch
        self.stopping = threading.Event()
        self.failures: list[str] = []

    def run(self) -> None:
        from django.db import close_old_connections, connection

        while not self.stopping.wait(POLL_EVERY):
            try:
                views = read_tables(self.table_ids)
            except Exception as failed:  # PostgreSQL is not a target: report, do not stop
                self.failures.append(repr(failed))
                close_old_connections()
                continue
            now = time.time()
            for table_id, view in views.items():
                self.watch.observe(table_id, view, now)
        self.watch.finish(time.time())
        connection.close()


# --- the run ------------------------------------------------------------------------------------


@dataclass
class ChaosOptions:
    seconds: float = 120
    tables: int = 4
    seed: int = 1
    action_clock: int = 5
    down: tuple[float, float] = (1.0, 6.0)
    gap: tuple[float, float] = (4.0, 12.0)
    targets: tuple[str, ...] = TARGETS
    tolerance: float = 3.0
    warm_up: float = 120
    pause: float = 1.0  # seconds between hands
    logs: Path | None = None


@dataclass
class ChaosReport:
    options: dict[str, Any]
    sweep_seconds: float
    bound_seconds: float
    actions_played: int = 0
    hands_played: int = 0
    bot_actions_sent: int = 0
    faults: list[dict[str, Any]] = field(default_factory=list)
    unexpected_exits: list[dict[str, Any]] = field(default_factory=list)
    longest_stall_by_table: dict[int, float] = field(default_factory=dict)
    longest_stall_after_fault_by_table: dict[int, float] = field(default_factory=dict)
    stalls_over_bound: list[dict[str, Any]] = field(default_factory=list)
    snapshot_requests: int = 0
    reconnects: int = 0
    gaps: int = 0
    error_frames: dict[str, int] = field(default_factory=dict)
    audit_exit_code: int | None = None
    audit_output: str = ""
    poll_failures: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    logs: str = ""

    @property
    def passed(self) -> bool:
        return not self.failures


def sweep_seconds() -> float:
    """The interval of the action-clock sweep in the room's beat schedule."""
    from pokerroom.celery import app

    schedule = app.conf.beat_schedule["sweep-expired-action-clocks"]["schedule"]
    every = getattr(schedule, "run_every", schedule)  # a celery schedule, or its interval
    return float(every.total_seconds() if isinstance(every, timedelta) else every)


async def play_through(
    seats: list[tuple[int, str]],
    ports: list[int],
    options: ChaosOptions,
    chaos: Chaos,
    poller: Poller,
) -> list[Any]:
    """Bots play; once every table has played a hand the chaos starts, and the watch on
    progress with it; the chaos ends with a quiet tail for the last fault's tables."""
    from bots.client import Bot

    bots = [
        Bot(
            base_url=f"http://127.0.0.1:{ports[index % len(ports)]}",
            table_id=table_id,
            cookie=cookie,
            policy="call",
            buy_in=100_000,
            seed=index,
            username=f"bot{index}",
        )
        for index, (table_id, cookie) in enumerate(seats)
    ]
    tasks = [asyncio.create_task(bot.play()) for bot in bots]
    await tables_under_way(bots, within=options.warm_up)
    poller.start()
    chaos.start()
    while chaos.is_alive():
        await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    for bot, outcome in zip(bots, outcomes, strict=True):
        if isinstance(outcome, Exception):
            print(f"bot {bot.username} ended with {outcome!r}", flush=True)
    return bots


def run_chaos(options: ChaosOptions) -> ChaosReport:
    base_url = os.environ.get("DATABASE_URL", "")
    if not base_url.startswith("postgres"):
        raise SystemExit(
            "set DATABASE_URL (PostgreSQL): the harness builds <name>_chaos_<seed> beside it"
        )
    logs = options.logs or Path(tempfile.mkdtemp(prefix="chaos-"))
    logs.mkdir(parents=True, exist_ok=True)
    redis_port = free_port()
    env = fresh_room_database(
        base_url,
        f"chaos_{options.seed}",
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        NEXT_HAND_PAUSE_SECONDS=str(options.pause),
    )
    sweep = sweep_seconds()
    report = ChaosReport(
        options={k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(options).items()},
        sweep_seconds=sweep,
        bound_seconds=options.action_clock + sweep + options.tolerance,
        logs=str(logs),
    )
    processes = room_processes(env, redis_port, logs)
    plan = FaultPlan(
        options.seconds,
        options.targets,
        options.down,
        options.gap,
        options.seed,
        tail=report.bound_seconds + 2,
    )
    chaos = Chaos(plan, processes)
    watch = ProgressWatch()
    poller: Poller | None = None
    try:
        for process in processes.values():
            process.start()
        for process in processes.values():
            if not process.wait_ready():
                raise SystemExit(f"{process.name} did not start:\n{process.log_tail()}")
        seats = seat_bots(options.tables, 1, action_clock=options.action_clock)
        table_ids = sorted({table_id for table_id, _ in seats})
        poller = Poller(table_ids, watch)
        ports = [processes[name].port for name in ("daphne-a", "daphne-b")]
        bots = asyncio.run(play_through(seats, ports, options, chaos, poller))
    finally:
        chaos.stopping.set()
        if chaos.is_alive():
            chaos.join(30)
        if poller is not None:
            poller.stopping.set()
            if poller.is_alive():
                poller.join(10)
        for process in processes.values():
            process.stop()
    account(report, bots, chaos, watch, poller, table_ids, env)
    return report


def account(
    report: ChaosReport,
    bots: list[Any],
    chaos: Chaos,
    watch: ProgressWatch,
    poller: Poller,
    table_ids: list[int],
    env: dict[str, str],
) -> None:
    from tables.models import Hand, HandEvent

    report.actions_played = HandEvent.objects.filter(
        hand__table_id__in=table_ids, kind="action"
    ).count()
    report.hands_played = Hand.objects.filter(
        table_id__in=table_ids, ended_at__isnull=False
    ).count()
    report.bot_actions_sent = sum(bot.stats.actions for bot in bots)
    report.snapshot_requests = sum(bot.stats.snapshot_requests for bot in bots)
    report.reconnects = sum(bot.stats.reconnects for bot in bots)
    report.gaps = sum(bot.stats.gaps for bot in bots)
    report.error_frames = dict(
        Counter(
            str(error.get("code") or error.get("error") or error.get("status"))
            for bot in bots
            for error in bot.stats.errors
        )
    )
    outages, started = chaos.outages_so_far(), chaos.started_at
    for outage in outages:
        entry = {
            "process": outage.process,
            "at_seconds": round(outage.down_at - started, 1),
            "down_seconds": (
                None if outage.cleared_at is None else round(outage.cleared_at - outage.down_at, 1)
            ),
        }
        if outage.on_its_own:
            report.unexpected_exits.append(
                {**entry, "exit_code": outage.exit_code, "log_tail": outage.log_tail}
            )
            report.failures.append(
                f"{outage.process} exited on its own (code {outage.exit_code}) at "
                f"{entry['at_seconds']}s"
            )
        else:
            report.faults.append(entry)
        if outage.cleared_at is None:
            report.failures.append(f"{outage.process} did not come back:\n{outage.log_tail}")
    for stall in watch.stalls:
        after = stall.seconds_after_outages(outages)
        table = stall.table_id
        report.longest_stall_by_table[table] = max(
            report.longest_stall_by_table.get(table, 0.0), round(stall.seconds, 2)
        )
        report.longest_stall_after_fault_by_table[table] = max(
            report.longest_stall_after_fault_by_table.get(table, 0.0), round(after, 2)
        )
        if after > report.bound_seconds:
            report.stalls_over_bound.append(
                {
                    "table": table,
                    "at_seconds": round(stall.started - started, 1),
                    "seconds": round(stall.seconds, 2),
                    "after_fault_cleared": round(after, 2),
                    "still_open_at_end": stall.still_open,
                }
            )
    for over in report.stalls_over_bound:
        report.failures.append(
            f"table {over['table']} stalled {over['after_fault_cleared']}s after the fault "
            f"cleared (bound {report.bound_seconds:.1f}s) at {over['at_seconds']}s"
        )
    report.poll_failures = poller.failures
    if report.actions_played == 0:
        report.failures.append("no action was played")
    audit = subprocess.run(
        [sys.executable, "manage.py", "audit_chips"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    report.audit_exit_code = audit.returncode
    report.audit_output = (audit.stdout + audit.stderr).strip()
    if audit.returncode != 0:
        report.failures.append(f"audit_chips failed:\n{report.audit_output}")


def print_report(report: ChaosReport) -> None:
    print()
    print(f"actions played: {report.actions_played} (hands {report.hands_played})")
    print(f"faults injected: {len(report.faults)}")
    for fault in report.faults:
        print(f"  {fault['at_seconds']:7.1f}s  {fault['process']:<9} down {fault['down_seconds']}s")
    for exit_ in report.unexpected_exits:
        print(
            f"  {exit_['at_seconds']:7.1f}s  {exit_['process']:<9} EXITED ON ITS OWN "
            f"(code {exit_['exit_code']}); its log ends:\n{exit_['log_tail']}"
        )
    print(
        f"longest stall while a player was due to act, after the fault cleared "
        f"(bound: clock {report.options['action_clock']}s + sweep {report.sweep_seconds:g}s "
        f"+ tolerance {report.options['tolerance']}s = {report.bound_seconds:g}s):"
    )
    for table, after in sorted(report.longest_stall_after_fault_by_table.items()):
        whole = report.longest_stall_by_table[table]
        print(f"  table {table}: {after:.1f}s (whole interval, fault included: {whole:.1f}s)")
    overall = max(report.longest_stall_after_fault_by_table.values(), default=0.0)
    print(f"  overall: {overall:.1f}s")
    print(
        f"resyncs: {report.snapshot_requests} snapshot requests, {report.reconnects} reconnects, "
        f"{report.gaps} gaps"
    )
    print(f"error frames: {sum(report.error_frames.values())} {report.error_frames}")
    print(f"audit_chips: exit {report.audit_exit_code}: {report.audit_output}")
    if report.poll_failures:
        print(f"polls that failed: {len(report.poll_failures)} ({report.poll_failures[0]})")
    print(f"logs: {report.logs}")
    if report.failures:
        print("FAILED:")
        for failure in report.failures:
            print(f"  - {failure}")
    else:
        print("PASSED: nothing lost, no table stalled past the bound")


def seconds_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    first, last = float(low), float(high or low)
    if not 0 <= first <= last:
        raise argparse.ArgumentTypeError("a range is LOW-HIGH seconds, 0 <= LOW <= HIGH")
    return first, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120, help="seconds of faults")
    parser.add_argument("--tables", type=int, default=4, help="tables of 6 bots")
    parser.add_argument("--seed", type=int, default=1, help="the faults' random seed")
    parser.add_argument("--clock", type=int, default=5, help="the tables' action clock, s")
    parser.add_argument(
        "--down", type=seconds_range, default=(1.0, 6.0), help="seconds a process stays down"
    )
    parser.add_argument(
        "--gap", type=seconds_range, default=(4.0, 12.0), help="seconds between faults"
    )
    parser.add_argument(
        "--targets",
        default=",".join(TARGETS),
        help=f"the processes to kill, comma-separated among {','.join(TARGETS)}",
    )
    parser.add_argument(
        "--tolerance", type=float, default=3.0, help="seconds allowed past clock + sweep"
    )
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between hands")
    parser.add_argument("--logs", type=Path, default=None, help="keep process logs here")
    parser.add_argument("--json", type=Path, default=None, help="write the report here")
    args = parser.parse_args()
    targets = tuple(t.strip() for t in args.targets.split(",") if t.strip())
    unknown = set(targets) - set(TARGETS)
    if unknown or not targets:
        parser.error(f"--targets: among {', '.join(TARGETS)} (not {', '.join(sorted(unknown))})")
    options = ChaosOptions(
        seconds=args.seconds,
        tables=args.tables,
        seed=args.seed,
        action_clock=args.clock,
        down=args.down,
        gap=args.gap,
        targets=targets,
        tolerance=args.tolerance,
        pause=args.pause,
        logs=args.logs,
    )
    report = run_chaos(options)
    print_report(report)
    if args.json is not None:
        args.json.write_text(json.dumps(asdict(report) | {"passed": report.passed}, indent=2))
    sys.exit(0 if report.passed else 1)


if __name__ == "__main__":
    main()
