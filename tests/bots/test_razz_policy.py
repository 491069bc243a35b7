"""The bots play Razz for low (R-RAZZ-1): a rough hand is given up facing a bet, a smooth
low is bet."""

from __future__ import annotations

import random

from bots.client import choose_action, razz_low_quality
from stud.cards import parse_cards

FACING_A_BET = [
    {"kind": "fold", "amount": 0, "adds": 0},
    {"kind": "call", "amount": 100, "adds": 100},
    {"kind": "raise", "amount": 200, "adds": 200},
]


def test_r_razz_1_a_paired_king_high_hand_counts_two_bad_cards_a_wheel_draw_none() -> None:
    assert razz_low_quality(parse_cards("Kc Kd 4h")) == 2  # a king, and its pair
    assert razz_low_quality(parse_cards("Ac 2d 4h 5s")) == 0


def test_r_razz_1_the_call_bot_folds_rough_lows_and_bets_smooth_ones() -> None:
    rough = parse_cards("Kc Kd Qh")
    smooth = parse_cards("Ac 2d 4h")
    rng = random.Random(1)
    folds = sum(
        choose_action(FACING_A_BET, policy="call", rng=rng, game="razz", cards=rough)["kind"]
        == "fold"
        for _ in range(200)
    )
    raises = sum(
        choose_action(FACING_A_BET, policy="call", rng=rng, game="razz", cards=smooth)["kind"]
        == "raise"
        for _ in range(200)
    )
    stud_folds = sum(
        choose_action(FACING_A_BET, policy="call", rng=rng, game="stud", cards=rough)["kind"]
        == "fold"
        for _ in range(200)
    )
    assert folds > 120 and raises > 80 and stud_folds == 0
