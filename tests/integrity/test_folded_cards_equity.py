"""Issue #25, the stud's-own signal: the player's equity with and without a folded player's
down cards known is estimated from the same random run-outs (common random numbers), so the
two differ by the cards' effect, not by two samples' noise; and the estimate "with" never
deals a card that is known out of play."""

from __future__ import annotations

import random

from integrity.reading import equity, equity_with_and_without
from stud.cards import parse_cards

# The hero holds four to a straight flush (9s Ts Js Qs) with the river to come; the only
# opponent shows four kings. Only the 8s wins (the Ks is the opponent's): it is the hero's
# one out, and the folded player holds it.
HERO = parse_cards("9s Ts Js Qs 2d 3c")
KINGS = (tuple(parse_cards("Kc Kd Kh Ks")), ())
FOLDED = parse_cards("8s 4h")


def test_the_out_in_the_folded_hand_is_never_dealt_once_those_cards_are_known():
    without, [with_folded] = equity_with_and_without(
        hero=HERO, opponents=[KINGS], dead=(), known=[FOLDED], samples=840, rng=random.Random(4)
    )
    assert with_folded == 0.0  # the 8s is known out of play: no run-out deals it
    # Without them, one card in the 42 unseen wins: about 1 run-out in 42.
    assert 0.005 < without < 0.06


def test_without_known_cards_the_estimate_is_the_plain_equity_of_the_same_run_outs():
    plain = equity(hero=HERO, opponents=[KINGS], dead=(), samples=300, rng=random.Random(9))
    same, [] = equity_with_and_without(
        hero=HERO, opponents=[KINGS], dead=(), known=[], samples=300, rng=random.Random(9)
    )
    assert plain == same


def test_cards_that_cannot_change_the_result_leave_the_two_estimates_equal():
    """4h 5h never make or break the hero's hand here (only the 8s does): with common
    run-outs, knowing them changes a run-out only where it deals them, and a run-out redealt
    without them wins only if it now deals the 8s, so the two estimates stay within a few
    run-outs of each other, where two independent samples of 48 differ by several points."""
    without, [with_known] = equity_with_and_without(
        hero=HERO,
        opponents=[KINGS],
        dead=(),
        known=[parse_cards("4h 5h")],
        samples=48,
        rng=random.Random(2),
    )
    assert abs(with_known - without) <= 2 / 48
