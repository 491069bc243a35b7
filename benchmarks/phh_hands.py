"""Random hands for the PHH round trip (R-HIST-1 through PHH), and the trip itself: ours out
(``stud.phh.render_phh`` with every down card), PokerKit 0.7.7 in and replayed to its final
stacks, ours in again (``stud.phh.read_phh``). One helper for tests/stud/test_phh.py (150 hands
a game) and benchmarks/phh_round_trip.py (1,000 a game)."""

from __future__ import annotations

import random
import warnings

import pokerkit

from stud import ActionKind, Game, GameConfig, OddChip, SeatSetup, StudHand
from stud.phh import ALL_DOWN_CARDS, read_phh, render_phh


def random_hand(game: Game, rng: random.Random) -> StudHand:
    """A random hand with deep stacks, played inside the rules PokerKit and we share: one
    size of each bet (PokerKit deals no open-pair big bet, R-BET-2), the cap heads-up too,
    no fold when a check is free. Deep stacks keep all-ins out, for where the two part with
    them: short all-in raises (R-BET-6) and a fold that leaves one player able to act
    (docs/engine-contract.md "Beside PokerKit"). Who opens a street whose best board is
    all-in they agree on (tests/stud/test_order_all_in.py)."""
    table = GameConfig(
        game=game, small_bet=100, big_bet=200, ante=10, bring_in=25,
        heads_up_raises=3, odd_chip=OddChip.LEFT_OF_BUTTON,
    )  # fmt: skip
    count = rng.randint(2, 6)
    seats = [SeatSetup(seat, f"P{seat}", rng.choice([5000, 8000])) for seat in range(1, count + 1)]
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(table, seats, deck, button=rng.randint(1, count))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        by_kind = {}
        for offer in hand.legal_actions(seat):
            by_kind.setdefault(offer.kind, offer)
        if ActionKind.CHECK in by_kind:
            del by_kind[ActionKind.FOLD]
        hand, _ = hand.apply(rng.choice(list(by_kind.values())).for_seat(seat))
    return hand


def pokerkit_final_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, final = pokerkit.HandHistory.loads(text)  # every state, the last one kept
    return list(final.stacks)


def final_stacks_in_deal_order(hand: StudHand) -> list[int]:
    assert hand.result is not None
    stacks = dict(hand.result.final_stacks)
    return [stacks[player.seat] for player in hand.players]


def round_trip_loss(hand: StudHand, number: int) -> str | None:
    """What the trip loses of ``hand`` (its PHH text and what differs), or None."""
    text = render_phh(hand, hand_id=number, table_name="PHH", viewer=ALL_DOWN_CARDS)
    if pokerkit_final_stacks(text) != final_stacks_in_deal_order(hand):
        return f"PokerKit ends at other stacks:\n{text}"
    again = read_phh(text)  # ours in: the same hand, action for action
    if again.log != hand.log or again.result != hand.result:
        return f"read back, another log or result:\n{text}"
    return None
