"""Showdown: R-SHOW-1..4."""

from __future__ import annotations

import json
import random

import pytest

from stud import Game, IllegalAction, Show, StudHand, replay, view
from stud.history_text import render_pokerstars
from tests.stud.conftest import Dealer, cards, config, stacked

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


def _won_uncalled_on_fourth() -> Dealer:
    """CHECK_DOWN three-handed to fourth street; seat 1 (aces showing) bets, both fold."""
    dealer = Dealer(CHECK_DOWN, players=3)
    dealer.passive_to_street(4)
    assert dealer.hand.to_act == 1
    dealer.act(1, "bet", 100)
    dealer.act(2, "fold")
    dealer.act(3, "fold")
    assert dealer.hand.result is not None and not dealer.hand.result.showdown
    return dealer


def test_r_show_3_the_uncalled_winner_may_show_and_everyone_sees_it() -> None:
    """R-SHOW-3: seat 1 wins without being called: nobody shows; seat 1 may choose to, once.
    The show is public, the pots and stacks stay as they were, and the log replays it."""
    dealer = _won_uncalled_on_fourth()
    hand = dealer.hand
    assert [(s, hand.may_show(s)) for s in (1, 2, 3)] == [(1, True), (2, False), (3, False)]
    shown, events = hand.show_cards(1)
    assert [(e.kind, e.visible_to) for e in events] == [("show", None)]
    assert events[0].payload == {
        "seat": 1,
        "cards": list(cards("Ac Kc 9d Ad")),
        "high": "a pair of Aces",
    }
    assert shown.result == hand.result
    assert shown.shown_by_choice == ((1, cards("Ac Kc 9d Ad")),)
    assert hand.shown_by_choice == ()  # the hand shown from is unchanged
    assert not shown.may_show(1)
    with pytest.raises(IllegalAction, match="already shown"):
        shown.show_cards(1)
    public = view(shown, None)["seats"]
    assert isinstance(public, list) and public[0]["shown"] == list(cards("Ac Kc 9d Ad"))
    assert "shown" not in public[1]
    assert shown.log[-1] == Show(1)
    assert StudHand.from_json(json.loads(json.dumps(shown.to_json()))) == shown
    assert replay(dealer.config, dealer.seats, dealer.deck, dealer.button, shown.log) == shown
    text = render_pokerstars(shown, hand_id=1, table_name="T", started_at="2024/01/01 0:00:00 ET")
    assert "P1 collected $1.05 from pot\nP1: shows [Ac Kc 9d Ad] (a pair of Aces)\n" in text
    assert "Seat 1: P1 collected ($1.05)" in text


def test_r_show_3_only_the_uncalled_winner_after_the_hand_may_show() -> None:
    """R-SHOW-3: not during the hand, not a player who folded, not a seat not dealt in, and
    not after a showdown, where the engine has shown or mucked every hand already."""
    dealer = Dealer(CHECK_DOWN, players=3)
    with pytest.raises(IllegalAction, match="only after the hand"):
        dealer.hand.show_cards(2)
    assert not dealer.hand.may_show(2)
    won = _won_uncalled_on_fourth().hand
    with pytest.raises(IllegalAction, match="folded"):
        won.show_cards(2)
    with pytest.raises(IllegalAction, match="not in this hand"):
        won.show_cards(7)
    assert not won.may_show(7)
    dealer.passive_to_end()
    assert dealer.hand.result is not None and dealer.hand.result.showdown
    assert not any(dealer.hand.may_show(s) for s in (1, 2, 3))
    with pytest.raises(IllegalAction, match="showdown"):
        dealer.hand.show_cards(2)


def test_r_show_3_a_hand_won_on_third_street_is_worded_from_three_cards() -> None:
    """R-SHOW-3 in stud8: the completer wins on third street and shows two aces and a deuce;
    the words come from three cards, and no low is possible."""
    deck = stacked(["Ac Ad 2c", "Kh Qh 3d"])
    dealer = Dealer(deck, players=2, table=config(Game.STUD8))
    assert dealer.hand.to_act == 1
    dealer.act(1, "complete", 100)
    dealer.act(2, "fold")
    _, events = dealer.hand.show_cards(1)
    assert events[0].payload["high"] == "a pair of Aces"
    assert events[0].payload["low"] == ""
