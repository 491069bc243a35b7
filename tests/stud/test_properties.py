"""Properties over random tables and random play (hypothesis).

2 to 8 players, stacks from 1 cent up, both games, both odd-chip options, dealer-only antes,
heads-up raise limits, rake on and off; random legal actions and time-outs (protected or not),
players leaving mid-hand (``abandon``, in turn or out of it) and uncalled winners showing.
At every step: chips are conserved to the cent, no card is dealt twice, every offered action
is accepted and a sample of others refused without change. Every hand ends; JSON round trips
and replays reproduce it exactly.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stud import (
    Action,
    ActionKind,
    Game,
    GameConfig,
    IllegalAction,
    OddChip,
    SeatSetup,
    StudHand,
    replay,
)
from stud.rake import MIDDLE_STAKES_RAKE, SMALL_STAKES_RAKE


@st.composite
def tables(draw: st.DrawFn) -> tuple[GameConfig, list[SeatSetup], list[int], int, int]:
    small = draw(st.integers(2, 400))
    big = draw(st.sampled_from([small, 2 * small]))
    config = GameConfig(
        game=draw(st.sampled_from(list(Game))),
        small_bet=small,
        big_bet=big,
        ante=draw(st.integers(0, small)),
        bring_in=draw(st.integers(1, small + 5)),
        heads_up_raises=draw(st.one_of(st.none(), st.integers(0, 6))),
        odd_chip=draw(st.sampled_from(list(OddChip))),
        dealer_only_ante=draw(st.booleans()),
        max_raises=draw(st.integers(1, 4)),
        rake=draw(st.sampled_from([None, SMALL_STAKES_RAKE, MIDDLE_STAKES_RAKE])),
    )
    numbers = draw(st.lists(st.integers(1, 8), min_size=2, max_size=8, unique=True))
    seats = [
        SeatSetup(
            seat=n,
            name=f"P{n}",
            stack=draw(st.one_of(st.integers(1, 60), st.integers(1, 5000))),
            auto_muck=draw(st.booleans()),
        )
        for n in numbers
    ]
    # Decks in card order deal players the same ranks in different suits: ties, split pots
    # and odd chips come up often.
    deck = draw(
        st.one_of(
            st.permutations(list(range(52))),
            st.sampled_from([list(range(52)), list(range(51, -1, -1))]),
        )
    )
    button = draw(st.integers(1, 8))
    seed = draw(st.integers(0, 2**32))
    return config, seats, deck, button, seed


def dealt_cards(hand: StudHand) -> list[int]:
    cards = [c for i in range(len(hand.players)) for c in hand.down[i] + hand.up[i]]
    if hand.community is not None:
        cards.append(hand.community)
    return cards


def check_invariants(hand: StudHand, total: int) -> None:
    if hand.result is None:
        assert sum(hand.stacks) + hand.pot == total
        assert all(s >= 0 for s in hand.stacks)
    else:
        assert sum(hand.stacks) + hand.result.rake == total
        assert [s for _, s in hand.result.final_stacks] == hand.stacks
        assert hand.result.rake == sum(p.rake for p in hand.result.pots)
        for pot in hand.result.pots:
            assert sum(a.amount for a in pot.awards) == pot.amount - pot.rake
    cards = dealt_cards(hand)
    assert len(cards) == len(set(cards)), "a card dealt twice"


def wrong_actions(hand: StudHand, seat: int) -> list[Action]:
    offers = hand.legal_actions(seat)
    wrong: list[Action] = []
    offered = {(o.kind, o.amount) for o in offers}
    for offer in offers:
        for delta in (1, -1):
            candidate = (offer.kind, offer.amount + delta)
            if candidate not in offered and not (
                offer.kind is ActionKind.CALL and offer.amount + delta == hand.current_bet
            ):
                wrong.append(Action(seat, offer.kind, offer.amount + delta))
    for kind in ActionKind:
        if not any(o.kind is kind for o in offers):
            wrong.append(Action(seat, kind, 0))
            wrong.append(Action(seat, kind, hand.current_bet + 100))
    others = [s for s in hand.seats if s != seat]
    if offers and others:
        wrong.append(Action(others[0], offers[0].kind, offers[0].amount))
    wrong.append(Action(99, ActionKind.FOLD, 0))
    return wrong


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=tables(), data=st.data())
def test_random_hands_keep_every_invariant(
    table: tuple[GameConfig, list[SeatSetup], list[int], int, int], data: st.DataObject
) -> None:
    config, seats, deck, button, seed = table
    total = sum(s.stack for s in seats)
    hand, _ = StudHand.start(config, seats, deck, button, reshuffle_seed=seed)
    check_invariants(hand, total)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 400, "the hand does not end"
        seat = hand.to_act
        assert seat is not None
        offers = hand.legal_actions(seat)
        assert offers
        before = hand.to_json()
        # Everything offered is accepted (and the hand applied to never changes)...
        for offer in offers:
            hand.apply(offer.for_seat(seat))
        hand.time_out(seat, True)
        hand.time_out(seat, False)
        hand.abandon(seat)
        assert hand.to_json() == before
        # ...and a sample of what is not is refused, changing nothing.
        for action in data.draw(st.permutations(wrong_actions(hand, seat)))[:4]:
            try:
                hand.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"accepted {action} though not offered: {offers}")
        for gone in [s for s in hand.seats if hand.status_of(s) == "folded"] + [99]:
            try:
                hand.abandon(gone)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"seat {gone} left though not in the hand")
        assert hand.to_json() == before
        if data.draw(st.integers(0, 11)) == 0:
            live = [s for s in hand.seats if hand.status_of(s) != "folded"]
            hand, _ = hand.abandon(data.draw(st.sampled_from(live)))
        elif data.draw(st.integers(0, 9)) == 0:
            hand, _ = hand.time_out(seat, data.draw(st.booleans()))
        else:
            choice = data.draw(st.sampled_from(offers))
            hand, _ = hand.apply(choice.for_seat(seat))
        check_invariants(hand, total)
        if data.draw(st.integers(0, 15)) == 0:
            assert StudHand.from_json(json.loads(json.dumps(hand.to_json()))) == hand
    assert hand.result is not None
    for seat in hand.seats:
        try:
            hand.abandon(seat)
        except IllegalAction:
            pass
        else:
            raise AssertionError("a player left a finished hand")
    winners = [s for s in hand.seats if hand.may_show(s)]
    assert len(winners) == (0 if hand.result.showdown else 1)
    if bool(winners) and data.draw(st.booleans()):
        hand, _ = hand.show_cards(winners[0])
        check_invariants(hand, total)
    assert StudHand.from_json(json.loads(json.dumps(hand.to_json()))) == hand
    assert replay(config, seats, deck, button, hand.log, reshuffle_seed=seed) == hand


AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def could_answer(hand: StudHand, seat: int, level: int) -> bool:
    """Some other player able to act has more in this street's bet and behind than
    ``level``: a bet over ``level`` could be called by them, at least in part."""
    return any(
        other != seat
        and hand.status_of(other) == "active"
        and hand.bet(other) + hand.stack(other) > level
        for other in hand.seats
    )


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=tables(), data=st.data())
def test_issue_17_no_bet_or_raise_is_offered_that_nobody_could_answer(
    table: tuple[GameConfig, list[SeatSetup], list[int], int, int], data: st.DataObject
) -> None:
    """docs/engine-contract.md: "Nobody may bet or raise when no other player could act on
    it" (R-BET-3/R-BET-6, issue #17). Whenever a bet, completion or raise is offered, some
    other player still in the hand and able to act could put in more than the bet they face
    now (the bring-in, for the bring-in's own completion); otherwise only fold and call or
    check (or the bring-in alone) are offered. Random play with protected time-outs, which
    leave a player all-in with chips behind."""
    config, seats, deck, button, seed = table
    hand, _ = StudHand.start(config, seats, deck, button, reshuffle_seed=seed)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        offers = hand.legal_actions(seat)
        bring_in = [o.amount for o in offers if o.kind is ActionKind.BRING_IN]
        level = bring_in[0] if bring_in else hand.current_bet
        aggressive = [o for o in offers if o.kind in AGGRESSIVE]
        if not could_answer(hand, seat, level):
            assert not aggressive, f"offered {aggressive} that nobody could answer: {hand}"
            kinds = {o.kind for o in offers}
            assert kinds in (
                {ActionKind.BRING_IN},
                {ActionKind.FOLD, ActionKind.CALL},
                {ActionKind.FOLD, ActionKind.CHECK},
            )
        if data.draw(st.integers(0, 9)) == 0:
            hand, _ = hand.time_out(seat, data.draw(st.booleans()))
        else:
            # lean to the aggressive offers: they make the all-ins this is about
            lean = bool(aggressive) and data.draw(st.booleans())
            pool = aggressive if lean else offers
            hand, _ = hand.apply(data.draw(st.sampled_from(pool)).for_seat(seat))
