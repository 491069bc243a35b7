"""The act path in one process: the CPU and wall time of one `hand_act`, beside the room's code
at another commit, in one run.

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    .venv/bin/python benchmarks/act_path.py --acts 600 [--root ../old-checkout]

It builds a fresh database `<name>_act` beside the one DATABASE_URL names (or a SQLite file
when DATABASE_URL is not PostgreSQL), seats six funded players at a $1/$2 table through the
services, and plays hands with every player calling or checking, timing each `hand_act`
(`time.process_time` for CPU, `time.perf_counter` for wall). No Daphne, no worker: the
broadcasts after commit go to the in-process channel layer and the clocks to the in-process
runner, so what is measured is the service itself (lock, engine, events, state, commit).

`--root` runs the same measurement against another checkout of the room (a `git worktree` of
an older commit): the script adds that checkout to `sys.path` instead of this one, so both
sides run the same command. Run the two sides one after the other in one session and compare
the ratio, never figures from different sessions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--acts", type=int, default=600, help="actions to time")
    parser.add_argument("--root", type=Path, default=HERE, help="checkout of the room to run")
    options = parser.parse_args()
    root = options.root.resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ["DATABASE_URL"] = database_for(os.environ.get("DATABASE_URL", ""), root)
    os.environ.pop("REDIS_URL", None)  # the in-process channel layer and task runner
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

    cpu: list[float] = []
    wall: list[float] = []
    while len(cpu) < options.acts:
        services.hand_start(table_id=table.pk)  # or the in-process runner dealt it already
        hand = Hand.objects.get(table=table, ended_at__isnull=True)
        while hand.ended_at is None and len(cpu) < options.acts:
            engine = StudHand.from_json(hand.state)
            seat = engine.to_act
            assert seat is not None
            offers = {offer.kind.value: offer.amount for offer in engine.legal_actions(seat)}
            kind = next(k for k in ("check", "call", "bring_in") if k in offers)
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            result = services.hand_act(
                table_id=table.pk,
                player=players[seat],
                expected_seq=hand.seq,
                kind=kind,
                amount=offers[kind],
            )
            wall.append(time.perf_counter() - wall_start)
            cpu.append(time.process_time() - cpu_start)
            assert result.ok, result.reply()
            hand.refresh_from_db()

    def ms(values: list[float]) -> str:
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        return (
            f"mean {statistics.fmean(values) * 1000:.2f} ms, "
            f"median {statistics.median(values) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
        )

    engine_name = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"root {root} on {engine_name}: {len(cpu)} acts")
    print(f"  CPU  {ms(cpu)}")
    print(f"  wall {ms(wall)}")


if __name__ == "__main__":
    main()
