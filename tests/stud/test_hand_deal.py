"""Before the deal and third street: R-GAME-3/4, R-ANTE-1..3, R-DEAL-1..6, R-BRING-1..4."""

from __future__ import annotations

import random

import pytest

from stud import Action, ActionKind, IllegalAction, SeatSetup, StudHand
from tests.stud.conftest import Dealer, card, cards, config, stacked

# Three players, seats 1-3, button on 3: the deal goes 1, 2, 3.
THREE = stacked(["Ah Kh Qd", "As Ks Qc", "2c 3c Kc"])


def test_r_game_3_a_hand_needs_two_players_with_chips() -> None:
    """R-GAME-3: one player, or a player without chips, is not dealt a hand."""
    deck = list(range(52))
    with pytest.raises(ValueError):
        StudHand.start(config(), [SeatSetup(1, "Ann", 500)], deck, 1)
    with pytest.raises(ValueError):
        StudHand.start(config(), [SeatSetup(1, "Ann", 500), SeatSetup(2, "Bob", 0)], deck, 1)
    hand, _ = StudHand.start(
        config(), [SeatSetup(1, "Ann", 500), SeatSetup(2, "Bob", 500)], deck, 2
    )
    assert hand.seats == (1, 2)


def test_r_game_4_a_player_who_cannot_call_goes_all_in_and_stays_in() -> None:
    """R-GAME-4: seat 2 has 60 behind; facing a 100 completion they call all-in, stay in to
    the showdown, and nobody adds chips."""
    dealer = Dealer(THREE, [1000, 95, 1000])
    # Seat 2 (Qc) brings in 25 of its 85; seat 3 completes; seat 1 calls.
    dealer.act(2, "bring_in")
    dealer.act(3, "complete", 100)
    dealer.act(1, "call")
    assert dealer.kinds(2) == {"fold": [0], "call": [85]}  # 25 in + all 60 = to 85
    dealer.act(2, "call")
    assert dealer.hand.status_of(2) == "all_in"
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and result.showdown
    assert 2 in result.show_order
    assert sum(s for _, s in result.final_stacks) == dealer.total_chips


def test_r_ante_1_every_player_dealt_in_posts_the_ante() -> None:
    """R-ANTE-1: three players ante 10 each before the cards come."""
    dealer = Dealer(THREE, players=3)
    (antes,) = dealer.said("antes")
    assert antes["posts"] == [
        {"seat": 1, "amount": 10, "all_in": False},
        {"seat": 2, "amount": 10, "all_in": False},
        {"seat": 3, "amount": 10, "all_in": False},
    ]
    assert dealer.hand.pot == 30
    assert [dealer.hand.stack(s) for s in (1, 2, 3)] == [990, 990, 990]


def test_r_ante_2_a_short_player_antes_what_they_have_and_is_all_in() -> None:
    """R-ANTE-2: seat 3 has 6 cents: they post 6, are all-in, and still get their cards."""
    dealer = Dealer(THREE, [1000, 1000, 6])
    (antes,) = dealer.said("antes")
    assert {"seat": 3, "amount": 6, "all_in": True} in antes["posts"]  # type: ignore[operator]
    assert dealer.hand.status_of(3) == "all_in"
    assert dealer.hand.up_cards(3) == cards("Kc")
    # Seat 3's deuce door card would bring in, but seat 3 is all-in: Qc brings in (R-BRING-4).
    assert dealer.hand.bring_in_seat == 2


def test_r_ante_3_dealer_only_ante_and_all_in_dealer_wins_back_only_the_ante() -> None:
    """R-ANTE-3: only the dealer (seat 3) antes. All-in from it with the best hand, the dealer
    wins back their own 10; the betting between the others is a pot the dealer is not in."""
    table = config(ante=10, dealer_only_ante=True)
    # Seat 3 (button) holds aces; seats 1 and 2 bet it out.
    deck = stacked(
        ["Kh Qh 3d", "Js Ts 4d", "Ac Ad 9c"],
        ["5c", "6c", "Ah"],
        ["7d", "8d", "2h"],
        ["Jc", "Tc", "3h"],
        ["2s", "3s", "4h"],
    )
    dealer = Dealer(deck, [1000, 1000, 10], table=table)
    (antes,) = dealer.said("antes")
    assert antes["posts"] == [{"seat": 3, "amount": 10, "all_in": True}]
    assert dealer.hand.stack(1) == 1000 and dealer.hand.stack(2) == 1000
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    main, side = result.pots
    assert (main.amount, main.eligible) == (10, (1, 2, 3))
    assert main.high_winners == (3,)
    assert side.eligible == (1, 2) and 3 not in side.high_winners
    assert result.stack(3) == 10


