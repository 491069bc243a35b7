"""Razz hands dealt from stacked decks, told as the dealer would tell them (R-RAZZ-1..6)."""

from __future__ import annotations

from stud import Game
from stud.history_text import ALL_DOWN_CARDS, render_pokerstars
from stud.strength import hand_strength
from tests.stud.conftest import Dealer, config, stacked

RAZZ = config(Game.RAZZ)


def test_r_razz_2_the_highest_door_card_brings_in_the_king_not_the_ace() -> None:
    """R-RAZZ-2: doors Ac, 7d, Kh: the ace is low in Razz, so the king brings in."""
    dealer = Dealer(stacked(["2c 3c Ac", "2d 3d 7d", "4c 5c Kh"]), players=3, table=RAZZ)
    (due,) = dealer.said("bring_in_due")
    assert due["seat"] == 3
    assert dealer.kinds(3) == {"bring_in": [25], "complete": [100]}


def test_r_razz_2_on_equal_kings_the_king_of_spades_brings_in() -> None:
    """R-RAZZ-2: two kings showing, Kh and Ks: the higher suit, spades, brings in."""
    dealer = Dealer(stacked(["2c 3c Ks", "2d 3d Kh", "4c 5c 6d"]), players=3, table=RAZZ)
    assert dealer.said("bring_in_due")[0]["seat"] == 1


def test_r_razz_3_the_lowest_board_acts_first_on_fourth_street() -> None:
    """R-RAZZ-3: on 4th street seat 1 shows K-2, seat 2 shows 6-4, seat 3 a pair of threes:
    the lowest board (6-4) acts first; the pair counts against seat 3."""
    deck = stacked(["Ac 2c Kc", "Ad 2d 6d", "Ah 2h 3h"], ["2s", "4d", "3s"])
    dealer = Dealer(deck, players=3, table=RAZZ)
    dealer.passive_to_street(4)
    assert dealer.hand.street == 4
    assert dealer.hand.to_act == 2


def test_r_razz_3_equal_boards_the_player_nearest_the_dealers_left_acts_first() -> None:
    """R-RAZZ-3: 7-4 against 7-4 in other suits: seat 1, nearest the dealer's left, acts."""
    deck = stacked(["Ac 2c 7c", "Ad 2d 7d", "Ah 2h Kh"], ["4c", "4d", "Qs"])
    dealer = Dealer(deck, players=3, table=RAZZ)
    dealer.passive_to_street(4)
    assert dealer.hand.to_act == 1


def test_r_razz_4_an_open_pair_on_fourth_street_gives_no_big_bet() -> None:
    """R-RAZZ-4: seat 1 pairs its door on 4th street; in Stud it could bet 200, in Razz the
    bet stays the small bet, 100."""
    deck = stacked(["Ac 2c 5c", "Ad 2d Kd"], ["5d", "Qd"])
    dealer = Dealer(deck, players=2, table=RAZZ)
    dealer.passive_to_street(4)
    first = dealer.hand.to_act
    assert first is not None
    assert dealer.kinds(first)["bet"] == [100]
    assert not dealer.hand.pair_option


def test_r_razz_5_the_lowest_hand_wins_the_whole_pot_and_is_named_by_its_cards() -> None:
    """R-RAZZ-5/6: seat 1 makes 7-5-4-2-A, seat 2 a pair of kings' worth of trouble
    (K-Q-J-T-9): the 7-low takes the whole pot, and the award names "7-5-4-2-A"."""
    deck = stacked(
        ["Ac 2c 7c", "Kd Qd Jd"],
        ["4c", "Td"],
        ["5h", "9d"],
        ["Kc", "Ks"],
        ["Qc", "Kh"],
    )
    dealer = Dealer(deck, players=2, table=RAZZ)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and result.showdown
    (pot,) = result.pots
    (award,) = pot.awards
    assert award.seat == 1 and award.half == "whole" and award.hand == "7-5-4-2-A"
    shown = {p["seat"]: p for p in dealer.said("show")}
    assert shown[1]["low"] == "7-5-4-2-A"
    assert sum(stack for _, stack in result.final_stacks) == dealer.total_chips


def test_r_razz_5_identical_lows_split_and_the_odd_chip_goes_by_the_highest_card() -> None:
    """R-RAZZ-5 / R-POT-4: seats 1 and 2 both make 8-6-4-3-2, seat 3 a king-high; the pot of
    105 is split, the odd chip to the player whose highest card (the eight) is of the higher
    suit: seat 2's 8s."""
    deck = stacked(
        ["2c 3c Kc", "2d 3d Kd", "Jh Qh Ks"],
        ["4c", "4d", "Th"],
        ["6c", "6d", "9h"],
        ["8h", "8s", "Jc"],
        ["Qc", "Qs", "Jd"],
    )
    dealer = Dealer(deck, players=3, table=RAZZ)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (pot,) = result.pots
    assert pot.amount == 3 * 10 + 3 * 25
    won = {award.seat: award.amount for award in pot.awards}
    assert won == {1: 52, 2: 53}
    assert {award.hand for award in pot.awards} == {"8-6-4-3-2"}


def test_r_razz_6_the_strength_line_and_the_render_pokerstars_speak_lows() -> None:
    """R-RAZZ-6: during play seat 1's line reads its low, "7-4-2-A"; the history says
    "Razz Limit" in its header and "Lo: 7,5,4,2,A" at the showdown."""
    deck = stacked(
        ["Ac 2c 7c", "Kd Qd Jd"],
        ["4c", "Td"],
        ["5h", "9d"],
        ["Kc", "Ks"],
        ["Qc", "Kh"],
    )
    dealer = Dealer(deck, players=2, table=RAZZ)
    dealer.passive_to_street(4)
    strength = hand_strength(dealer.hand, 1)
    assert strength is not None and strength.high == "7-4-2-A" and strength.low is None
    dealer.passive_to_end()
    text = render_pokerstars(
        dealer.hand,
        hand_id=1,
        table_name="Razz",
        started_at="2026/12/02 12:00:00 ET",
        viewer=ALL_DOWN_CARDS,
    )
    assert "Razz Limit ($1/$2 USD)" in text
    assert "P1: shows [Ac 2c 7c 4c 5h Kc Qc] (Lo: 7,5,4,2,A)" in text
    assert "No low hand qualified" not in text
