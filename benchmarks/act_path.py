"""The act path in one process: the CPU and wall time of one `hand_act`, its statements and
where its time goes, beside the room's code at another commit, in one run.

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python benchmarks/act_path.py --acts 600 [--redis] [--root ../old-checkout]

    # side by side: this checkout and another, alternating, one child process a round
    .venv/bin/python benchmarks/act_path.py --acts 400 --redis --against ../old --rounds 3

It builds a fresh database `<name>_act` beside the one DATABASE_URL names (or a SQLite file
when DATABASE_URL is not PostgreSQL), seats six funded players at a $1/$2 table through the
services, and plays hands with every player calling or checking, timing each act: its client
message decoded as the consumer decodes it (`parse_frame`), then `hand_act`
(`time.process_time` for CPU, `time.perf_counter` for wall). No Daphne, no worker: without
`--redis` the broadcasts after commit go to the in-process channel layer; with `--redis`
(REDIS_URL kept) to channels_redis, sent from one long-lived event loop as a Celery worker
sends them (`broadcast_from_own_loop`). So what is measured is the service itself: lock,
reads, engine, events, state, commit, and the broadcast after commit.

For each act it also counts the SQL statements sent (Django's execute wrapper, plus the
transaction's BEGIN and COMMIT), and times the parts: the engine's `StudHand.from_json`,
`apply` and `to_json` (CPU), the broadcast after commit (wall, and the channel-layer messages
and frames it sends), and the statements themselves (wall from send to answer, COMMIT
included).

`--root` runs the same measurement against another checkout of the room (a `git worktree` of
an older commit): the script adds that checkout to `sys.path` instead of this one, so both
sides run the same command. `--against` runs this checkout and that one in turn, `--rounds`
times each, every round in a fresh child process, and prints both sides and their ratios:
compare the ratio, never figures from different sessions.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

HERE = Path(__file__).resolve().parents[1]


def database_for(base_url: str, root: Path) -> str:
    """A fresh database beside `base_url` (PostgreSQL), or a SQLite file under `root`."""
    if not base_url.startswith("postgres"):
        path = root / "var" / "act_path.sqlite3"
        path.parent.mkdir(exist_ok=True)
        path.unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    parts = urlparse(base_url)
    name = parts.path.lstrip("/") + "_act"
    admin = urlunparse(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(parts._replace(path=f"/{name}"))


class Parts:
    """What one act spent where; `inside` is set while `hand_act` runs."""

    def __init__(self) -> None:
        self.inside = False
        self.totals: dict[str, float] = {}

    def add(self, name: str, value: float) -> None:
        if self.inside:
            self.totals[name] = self.totals.get(name, 0.0) + value

    def take(self) -> dict[str, float]:
        totals, self.totals = self.totals, {}
        return totals


def timed(parts: Parts, name: str, call: Callable[..., Any], clock: Callable[[], float]) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return call(*args, **kwargs)
        finally:
            parts.add(name, clock() - start)

    return wrapper


def instrument(parts: Parts) -> None:
    """Time the engine's serialisation and apply, the broadcast, and count what it sends."""
    from django.db import connection

    try:
        from stud import StudHand
    except ImportError:  # a checkout from before the engine became `stud`
        from tables.engine import StudHand  # type: ignore[no-redef]
    # By module path: `tables.services.broadcast` is also the function the package exports.
    broadcast_module = importlib.import_module("tables.services.broadcast")
    outbox_module = importlib.import_module("tables.services.outbox")

    cpu = time.thread_time
    from_json = StudHand.from_json  # bound to the class
    StudHand.from_json = classmethod(  # type: ignore[method-assign,assignment]
        lambda cls, data: timed(parts, "from_json", from_json, cpu)(data)
    )
    StudHand.to_json = timed(parts, "to_json", StudHand.to_json, cpu)  # type: ignore[method-assign]
    StudHand.apply = timed(parts, "apply", StudHand.apply, cpu)  # type: ignore[method-assign]
    outbox_module.broadcast = timed(parts, "broadcast", outbox_module.broadcast, time.perf_counter)
    send_to_groups = broadcast_module.send_to_groups

    def counted_send(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
        parts.add("messages", len(messages))
        parts.add("frames", sum(len(message.get("texts", ())) for _, message in messages))
        send_to_groups(layer, messages)

    broadcast_module.send_to_groups = counted_send

    def statements(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        parts.add("statements", 1)
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(statements)  # for the whole run
    if connection.vendor == "postgresql":
        # Every wait for PostgreSQL's answer (BEGIN, statements, pipelined reads, COMMIT)
        # goes through psycopg's Connection.wait.
        import psycopg

        wait = psycopg.Connection.wait
        psycopg.Connection.wait = timed(  # type: ignore[method-assign]
            parts, "database", wait, time.perf_counter
        )
    commit = connection.commit
    connection.commit = timed(  # type: ignore[method-assign]
        parts, "commit", commit, time.perf_counter
    )


def measure(options: argparse.Namespace) -> dict[str, Any]:
    root = options.root.resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ["DATABASE_URL"] = database_for(os.environ.get("DATABASE_URL", ""), root)
    if not options.redis:
        os.environ.pop("REDIS_URL", None)  # the in-process channel layer and task runner
    elif not os.environ.get("REDIS_URL"):
        raise SystemExit("--redis needs REDIS_URL")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.TASKS_RUN_BEAT = False
    call_command("migrate", verbosity=0)

    from accounts.models import LedgerKind, Player
    from accounts.services import wallet_credit
    from tables import services
    from tables.models import Hand, Table

    try:
        from stud import StudHand
    except ImportError:  # a checkout from before the engine became `stud`
        from tables.engine import StudHand  # type: ignore[no-redef]

    try:
        from tables.realtime.commands import parse_frame
    except ImportError:  # a checkout from before the commands were declared (issue #23)
        from tables.realtime.protocol import parse_frame  # type: ignore[attr-defined,no-redef]

    if options.redis:
        from tables.services.broadcast import broadcast_from_own_loop

        broadcast_from_own_loop()
    parts = Parts()
    instrument(parts)

    table = Table.objects.create(
        name="Act path", game="stud", small_bet=100, big_bet=200, ante=10, bring_in=25,
        buy_in=2000, seats=8, action_clock=600,
    )  # fmt: skip
    players = {}
    for number in range(1, 7):
        player = Player.objects.create_user(
            username=f"act{number}", email=f"act{number}@example.com", password="x" * 12
        )
        wallet_credit(player_id=player.pk, amount=10**9, kind=LedgerKind.DEPOSIT, reason="bench")
        assert services.seat_take(table_id=table.pk, player=player, buy_in=10**6).ok
        players[number] = player

    acts: list[dict[str, float]] = []
    total = options.acts + options.warm_up
    done = 0
    while done < total:
        services.hand_start(table_id=table.pk)  # or the in-process runner dealt it already
        hand = Hand.objects.get(table=table, ended_at__isnull=True)
        while hand.ended_at is None and done < total:
            engine = StudHand.from_json(hand.state)
            seat = engine.to_act
            assert seat is not None
            offers = {offer.kind.value: offer.amount for offer in engine.legal_actions(seat)}
            kind = next(k for k in ("check", "call", "bring_in") if k in offers)
            # The client's message, as the browser sends it: decoded as the consumer does.
            message = json.dumps(
                {"type": "act", "seq": hand.seq, "kind": kind, "amount": offers[kind],
                 "hand_id": hand.pk, "ref": done}
            )  # fmt: skip
            parts.take()
            parts.inside = True
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            command = parse_frame(message)
            parts.add("decode", time.process_time() - cpu_start)
            result = services.hand_act(
                table_id=table.pk,
                player=players[seat],
                expected_seq=command.seq,
                expected_hand_id=command.hand_id,
                kind=command.kind.value,
                amount=command.amount,
            )
            wall = time.perf_counter() - wall_start
            cpu = time.process_time() - cpu_start
            parts.inside = False
            assert result.ok, result.reply()
            done += 1
            hand.refresh_from_db()
            if done > options.warm_up:
                ended = 1.0 if hand.ended_at is not None else 0.0
                acts.append({"cpu": cpu, "wall": wall, "ends_hand": ended, **parts.take()})

    engine_name = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    return {"root": str(root), "database": engine_name, "layer": layer, "acts": acts}


def summary(acts: list[dict[str, float]]) -> dict[str, float]:
    """Medians of the timings (ms) and means of the counts and the parts (per act)."""

    def values(name: str) -> list[float]:
        return [act.get(name, 0.0) for act in acts]

    def p99(name: str) -> float:
        ordered = sorted(values(name))
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000

    out = {
        "cpu_median_ms": statistics.median(values("cpu")) * 1000,
        "cpu_mean_ms": statistics.fmean(values("cpu")) * 1000,
        "wall_median_ms": statistics.median(values("wall")) * 1000,
        "wall_mean_ms": statistics.fmean(values("wall")) * 1000,
        "wall_p99_ms": p99("wall"),
    }
    for name in ("decode", "from_json", "apply", "to_json", "broadcast", "database", "commit"):
        out[f"{name}_mean_ms"] = statistics.fmean(values(name)) * 1000
    for name in ("statements", "messages", "frames"):
        out[f"{name}_per_act"] = statistics.fmean(values(name)) + (
            2 if name == "statements" else 0  # the transaction's BEGIN and COMMIT
        )
    statements = sorted(values("statements"))
    out["statements_median"] = statistics.median(statements) + 2
    return out


def report(label: str, result: dict[str, Any], s: dict[str, float]) -> None:
    engine = s["from_json_mean_ms"] + s["to_json_mean_ms"]
    print(f"{label}: {result['root']} on {result['database']}, {result['layer']}, "
          f"{len(result['acts'])} acts")  # fmt: skip
    print(f"  CPU  median {s['cpu_median_ms']:.2f} ms, mean {s['cpu_mean_ms']:.2f} ms")
    print(f"  decoding the client's act message {s['decode_mean_ms'] * 1000:.1f} µs CPU")
    print(
        f"  wall median {s['wall_median_ms']:.2f} ms, mean {s['wall_mean_ms']:.2f} ms, "
        f"p99 {s['wall_p99_ms']:.2f} ms"
    )
    print(
        f"  statements per act {s['statements_per_act']:.2f} (median "
        f"{s['statements_median']:.0f}, BEGIN and COMMIT included); database wall "
        f"{s['database_mean_ms']:.2f} ms a act (COMMIT {s['commit_mean_ms']:.2f})"
    )
    print(
        f"  engine: from_json {s['from_json_mean_ms']:.3f} ms, apply {s['apply_mean_ms']:.3f} ms, "
        f"to_json {s['to_json_mean_ms']:.3f} ms CPU; from_json + to_json = "
        f"{engine / s['cpu_mean_ms'] * 100:.1f}% of the act's CPU"
    )
    print(
        f"  broadcast after commit {s['broadcast_mean_ms']:.2f} ms wall, "
        f"{s['messages_per_act']:.2f} channel-layer messages and {s['frames_per_act']:.2f} "
        "frames an act"
    )
    for name, acts in split_by_hand_end(result["acts"]).items():
        if acts:
            part = summary(acts)
            print(
                f"  {name}: {len(acts)} acts, CPU median {part['cpu_median_ms']:.2f} ms, "
                f"wall median {part['wall_median_ms']:.2f} ms, p99 {part['wall_p99_ms']:.2f} ms, "
                f"{part['statements_per_act']:.1f} statements"
            )


def split_by_hand_end(acts: list[dict[str, float]]) -> dict[str, list[dict[str, float]]]:
    """The acts mid-hand apart from those that end the hand (showdown, pots, rake, ledger)."""
    return {
        "mid-hand": [act for act in acts if not act.get("ends_hand")],
        "ending the hand": [act for act in acts if act.get("ends_hand")],
    }


def run_child(root: Path, options: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--root", str(root), "--json"]
    command += ["--acts", str(options.acts), "--warm-up", str(options.warm_up)]
    if options.redis:
        command.append("--redis")
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def compare(options: argparse.Namespace) -> None:
    sides = {"this": HERE, "against": options.against.resolve()}
    rows: list[tuple[int, str, dict[str, float]]] = []
    for round_ in range(1, options.rounds + 1):
        # Alternate which side goes first, so a trend in the machine's load hits both.
        order = ["against", "this"] if round_ % 2 else ["this", "against"]
        for side in order:
            result = run_child(sides[side], options)
            s = summary(result["acts"])
            rows.append((round_, side, s))
            report(f"round {round_} {side}", result, s)
            sys.stdout.flush()
    keys = [
        ("cpu_median_ms", "CPU median ms"),
        ("cpu_mean_ms", "CPU mean ms"),
        ("wall_median_ms", "wall median ms"),
        ("wall_p99_ms", "wall p99 ms"),
        ("statements_per_act", "statements an act"),
        ("database_mean_ms", "database wall ms"),
        ("from_json_mean_ms", "from_json ms"),
        ("to_json_mean_ms", "to_json ms"),
        ("broadcast_mean_ms", "broadcast ms"),
    ]
    print()
    print(f"against = {sides['against']}, this = {sides['this']}")
    print("| round | " + " | ".join(f"{label} (against → this)" for _, label in keys[:5]) + " |")
    print("|---:|" + "---|" * 5)
    for round_ in range(1, options.rounds + 1):
        by_side = {side: s for r, side, s in rows if r == round_}
        cells = []
        for key, _ in keys[:5]:
            old, new = by_side["against"][key], by_side["this"][key]
            ratio = f" ({new / old:.2f}x)" if old else ""
            cells.append(f"{old:.2f} → {new:.2f}{ratio}")
        print(f"| {round_} | " + " | ".join(cells) + " |")
    print()
    print("medians over the rounds, against → this (ratio):")
    for key, label in keys:
        old = statistics.median(s[key] for _, side, s in rows if side == "against")
        new = statistics.median(s[key] for _, side, s in rows if side == "this")
        ratio = f" ({new / old:.2f}x)" if old else ""
        print(f"  {label}: {old:.3f} → {new:.3f}{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--acts", type=int, default=600, help="actions to time")
    parser.add_argument("--warm-up", type=int, default=30, help="actions played first, untimed")
    parser.add_argument("--root", type=Path, default=HERE, help="checkout of the room to run")
    parser.add_argument("--redis", action="store_true", help="broadcast on channels_redis")
    parser.add_argument("--against", type=Path, help="another checkout, run in turn with this")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each side (--against)")
    parser.add_argument("--json", action="store_true", help="print the acts as one JSON line")
    options = parser.parse_args()
    if options.against is not None:
        compare(options)
        return
    result = measure(options)
    if options.json:
        print(json.dumps(result))
    else:
        report("act path", result, summary(result["acts"]))


if __name__ == "__main__":
    main()
