"""The fault harness (benchmarks/chaos.py, issue #11): while Daphnes, the worker, beat and
Redis are killed at random, no chip is lost and no table stalls past its action clock plus
one sweep after the fault cleared.

The short run is the services test; the way the harness measures a stall is tested here on
its own with a controlled clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.chaos import (
    Chaos,
    FaultPlan,
    Outage,
    ProgressWatch,
    RoomProcess,
    Stall,
    TableView,
    log_says,
)

ROOT = Path(__file__).resolve().parents[2]


def _hand(seq: int, *, running: bool = True) -> TableView:
    return TableView(hand=(1, seq), hand_running=running, next_hand_at=None)


def test_a_stall_that_overlapped_a_fault_counts_from_the_moment_the_fault_cleared() -> None:
    stall = Stall(table_id=1, started=100.0, ended=120.0)
    daphne_down = Outage(process="daphne-a", down_at=102.0, cleared_at=110.0)
    assert stall.seconds == 20.0
    assert stall.seconds_after_outages([daphne_down]) == 10.0
    # Two faults in the one stall: from the later to clear.
    beat_down = Outage(process="beat", down_at=111.0, cleared_at=114.0)
    assert stall.seconds_after_outages([beat_down, daphne_down]) == 6.0
    # A fault that cleared before the table began to wait does not shorten it.
    earlier = Outage(process="worker", down_at=80.0, cleared_at=95.0)
    assert stall.seconds_after_outages([earlier]) == 20.0


def test_a_table_waits_only_while_a_hand_runs_or_is_due_to_start() -> None:
    watch = ProgressWatch()
    watch.observe(1, _hand(3), now=0.0)
    watch.observe(1, _hand(3), now=4.0)
    watch.observe(1, _hand(4), now=4.5)  # progress: the wait from 0 to 4.5 ends
    watch.observe(1, _hand(5, running=False), now=5.0)  # the hand ended: nobody is due
    watch.observe(1, _hand(5, running=False), now=30.0)  # idle, no next hand set: no stall
    due = TableView(hand=(1, 5), hand_running=False, next_hand_at=32.0)
    watch.observe(1, due, now=31.0)  # the next hand is not due yet
    watch.observe(1, due, now=40.0)  # due since 32 and not started
    watch.finish(now=41.0)
    assert [(s.started, s.ended, s.still_open) for s in watch.stalls] == [
        (0.0, 4.5, False),
        (4.5, 5.0, False),
        (32.0, 41.0, True),
    ]


def _process(name: str, script: str, logs: Path) -> RoomProcess:
    command = [sys.executable, "-c", f"print('up', flush=True)\n{script}"]
    return RoomProcess(name, command, dict(os.environ), logs / f"{name}.log", log_says("up"), 0)


def test_a_process_that_exits_on_its_own_is_a_failure_with_its_last_words(
    tmp_path: Path,
) -> None:
    """The harness kills "steady" (a fault, expected); "fragile" dies by itself (as the
    worker did when Redis went away): that is recorded apart, with its log, and restarted."""
    steady = _process("steady", "import time; time.sleep(60)", tmp_path)
    fragile = _process(
        "fragile", "import time, sys; time.sleep(0.2); print('dying words'); sys.exit(3)", tmp_path
    )
    plan = FaultPlan(
        seconds=3, targets=("steady",), down=(0.1, 0.1), gap=(0.5, 0.5), seed=1, tail=1
    )
    chaos = Chaos(plan, {"steady": steady, "fragile": fragile})
    for process in (steady, fragile):
        process.start()
    try:
        chaos.run()
    finally:
        for process in (steady, fragile):
            process.stop()
    outages = chaos.outages_so_far()
    faults = [o for o in outages if not o.on_its_own]
    exits = [o for o in outages if o.on_its_own]
    assert faults and {o.process for o in faults} == {"steady"}
    assert all(o.cleared_at is not None for o in faults)
    assert exits and {o.process for o in exits} == {"fragile"}
    assert exits[0].exit_code == 3
    assert "dying words" in exits[0].log_tail


# CI runs three seeds (issue #22): 101 (Redis down 5.3 s lost the turn frames of the moment
# and stalled both tables until the run ended, before each process resynced its connections
# after an outage and every ping carried the client's seq), 7 and 19. 60 s of faults each:
# the first faults of the seeds' 180 s runs in docs/operations.md, about 2 minutes a seed.
CI_SEEDS = (101, 7, 19)
CI_SECONDS = 60


@pytest.mark.services
@pytest.mark.timeout(420)  # the faults, the processes' starts and restarts on a busy machine
@pytest.mark.parametrize("seed", CI_SEEDS)
def test_tables_survive_random_kills_of_every_room_process(tmp_path: Path, seed: int) -> None:
    """CI_SECONDS of faults on 2 tables, the seed fixed so that a failure can be replayed
    with the same command (its process logs are kept under the test's tmp_path)."""
    report_path = tmp_path / "report.json"
    run = subprocess.run(
        [
            sys.executable,
            "benchmarks/chaos.py",
            *("--tables", "2", "--seconds", str(CI_SECONDS), "--seed", str(seed)),
            *("--clock", "5", "--gap", "3-8"),
            *("--logs", str(tmp_path / "logs"), "--json", str(report_path)),
        ],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert report_path.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(report_path.read_text())
    shown = run.stdout[-4000:]
    assert report["faults"], shown
    assert report["unexpected_exits"] == [], shown
    assert report["stalls_over_bound"] == [], shown
    assert report["actions_played"] > 0, shown
    assert report["audit_exit_code"] == 0, report["audit_output"]
    assert report["failures"] == [] and run.returncode == 0, shown
