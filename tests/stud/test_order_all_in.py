"""R-ORDER-1 when the best board is all-in: the all-in player cannot act, so the first action
passes clockwise from their seat, as every all-in player's turn is passed over (R-ORDER-1
names the best board, not the best board of those with chips; R-BRING-4's "next-lowest door
card among players with chips" is the bring-in's own rule). PokerKit 0.7.7 opens the street
the same way: checked on a dealer's account and on random short-stacked hands, PokerKit
replaying each of our hands action by action with no repair (docs/engine-contract.md
"Beside PokerKit")."""

from __future__ import annotations

import random
import warnings

import pokerkit
import pytest
from pokerkit import Automation, FixedLimitSevenCardStud, Mode
from pokerkit.notation import parse_action

from stud import ActionKind, Game, GameConfig, OddChip, SeatSetup, StudHand
from stud.hand import ACTIVE, FOLDED
from stud.phh import ALL_DOWN_CARDS, render_phh
from tests.stud.conftest import Dealer, stacked

# Seats 1-4, button 4. Seat 2's door deuce brings in for its last 25 and is all-in; on fourth
# street it shows a pair of deuces. Of those who can bet, seat 4's A-7 is the best board.
DOORS = ["3h 4h Ks", "5c 6c 2c", "8s 8c Qs", "Td Tc As"]
FOURTH = ["9h", "2d", "Jh", "7d"]
FIFTH = ["3s", "3c", "4s", "4c"]


def test_r_order_1_an_all_in_best_board_passes_the_first_action_clockwise() -> None:
    """R-ORDER-1, as the dealer says it: "Pair of deuces is all-in; queen-jack, your action"
    — seat 3, the next seat clockwise from the all-in pair, not seat 4 with ace-seven, the
    best board of those who can still bet; the same on fifth street."""
    dealer = Dealer(stacked(DOORS, FOURTH, FIFTH), [1000, 35, 1000, 1000], button=4)
    dealer.act(2, "bring_in")  # 25: its last chips after the ante
    assert dealer.hand.status[1] != ACTIVE  # seat 2 is all-in
    for seat in (3, 4, 1):
        dealer.act(seat, "call")
    assert dealer.hand.street == 4
    assert dealer.hand.to_act == 3
    for seat in (3, 4, 1):
        dealer.act(seat, "check")
    assert dealer.hand.street == 5  # 2-2-3 still leads, all-in: seat 3 again
    assert dealer.hand.to_act == 3


def test_r_order_1_pokerkit_opens_fourth_street_from_the_same_seat() -> None:
    """The same deal in PokerKit 0.7.7: its opener is the all-in pair (seat 2) and its first
    actor the next clockwise (seat 3), as ours."""
    automations = tuple(
        a for a in Automation if a not in (Automation.HOLE_DEALING, Automation.BOARD_DEALING)
    )
    state = FixedLimitSevenCardStud.create_state(
        automations, True, 10, 25, 100, 200, (1000, 35, 1000, 1000), 4, mode=Mode.CASH_GAME
    )
    for cards in DOORS:
        state.deal_hole(cards.replace(" ", ""))
    assert state.actor_index == 1
    state.post_bring_in()
    while state.street_index == 0 and state.actor_index is not None:
        state.check_or_call()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit's own burn may name a card we deal
        for cards in FOURTH:
            state.deal_hole(cards)
    assert (state.opener_index, state.actor_index) == (1, 2)  # seat 2 leads, seat 3 acts


# Bring-in, call, check (now and then a fold facing the bring-in): the all-ins are those of
# the ante and the bring-in, and no bet over a short all-in (where PokerKit's R-BET-6
# differs) is made.
PASSIVE = (ActionKind.BRING_IN, ActionKind.CALL, ActionKind.CHECK)