def test_r_deal_1_dealing_starts_at_the_dealers_left() -> None:
    """R-DEAL-1: with the button on seat 2, seat 3 gets the first card, then 1, then 2."""
    deck = list(range(52))
    seats = [SeatSetup(n, f"P{n}", 500) for n in (1, 2, 3)]
    hand, _events = StudHand.start(config(), seats, deck, button=2)
    assert hand.seats == (3, 1, 2)
    assert hand.down_cards(3) == (deck[0], deck[3])
    assert hand.down_cards(1) == (deck[1], deck[4])
    assert hand.up_cards(2) == (deck[8],)


def test_r_deal_2_third_street_is_two_down_and_the_door_card_up() -> None:
    """R-DEAL-2: each player sees their own two down cards; everyone sees the door cards."""
    dealer = Dealer(THREE, players=3)
    private = [e for e in dealer.events if e.kind == "down_cards"]
    assert [(e.visible_to, e.payload["cards"]) for e in private] == [
        (1, list(cards("Ah Kh"))),
        (2, list(cards("As Ks"))),
        (3, list(cards("2c 3c"))),
    ]
    (public,) = dealer.said("cards_dealt")
    assert public["seats"] == [
        {"seat": 1, "up": [card("Qd")], "down_count": 2},
        {"seat": 2, "up": [card("Qc")], "down_count": 2},
        {"seat": 3, "up": [card("Kc")], "down_count": 2},
    ]


def test_r_deal_3_a_card_is_burned_before_fourth_street() -> None:
    """R-DEAL-3: the card after the door cards is burned; fourth street is the next ones."""
    deck = list(range(52))
    dealer = Dealer(deck, players=2)
    dealer.passive_to_street(4)
    assert dealer.hand.up_cards(1)[1] == deck[7]  # 6 cards dealt, deck[6] burned
    assert dealer.hand.up_cards(2)[1] == deck[8]
    assert dealer.hand.burns == (deck[6],)


def test_r_deal_4_fourth_to_sixth_face_up_and_the_river_face_down() -> None:
    """R-DEAL-4: four up cards by sixth street; the river is a down card only its owner sees."""
    dealer = Dealer(THREE, players=3)
    dealer.passive_to_street(7)
    assert len(dealer.hand.up_cards(1)) == 4
    river = [e for e in dealer.events if e.kind == "down_cards" and e.payload["street"] == 7]
    assert {e.visible_to for e in river} == {1, 2, 3}
    public_river = dealer.said("cards_dealt")[-1]
    assert public_river["street"] == 7
    assert all(s["up"] == [] and s["down_count"] == 1 for s in public_river["seats"])  # type: ignore[attr-defined,index]
    assert len(dealer.hand.down_cards(1)) == 3


def test_r_deal_5_eight_players_to_the_river_share_a_community_card() -> None:
    """R-DEAL-5: 8 x 6 cards + 4 burns = 52: the river is one community card for all."""
    deck = list(range(52))
    random.Random(8).shuffle(deck)
    dealer = Dealer(deck, players=8)
    dealer.passive_to_end()
    hand = dealer.hand
    assert hand.community_card is not None
    assert dealer.said("community_card") == [{"card": hand.community_card}]
    assert all(len(hand.cards(s)) == 6 for s in hand.seats)
    dealt = [c for s in hand.seats for c in hand.cards(s)] + [hand.community_card]
    assert len(set(dealt)) == 49


def test_r_deal_5_seven_players_get_river_cards_from_the_reshuffled_burns() -> None:
    """R-DEAL-5: seven to the river leave a stub of 6 after the burn: the 4 burns and the stub
    are shuffled together and each player gets a down card from them."""
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    dealer = Dealer(deck, players=7)
    dealer.passive_to_end()
    hand = dealer.hand
    assert hand.community_card is None and hand.reshuffled
    assert dealer.said("reshuffle") == [{"cards": 10}]
    rivers = {hand.cards(s)[6] for s in hand.seats}
    assert rivers <= set(hand.burns) | set(deck[46:])  # burns and stub only
    dealt = [c for s in hand.seats for c in hand.cards(s)]
    assert len(set(dealt)) == 49


