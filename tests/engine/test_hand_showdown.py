"""Showdown: R-SHOW-1..4."""

from __future__ import annotations

import random

from tests.engine.conftest import Dealer, cards, stacked

# Three players check it down. Seat 1: two pair, aces and kings. Seat 2: a flush in hearts
# made with its river card. Seat 3: a pair of fives.
CHECK_DOWN = stacked(
    ["Ac Kc 9d", "2h 4h Ts", "5c 5d Js"],
    ["Ad", "6h", "3s"],
    ["Kd", "8h", "7s"],
    ["2c", "Qs", "Jd"],
    ["3d", "Th", "9c"],
)


def test_r_show_1_cards_speak_the_best_five_of_seven() -> None:
    """R-SHOW-1: seat 2's river heart makes a flush from its seven cards; it wins, and the
    hand it is credited with is that flush."""
    dealer = Dealer(CHECK_DOWN, players=3)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (pot,) = result.pots
    (award,) = pot.awards
    assert award.seat == 2
    assert award.hand == "a flush, Ten high"
    assert set(award.five) == set(cards("Th 8h 6h 4h 2h"))


def test_r_show_1_a_community_card_is_every_players_seventh_card() -> None:
    """R-SHOW-1 with R-DEAL-5: eight players to the river all play the community card."""
    deck = list(range(52))
    random.Random(11).shuffle(deck)
    dealer = Dealer(deck, players=8, auto_muck=False)
    dealer.passive_to_end()
    hand = dealer.hand
    result = hand.result
    assert result is not None and hand.community_card is not None
    shown = dict(result.shown)
    assert all(len(shown[s]) == 6 for s in hand.seats)
    (show,) = [p for p in dealer.said("show") if p["seat"] == result.winners[0]]
    assert show["cards"] == list(shown[result.winners[0]])


def test_r_show_2_the_last_river_bettor_shows_first_then_clockwise() -> None:
    """R-SHOW-2: seat 3 (jacks showing) checks the river, seat 1 bets and is called: seat 1
    shows first, then 2, then 3."""
    dealer = Dealer(CHECK_DOWN, players=3, auto_muck=False)
    dealer.passive_to_street(7)
    dealer.act(3, "check")
    dealer.act(1, "bet", 200)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    assert result.show_order == (1, 2, 3)
    assert [p["seat"] for p in dealer.said("show")] == [1, 2, 3]


def test_r_show_2_without_a_river_bet_the_first_to_act_shows_first() -> None:
    """R-SHOW-2: everyone checks the river: the first to act on it shows first."""
    dealer = Dealer(CHECK_DOWN, players=3, auto_muck=False)
    dealer.passive_to_street(7)
    first = dealer.hand.to_act
    assert first == 3  # a pair of jacks showing on sixth street
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and result.show_order == (3, 1, 2)


def test_r_show_3_losing_hands_are_mucked_with_auto_muck_and_winners_always_show() -> None:
    """R-SHOW-3: with auto-muck on, seats 1 and 3 cannot win and muck; seat 2 shows."""
    dealer = Dealer(CHECK_DOWN, players=3, auto_muck=True)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    assert [s for s, _ in result.shown] == [2]
    assert [s for s, _ in result.mucked] == [3, 1]
    assert dealer.said("muck") == [{"seat": 3}, {"seat": 1}]
    assert dict(result.mucked)[1] == dealer.hand.cards(1)


def test_r_show_3_a_player_without_auto_muck_shows_a_losing_hand() -> None:
    """R-SHOW-3: auto-muck off: every hand at the showdown is shown."""
    dealer = Dealer(CHECK_DOWN, players=3, auto_muck=False)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and [s for s, _ in result.shown] == [3, 1, 2]


def test_r_show_3_a_winner_without_a_call_need_not_show() -> None:
    """R-SHOW-3: seat 1 bets fifth street and both fold: no showdown, nothing shown."""
    dealer = Dealer(CHECK_DOWN, players=3)
    dealer.passive_to_street(5)
    seat = dealer.hand.to_act
    assert seat == 1
    dealer.act(1, "bet", 200)
    dealer.act(2, "fold")
    dealer.act(3, "fold")
    result = dealer.hand.result
    assert result is not None
    assert not result.showdown and result.shown == () and result.show_order == ()
    assert dealer.said("show") == []


def test_r_show_4_an_uncalled_bet_goes_back_before_the_pot_is_settled() -> None:
    """R-SHOW-4: seat 1's 200 is not called: it comes back, and the pot won is what was
    there before it (3 antes + 3 x 25)."""
    dealer = Dealer(CHECK_DOWN, players=3)
    dealer.passive_to_street(5)
    dealer.act(1, "bet", 200)
    dealer.act(2, "fold")
    dealer.act(3, "fold")
    result = dealer.hand.result
    assert result is not None
    assert result.uncalled == ((1, 200),)
    assert dealer.said("uncalled_bet_returned") == [{"seat": 1, "amount": 200}]
    (pot,) = result.pots
    assert pot.amount == 3 * 35
    assert result.stack(1) == 1000 - 35 + 3 * 35
    kinds = [e.kind for e in dealer.events]
    assert kinds.index("uncalled_bet_returned") < kinds.index("pot_awarded")


def test_r_show_4_the_uncalled_part_of_a_bet_comes_back() -> None:
    """R-SHOW-4: seat 2 calls seat 1's 200 bet all-in for 150: 50 comes back to seat 1."""
    dealer = Dealer(CHECK_DOWN, [1000, 150 + 35, 1000])
    dealer.passive_to_street(5)
    dealer.act(1, "bet", 200)
    dealer.act(2, "call")
    dealer.act(3, "fold")
    assert dealer.said("uncalled_bet_returned") == [{"seat": 1, "amount": 50}]
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and result.uncalled == ((1, 50),)
    (pot,) = result.pots
    assert (pot.amount, pot.eligible) == (3 * 35 + 150 + 150, (1, 2))