def short_stacked_hand(rng: random.Random, game: Game = Game.STUD) -> tuple[StudHand, int]:
    """A random hand of ``game`` in which short stacks go all-in for the bring-in and
    every street is checked or called; with how many of its street openings (4th-7th)
    the best board was all-in and its clockwise neighbour was not the best board able to act
    (where the two readings of R-ORDER-1 part)."""
    table = GameConfig(
        game=game, small_bet=100, big_bet=200, ante=10, bring_in=25,
        heads_up_raises=3, odd_chip=OddChip.LEFT_OF_BUTTON,
    )  # fmt: skip
    count = rng.randint(3, 6)
    stacks = [rng.choice([30, 35, 5000, 5000]) for _ in range(count)]
    seats = [SeatSetup(seat, f"P{seat}", stacks[seat - 1]) for seat in range(1, count + 1)]
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(table, seats, deck, button=rng.randint(1, count))
    parting = 0
    street = hand.street
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        if hand.street != street:
            street = hand.street
            strength = hand.config.variant.board_strength
            live = [i for i in range(len(hand.players)) if hand.status[i] != FOLDED]
            best = max(live, key=lambda i: (strength(hand.up[i]), -i))
            able = [i for i in live if hand.status[i] == ACTIVE]
            best_able = max(able, key=lambda i: (strength(hand.up[i]), -i))
            parting += hand.status[best] != ACTIVE and hand.players[best_able].seat != seat
        kinds = {offer.kind: offer for offer in hand.legal_actions(seat)}
        choices = [kinds[k] for k in PASSIVE if k in kinds]
        if ActionKind.CHECK not in kinds and ActionKind.FOLD in kinds and rng.random() < 0.1:
            choices = [kinds[ActionKind.FOLD]]
        hand, _ = hand.apply(rng.choice(choices).for_seat(seat))
    return hand, parting


def _deal_along(state: pokerkit.State) -> None:
    """PokerKit's steps between our actions: antes, bets collected, burns, the run-out (our
    file shows the cards at the end; PokerKit, when all are all-in, before the run-out)."""
    while True:
        if state.can_post_ante():
            state.post_ante()
        elif state.can_collect_bets():
            state.collect_bets()
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_select_runout_count():
            state.select_runout_count()
        elif state.can_show_or_muck_hole_cards(()):  # all-in: PokerKit's showdown comes first
            state.show_or_muck_hole_cards(())
        else:
            return


def pokerkit_actor_disagreement(text: str) -> str | None:
    """Replay a PHH text in PokerKit, every player action checked against PokerKit's own
    actor (HandHistory's iteration would repair a mismatch by checking for someone)."""
    history = pokerkit.HandHistory.loads(text)
    state = history.create_state()
    for action in history.actions:
        _deal_along(state)
        words = action.split()
        if words[1] == "sm":  # the showdown: every action has been checked
            return None
        if words[0] != "d" and int(words[0][1:]) - 1 != state.actor_index:
            return f"{action!r}: PokerKit's actor is p{(state.actor_index or 0) + 1}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parse_action(state, action, history.parse_value)
    return None


def test_the_pokerkit_check_sees_a_first_actor_it_would_not_choose() -> None:
    """The check below can fail: the dealer's account written as PHH passes; with seat 4
    (PHH p4) acting first on fourth street instead of seat 3, PokerKit names p3."""
    dealer = Dealer(stacked(DOORS, FOURTH, FIFTH), [1000, 35, 1000, 1000], button=4)
    dealer.passive_to_end()
    text = render_phh(dealer.hand, hand_id=1, table_name="T", viewer=ALL_DOWN_CARDS)
    assert pokerkit_actor_disagreement(text) is None
    fourth = text.index('"d dh p4 7d"')
    later = text[fourth:].replace('"p3 cc"', '"p9 cc"', 1).replace('"p4 cc"', '"p3 cc"', 1)
    swapped = text[:fourth] + later.replace('"p9 cc"', '"p4 cc"', 1)
    assert pokerkit_actor_disagreement(swapped) == "'p4 cc': PokerKit's actor is p3"


@pytest.mark.parametrize("game", list(Game))
def test_r_order_1_pokerkit_agrees_on_random_hands_with_an_all_in_best_board(game: Game) -> None:
    """300 random short-stacked hands of each game (Razz's lowest board, R-RAZZ-3, too):
    PokerKit names our player at every action, often where the best board is all-in and the
    two readings part."""
    rng = random.Random(f"r-order-1-all-in-{game.value}")
    parting = 0
    for number in range(300):
        hand, openings = short_stacked_hand(rng, game)
        text = render_phh(hand, hand_id=number, table_name="T", viewer=ALL_DOWN_CARDS)
        assert pokerkit_actor_disagreement(text) is None, text
        parting += openings
    assert parting >= 100  # the case was dealt, often
