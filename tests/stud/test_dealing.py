"""DESIGN "Fairness": each card's position in the committed deck follows from the public order
of the deal (R-DEAL-1..5), and a viewer is given only the cards R-HIST-2 lets them see."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stud import SeatSetup, StudHand
from stud.dealing import Deal, deal_of, deal_positions, dealt_cards, seen_by
from tests.stud.conftest import Dealer, config


def shuffled(seed: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def check_positions(hand: StudHand) -> None:
    """Every card dealt sits at its position in the deck; no position twice, but for a burn
    dealt again from R-DEAL-5's reshuffled pile."""
    dealt = dealt_cards(hand)
    assert all(hand.deck[d.position] == d.card for d in dealt)
    in_play = [d.position for d in dealt if d.slot.face != "burn"]
    assert len(set(in_play)) == len(in_play)
    assert len({d.position for d in dealt if d.slot.face == "burn"}) == len(hand.burns)
    cards = [c for s in hand.seats for c in hand.cards(s)]
    if hand.community is not None:
        cards.append(hand.community)
    assert sorted(d.card for d in dealt if d.slot.face != "burn") == sorted(cards)
    assert [d.card for d in dealt if d.slot.face == "burn"] == list(hand.burns)


def test_r_deal_1_to_4_positions_of_a_hand_played_to_the_river() -> None:
    """Three players: down cards at 0-5, doors at 6-8, then a burn before each street."""
    dealer = Dealer(shuffled(1), players=3)
    dealer.passive_to_end()
    hand = dealer.hand
    check_positions(hand)
    by_slot = {(d.slot.seat, d.slot.index): d.position for d in dealt_cards(hand)}
    assert [by_slot[(1, i)] for i in range(7)] == [0, 3, 6, 10, 14, 18, 22]
    assert [by_slot[(None, i)] for i in range(4)] == [9, 13, 17, 21]  # the burns
    assert deal_of(hand).river == "down"


def test_r_deal_5_reshuffled_rivers_and_the_community_card_have_their_positions() -> None:
    """Seven to the river: down cards from the reshuffled pile; eight: a community card. The
    pile is the burns and the stub shuffled with the hand's seed, as the engine dealt it."""
    for players, river in ((7, "reshuffle"), (8, "community")):
        dealer = Dealer(shuffled(players), players=players, reshuffle_seed=123456)
        dealer.passive_to_end()
        hand = dealer.hand
        assert deal_of(hand).river == river
        check_positions(hand)
        community = [d for d in dealt_cards(hand) if d.slot.face == "community"]
        assert len(community) == (river == "community")


def test_the_deal_goes_through_json_unchanged() -> None:
    dealer = Dealer(shuffled(7), players=7, reshuffle_seed=99)
    dealer.passive_to_end()
    deal = deal_of(dealer.hand)
    assert Deal.from_json(deal.to_json()) == deal
    assert deal_positions(Deal.from_json(deal.to_json())) == deal_positions(deal)


def test_r_hist_2_a_viewer_sees_up_cards_shown_hands_and_own_down_cards_only() -> None:
    """Seat 3 folds at its first chance; of seats 1 and 2 the loser mucks at showdown. No viewer
    but its owner is given a folded or mucked down card; nobody a burn."""
    dealer = Dealer(shuffled(11), players=3, auto_muck=True)
    while dealer.hand.to_act is not None and dealer.hand.status_of(3) != "folded":
        seat = dealer.hand.to_act
        if seat == 3 and "fold" in dealer.kinds(3):
            dealer.act(3, "fold")
        else:
            kinds = dealer.kinds(seat)
            dealer.act(seat, next(k for k in ("bring_in", "check", "call") if k in kinds))
    dealer.passive_to_end()
    hand = dealer.hand
    assert hand.result is not None
    shown = {seat for seat, _ in hand.result.shown}
    mucked = {seat for seat, _ in hand.result.mucked}
    assert hand.status_of(3) == "folded" and len(shown) == 1 and len(mucked) == 1
    (muck,) = mucked
    (winner,) = shown
    for viewer in (None, 1, 2, 3):
        seen = seen_by(hand, viewer)
        faces = {d.slot.face for d in seen}
        assert "burn" not in faces
        downs = {d.slot.seat for d in seen if d.slot.face == "down"}
        assert downs == {winner} | ({viewer} if viewer is not None else set())
        cards = {d.card for d in seen}
        hidden = set(hand.down_cards(3)) if viewer != 3 else set()
        if viewer != muck:
            hidden |= set(hand.down_cards(muck))
        assert not cards & hidden
        assert not cards & set(hand.burns)
        ups = {c for s in hand.seats for c in hand.up_cards(s)}
        assert ups <= cards


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stacks=st.lists(st.sampled_from([5, 12, 40, 10_000]), min_size=2, max_size=8),
    deck=st.permutations(list(range(52))),
    seed=st.integers(0, 2**32),
    folds=st.lists(st.booleans(), max_size=40),
)
def test_every_card_of_any_hand_sits_at_the_position_the_deal_gives_it(
    stacks: list[int], deck: list[int], seed: int, folds: list[bool]
) -> None:
    """Short stacks go all in (the rest dealt out without betting), others fold or call."""
    players = len(stacks)
    seats = [SeatSetup(seat=n, name=f"P{n}", stack=stacks[n - 1]) for n in range(1, players + 1)]
    hand, _ = StudHand.start(config(), seats, deck, players, reshuffle_seed=seed)
    moves = iter(folds)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        offers = hand.legal_actions(seat)
        fold = next(moves, False)
        pick = next((o for o in offers if o.kind.value == "fold"), None) if fold else None
        pick = pick or next(o for o in offers if o.kind.value in ("check", "call", "bring_in"))
        hand, _ = hand.apply(pick.for_seat(seat))
        check_positions(hand)
    check_positions(hand)