def test_r_deal_5_folded_cards_are_never_used_again() -> None:
    """R-DEAL-5: a player folded on third street; their cards are not in the reshuffle."""
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    dealer = Dealer(deck, players=8)
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bring_in")
    folder = dealer.hand.to_act
    assert folder is not None
    folded_cards = set(dealer.hand.cards(folder))
    dealer.act(folder, "fold")
    dealer.passive_to_end()
    hand = dealer.hand
    rivers = {hand.cards(s)[6] for s in hand.seats if s != folder and len(hand.cards(s)) == 7}
    assert not rivers & folded_cards
    if hand.community_card is not None:
        assert hand.community_card not in folded_cards


def test_r_deal_6_up_cards_stay_in_the_order_dealt() -> None:
    """R-DEAL-6: a player's up cards are shown in the order they came."""
    deck = stacked(["2c 3c Kd", "2d 3d Qd"], ["9s", "Ts"], ["4h", "Ah"], ["Jc", "8c"])
    dealer = Dealer(deck, players=2)
    dealer.passive_to_street(7)
    assert dealer.hand.up_cards(1) == cards("Kd 9s 4h Jc")
    assert dealer.hand.up_cards(2) == cards("Qd Ts Ah 8c")


def test_r_bring_1_lowest_door_card_by_rank_then_suit() -> None:
    """R-BRING-1: deuces of spades and of clubs showing: the deuce of clubs brings in."""
    deck = stacked(["Ah Kh 2s", "As Ks 2c", "Qh Qs 3c"])
    dealer = Dealer(deck, players=3)
    assert dealer.hand.bring_in_seat == 2
    assert dealer.said("bring_in_due") == [{"seat": 2, "door_card": card("2c")}]


def test_r_bring_1_the_ace_is_high_for_the_bring_in_in_stud8_too() -> None:
    """R-BRING-1: an ace and a trey showing in stud8: the trey brings in."""
    from stud import Game

    deck = stacked(["2h 4h Ac", "5s 6s 3d"])
    dealer = Dealer(deck, players=2, table=config(Game.STUD8))
    assert dealer.hand.bring_in_seat == 2


def test_r_bring_2_the_bring_in_may_post_or_complete_but_not_fold() -> None:
    """R-BRING-2: the low card is offered the 25 bring-in or the 100 completion, no fold."""
    dealer = Dealer(THREE, players=3)
    assert dealer.hand.to_act == 2
    assert dealer.kinds(2) == {"bring_in": [25], "complete": [100]}


def test_r_bring_3_action_goes_left_of_the_bring_in_and_completing_is_the_bet() -> None:
    """R-BRING-3: after the bring-in, seat 3 may fold, call 25 or complete to 100; after the
    completion, raises are of the small bet."""
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    assert dealer.hand.to_act == 3
    assert dealer.kinds(3) == {"fold": [0], "call": [25], "complete": [100]}
    dealer.act(3, "complete", 100)
    assert dealer.kinds(1) == {"fold": [0], "call": [100], "raise": [200]}


def test_r_bring_4_a_short_bring_in_posts_what_they_have() -> None:
    """R-BRING-4: the bring-in has 15 behind after the ante: they post 15 and are all-in."""
    dealer = Dealer(THREE, [1000, 25, 1000])
    assert dealer.kinds(2) == {"bring_in": [15]}
    dealer.act(2, "bring_in")
    assert dealer.hand.status_of(2) == "all_in"
    assert dealer.kinds(3) == {"fold": [0], "call": [15], "complete": [100]}


def test_r_bring_4_the_bring_in_skips_a_player_all_in_from_the_ante() -> None:
    """R-BRING-4: the lowest door (seat 3's deuce) is all-in from the ante: the next-lowest
    door among players with chips brings in."""
    deck = stacked(["Ah Kh 5d", "As Ks 4c", "3h 3s 2c"])
    dealer = Dealer(deck, [1000, 1000, 10])
    assert dealer.hand.status_of(3) == "all_in"
    assert dealer.hand.bring_in_seat == 2


def test_r_bring_2_a_fold_from_the_bring_in_is_refused_and_changes_nothing() -> None:
    """R-BRING-2: fold is offered at every other turn, even with a free check, but not to the
    player who owes the bring-in; sending one is refused and the hand is unchanged."""
    dealer = Dealer(THREE, players=3)
    before = dealer.hand.to_json()
    with pytest.raises(IllegalAction, match="may not fold"):
        dealer.hand.apply(Action(2, ActionKind.FOLD))
    assert dealer.hand.to_json() == before
    dealer.act(2, "bring_in")
    assert "fold" in dealer.kinds(3)
