"""Collusion found by the room, proved with bots (issue #25): sessions of thousands of hands
with colluding pairs and honest bots, then the integrity scan; does it flag every colluding
pair, and how many honest pairs does it flag?

    .venv/bin/python benchmarks/collusion.py --hands 3000 --seed 1

It builds a fresh SQLite database under var/ (no server needed), makes tables of six seats,
and seats at each one colluding pair (card sharing over a side channel, soft play, or chip
dumping) among honest bots (bots/collusion.py), moving players between tables every
`--rotate` hands so honest players meet many opponents. Every hand is played through the
room's own services (tables.services: the deal, each action at its seq, the hand's end), the
bots deciding from their seat's view only (their own cards and the up cards) and the offers
the room makes, as the bot client does over the WebSocket. Then `integrity_scan` reads the
hand log and the flagged pairs are compared with the truth. Prints a JSON report.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import logging
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]

# Each table: a colluding pair and four honest players (two "honest", two "loose").
PAIR_KINDS = (
    ("card_sharing", "card_sharing"),
    ("soft_play", "soft_play"),
    ("chip_dump", "chip_receive"),
)


@dataclass
class Session:
    players: dict[int, Any]  # player id -> Player
    policies: dict[int, Any]  # player id -> bots.collusion.Policy
    colluding: set[tuple[int, int]]  # (low, high) player ids
    kinds: dict[tuple[int, int], str]
    hands: int = 0
    seconds: float = 0.0
    tables: list[Any] = field(default_factory=list)


def _seen(engine: Any, hand_id: int, seat: int) -> Any:
    from bots.collusion import Seen

    return Seen(
        hand_id=hand_id,
        seat=seat,
        down=tuple(engine.down_cards(seat)),
        up={s: tuple(engine.up_cards(s)) for s in engine.seats},
        live=tuple(s for s in engine.seats if engine.status_of(s) != "folded"),
        folded=tuple(s for s in engine.seats if engine.status_of(s) == "folded"),
        pot=engine.pot,
        to_call=max(0, engine.current_bet - engine.bet(seat)),
        bettor=(
            engine.players[engine.last_aggressor].seat
            if engine.last_aggressor >= 0 and engine.current_bet > 0
            else None
        ),
    )


def build_session(*, tables: int, seed: int) -> Session:
    """Tables of six: each with one colluding pair (the kinds in turn) and four honest."""
    from accounts.models import LedgerKind, Player
    from accounts.services import wallet_credit
    from bots.collusion import Policy, SideChannel
    from tables.models import Table

    rng = random.Random(seed)
    session = Session(players={}, policies={}, colluding=set(), kinds={})
    counter = itertools.count(1)

    def player(kind: str) -> Any:
        n = next(counter)
        made = Player.objects.create_user(
            username=f"bench{seed}_{n}",
            email=f"bench{seed}_{n}@example.com",
            password=None,  # unusable: no key stretching per bot (a third of a second each)
            display_name=f"{kind[:5]}{n}",
        )
        wallet_credit(
            player_id=made.pk,
            amount=10_000_000,
            kind=LedgerKind.DEPOSIT,
            reason="benchmark",
            reference="bench",
        )
        session.players[made.pk] = made
        return made

    for t in range(tables):
        table = Table.objects.create(
            name=f"Bench {seed}-{t}",
            small_bet=100,
            big_bet=200,
            ante=10,
            bring_in=25,
            buy_in=2000,
            seats=6,
            time_bank=0,
        )
        session.tables.append(table)
        first_kind, second_kind = PAIR_KINDS[t % len(PAIR_KINDS)]
        a, b = player(first_kind), player(second_kind)
        channel = SideChannel()
        session.policies[a.pk] = Policy(first_kind, random.Random(rng.random()), channel=channel)
        session.policies[b.pk] = Policy(second_kind, random.Random(rng.random()), channel=channel)
        pair = (min(a.pk, b.pk), max(a.pk, b.pk))
        session.colluding.add(pair)
        session.kinds[pair] = first_kind if first_kind != "chip_dump" else "chip_dumping"
        for kind in ("honest", "honest", "loose", "loose"):
            honest = player(kind)
            session.policies[honest.pk] = Policy(kind, random.Random(rng.random()))
    return session


def seat_everyone(session: Session, rng: random.Random, *, shuffle_honest: bool) -> None:
    """Each pair stays at its table; the honest players are dealt to tables afresh."""
    from tables import services
    from tables.models import Seat

    for seat in Seat.objects.all().select_related("player"):
        services.seat_leave(table_id=seat.table_id, player=seat.player)
    pairs = sorted(session.colluding)
    honest = [pid for pid in session.players if not any(pid in p for p in pairs)]
    if shuffle_honest:
        rng.shuffle(honest)
    for t, table in enumerate(session.tables):
        members = [*pairs[t], *honest[4 * t : 4 * t + 4]]
        rng.shuffle(members)
        for number, pid in enumerate(members, start=1):
            result = services.seat_take(
                table_id=table.pk, player=session.players[pid], buy_in=20_000, seat_number=number
            )
            assert result.ok, result.reply()
    for pair in pairs:
        low, high = pair
        seats = {s.player_id: s.number for s in Seat.objects.filter(player_id__in=pair)}
        session.policies[low].partner = seats[high]
        session.policies[high].partner = seats[low]


def play_hand(session: Session, table: Any, now: datetime) -> None:
    from stud import StudHand
    from tables import services
    from tables.models import Hand, Seat

    started = services.hand_start(table_id=table.pk, now=now)
    if not started.ok:
        return
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    by_seat = {int(s): int(p) for s, p in hand.players.items()}
    engine = StudHand.from_json(hand.state)
    for seat, pid in by_seat.items():
        session.policies[pid].at_deal(_seen(engine, hand.pk, seat))
    for _ in range(400):
        if hand.ended_at is not None or engine.is_over:
            break
        turn = engine.to_act
        assert turn is not None
        pid = by_seat[turn]
        offers = [{"kind": o.kind.value, "amount": o.amount} for o in engine.legal_actions(turn)]
        choice = session.policies[pid].decide(_seen(engine, hand.pk, turn), offers)
        result = services.hand_act(
            table_id=table.pk,
            player=session.players[pid],
            expected_seq=hand.seq,
            kind=choice["kind"],
            amount=int(choice.get("amount", 0)),
            now=now,
        )
        assert result.ok, result.reply()
        # The hand as the room wrote it: its seq, its end and the engine's state (a bot
        # client reads the same from the frames).
        hand.seq, hand.ended_at, hand.state = (
            Hand.objects.filter(pk=hand.pk).values_list("seq", "ended_at", "state").get()
        )
        engine = StudHand.from_json(hand.state)
    session.hands += 1
    for short in Seat.objects.filter(table=table, stack__lt=2_000).select_related("player"):
        services.seat_add_chips(table_id=table.pk, player=short.player, amount=20_000 - short.stack)


@dataclass
class Watch:
    """What the scans saw during the session: when each pair was first flagged (the session's
    hands so far, and the pair's hands together then), and each scan's counts."""

    first_flagged: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    hands_read: int = 0
    seconds: float = 0.0


def _honest(session: Session, pair: tuple[int, int]) -> bool:
    from bots.collusion import HONEST_POLICIES

    return all(session.policies[pid].kind in HONEST_POLICIES for pid in pair)


def _pairs(reviews: Any) -> dict[tuple[int, int], Any]:
    return {(r.player_low_id, r.player_high_id): r for r in reviews}


def scan(session: Session, watch: Watch, now: datetime) -> None:
    """The room's scan of the hands since the last one, and what it flags now."""
    from integrity.models import PairReview
    from integrity.services import integrity_scan

    started = time.perf_counter()
    watch.hands_read += integrity_scan(now=now).hands_read
    watch.seconds += time.perf_counter() - started
    reviews = _pairs(PairReview.objects.all())
    for pair, review in reviews.items():
        if review.flagged and pair not in watch.first_flagged:
            watch.first_flagged[pair] = (session.hands, review.hands_together)
    honest = [r for p, r in reviews.items() if _honest(session, p) and r.hands_together >= 50]
    mixed = [
        r
        for p, r in reviews.items()
        if p not in session.colluding and not _honest(session, p) and r.hands_together >= 50
    ]
    watch.checkpoints.append(
        {
            "hands": session.hands,
            "colluding_flagged": sorted(
                session.kinds[p] for p in session.colluding if reviews.get(p) and reviews[p].flagged
            ),
            "honest_pairs": len(honest),
            "honest_pairs_flagged": sum(r.flagged for r in honest),
            "mixed_pairs": len(mixed),
            "mixed_pairs_flagged": sum(r.flagged for r in mixed),
        }
    )
    print(json.dumps(watch.checkpoints[-1]), file=sys.stderr, flush=True)


def run_session(
    *, hands: int, tables: int = 3, seed: int = 1, rotate: int = 50, scan_every: int = 0
) -> dict[str, Any]:
    """Play `hands` hands in all (spread over the tables), scan (every `scan_every` hands
    too, as the periodic task does, when it is not 0), and report."""
    from integrity.models import PairReview
    from tables.services import scheduling

    scheduling_send = scheduling.task_send_at
    scheduling.task_send_at = lambda *args, **kwargs: None
    watch = Watch()
    try:
        rng = random.Random(seed)
        session = build_session(tables=tables, seed=seed)
        now = datetime(2026, 1, 5, 12, tzinfo=UTC)
        started = time.perf_counter()
        rounds = 0
        next_scan = scan_every
        while session.hands < hands:
            if rounds % rotate == 0:
                seat_everyone(session, rng, shuffle_honest=rounds > 0)
            for table in session.tables:
                now += timedelta(seconds=30)
                play_hand(session, table, now)
            rounds += 1
            if rounds % 50 == 0:
                print(f"{session.hands} hands", file=sys.stderr, flush=True)
            if scan_every and session.hands >= next_scan and session.hands < hands:
                scan(session, watch, now)
                next_scan += scan_every
        session.seconds = time.perf_counter() - started - watch.seconds
    finally:
        scheduling.task_send_at = scheduling_send
    scan(session, watch, now)
    return report(session, PairReview.objects.all(), watch)


def report(session: Session, reviews: Any, watch: Watch) -> dict[str, Any]:
    """Each colluding pair: flagged at the end, and when first; the pairs of two honest
    players (and, apart, of a colluder and an honest player) with at least 50 hands
    together: how many are flagged at the end, and how many were flagged at any scan."""
    pairs = _pairs(reviews)
    flagged = {pair for pair, r in pairs.items() if r.flagged}

    def others(honest: bool) -> list[tuple[int, int]]:
        return [
            p
            for p, r in pairs.items()
            if p not in session.colluding
            and _honest(session, p) == honest
            and r.hands_together >= 50
        ]

    honest_pairs, mixed_pairs = others(True), others(False)
    false_flags = [p for p in honest_pairs if p in flagged]
    ever = [p for p in honest_pairs if p in watch.first_flagged]
    return {
        "hands": session.hands,
        "hands_scanned": watch.hands_read,
        "play_seconds": round(session.seconds, 1),
        "scan_seconds": round(watch.seconds, 1),
        "colluding_pairs": [
            {
                "kind": session.kinds[pair],
                "flagged": pair in flagged,
                "first_flagged_at_hands": watch.first_flagged.get(pair, (None, None))[0],
                "hands_together_then": watch.first_flagged.get(pair, (None, None))[1],
                "hands_together": pairs[pair].hands_together if pair in pairs else 0,
                "signals": [
                    s["words"]
                    for s in (pairs[pair].signals if pair in flagged else [])
                    if s["flagged"]
                ],
            }
            for pair in sorted(session.colluding)
        ],
        "every_colluding_pair_flagged": all(pair in flagged for pair in session.colluding),
        "honest_pairs": len(honest_pairs),
        "honest_pairs_flagged": len(false_flags),
        "false_flag_rate": round(len(false_flags) / len(honest_pairs), 4) if honest_pairs else None,
        "honest_pairs_flagged_at_any_scan": len(ever),
        "false_flags": [
            [s["words"] for s in pairs[p].signals if s["flagged"]] for p in false_flags
        ],
        "mixed_pairs": len(mixed_pairs),
        "mixed_pairs_flagged": sum(p in flagged for p in mixed_pairs),
        "mixed_false_flags": [
            [s["words"] for s in pairs[p].signals if s["flagged"]]
            for p in mixed_pairs
            if p in flagged
        ],
        "checkpoints": watch.checkpoints,
    }


def _migrations_key() -> str:
    """A digest of every app's migrations: a migrated database made from the same ones is the
    same database."""
    digest = hashlib.sha256()
    for path in sorted(HERE.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(HERE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _remove(database: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rotate", type=int, default=50)
    parser.add_argument(
        "--scan-every", type=int, default=250, help="scan every N hands (0: only at the end)"
    )
    args = parser.parse_args()
    database = HERE / "var" / f"collusion-{args.seed}.sqlite3"
    database.parent.mkdir(exist_ok=True)
    _remove(database)
    # Migrating a fresh database takes longer than a hundred hands: the first run keeps a
    # migrated copy, named by its migrations, and later runs start from a copy of it.
    template = HERE / "var" / f"collusion-migrated-{_migrations_key()}.sqlite3"
    if template.exists():
        shutil.copyfile(template, database)
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.pop("REDIS_URL", None)
    # DEBUG off: Django would otherwise time and keep every one of the run's SQL statements.
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("SECRET_KEY", "collusion-benchmark-only")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    sys.path.insert(0, str(HERE))
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    from django.conf import settings

    # Nobody watches these tables: the room builds every change's frames as always, and
    # tables.services.broadcast finds no channel layer to hand them to (as in a process
    # configured without one), instead of starting a thread and an event loop per action
    # to put them on in-memory queues nobody reads.
    settings.CHANNEL_LAYERS = {}
    logging.disable(logging.INFO)  # the action log of thousands of hands
    call_command("migrate", verbosity=0)
    if not template.exists():
        connection.close()  # the last connection's close checkpoints the WAL into the file
        shutil.copyfile(database, f"{template}.partial")
        os.replace(f"{template}.partial", template)
    result = run_session(
        hands=args.hands,
        tables=args.tables,
        seed=args.seed,
        rotate=args.rotate,
        scan_every=args.scan_every,
    )
    print(json.dumps(result, indent=2))
    return 0 if result["every_colluding_pair_flagged"] else 1


if __name__ == "__main__":
    sys.exit(main())
