"""Issue #25: the colluding bot policies do what they are named for, and a short session of
the collusion benchmark (benchmarks/collusion.py) runs end to end through the room's
services and the scan. The full session, thousands of hands, is the benchmark
(docs/integrity.md)."""

from __future__ import annotations

import random

import pytest

from bots.collusion import Policy, Seen, SideChannel
from stud.cards import parse_cards

CALL_OR_FOLD = [{"kind": "fold", "amount": 0}, {"kind": "call", "amount": 200}]
RAISE_OR_CHECK = [{"kind": "check", "amount": 0}, {"kind": "bet", "amount": 200}]


def seen(**fields) -> Seen:
    base = {
        "hand_id": 1,
        "seat": 1,
        "down": tuple(parse_cards("As Ah")),
        "up": {1: tuple(parse_cards("Ad Kc")), 2: tuple(parse_cards("2c 7d")), 3: ()},
        "live": (1, 2),
        "folded": (),
        "pot": 1000,
        "to_call": 0,
        "bettor": None,
    }
    return Seen(**{**base, **fields})


def test_soft_play_never_bets_into_the_partner_heads_up_with_trip_aces():
    honest = Policy("honest", random.Random(1))
    soft = Policy("soft_play", random.Random(1), partner=2)
    assert honest.decide(seen(), RAISE_OR_CHECK)["kind"] == "bet"
    assert soft.decide(seen(), RAISE_OR_CHECK)["kind"] == "check"


def test_the_chip_dumper_folds_trip_aces_to_the_partners_bet_and_calls_anyone_else():
    dumper = Policy("chip_dump", random.Random(1), partner=2)
    assert dumper.decide(seen(to_call=200, bettor=2), CALL_OR_FOLD)["kind"] == "fold"
    stranger = seen(to_call=200, bettor=3, live=(1, 2, 3))
    assert dumper.decide(stranger, CALL_OR_FOLD)["kind"] == "call"


def test_card_sharers_read_the_partners_folded_cards_and_play_them_decisively():
    """Seat 1 holds a pair of kings against a pair of aces showing, and the price
    is 25% of the pot. Its equity is about 27% (its trips outs live) and an honest bot often calls;
    partner 3 folded the other two kings, which leaves it about 18%, and the sharer, knowing
    them over the side channel, folds at every seed: the shared cards decide what it does."""
    channel = SideChannel()
    Policy("card_sharing", random.Random(2), partner=1, channel=channel).at_deal(
        seen(seat=3, down=tuple(parse_cards("Kh Kc")))
    )
    view = seen(
        down=tuple(parse_cards("Ks Kd")),
        up={1: tuple(parse_cards("2c 7h")), 2: tuple(parse_cards("Ah Ad")), 3: ()},
        live=(1, 2),
        folded=(3,),
        to_call=200,
        pot=600,
        bettor=2,
    )
    assert channel.read(1, 3) == tuple(parse_cards("Kh Kc"))
    decided = [
        (
            Policy("honest", random.Random(seed)).decide(view, CALL_OR_FOLD)["kind"],
            Policy("card_sharing", random.Random(seed), partner=3, channel=channel).decide(
                view, CALL_OR_FOLD
            )["kind"],
        )
        for seed in range(12)
    ]
    assert [sharer for _, sharer in decided] == ["fold"] * 12
    assert [honest for honest, _ in decided].count("call") >= 4


@pytest.mark.django_db
def test_a_short_session_plays_every_hand_through_the_room_and_the_scan_reads_them(
    monkeypatch: pytest.MonkeyPatch,
):
    from benchmarks.collusion import run_session

    report = run_session(hands=9, tables=3, seed=5, rotate=2, scan_every=3)
    # Scanned as the periodic task does, every 3 hands and at the end: each hand read once.
    assert report["hands"] == report["hands_scanned"] == 9
    assert [scan["hands"] for scan in report["checkpoints"]] == [3, 6, 9]
    assert [pair["kind"] for pair in report["colluding_pairs"]] == [
        "card_sharing",
        "soft_play",
        "chip_dumping",
    ]
    from integrity.models import PairReview

    # Six at each table: 15 pairs a table, and the rotation seats honest players anew.
    assert PairReview.objects.filter(hands_together__gt=0).count() >= 45
