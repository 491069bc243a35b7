"""Pots and splits: R-POT-1..5, R-HILO-1..4."""

from __future__ import annotations

from stud import Game, OddChip, RakeSchedule, RakeTier
from stud.pots import build_pots, split_evenly
from tests.stud.conftest import Dealer, config, stacked

# Three players, seats 1-3 (button 3). Seat 2's Qc brings in; seat 3 folds; seat 1 calls.
# Seats 1 and 2 both hold A-K-Q-J-9 in mixed suits: an exact tie. Ante 5: the pot is 65.
TIE = stacked(
    ["Ah Kh Qd", "As Ks Qc", "2c 3d Kc"],
    ["Jc", "Jd"],
    ["9d", "9s"],
    ["3c", "4d"],
    ["2d", "3h"],
)


def play_tie(odd_chip: OddChip) -> Dealer:
    dealer = Dealer(TIE, players=3, table=config(ante=5, odd_chip=odd_chip))
    dealer.act(2, "bring_in")
    dealer.act(3, "fold")
    dealer.act(1, "call")
    dealer.passive_to_end()
    return dealer


def test_r_pot_1_an_all_in_player_wins_only_what_they_matched() -> None:
    """R-POT-1: seat 3 (trip queens) is all-in for 135; seats 1 and 2 bet on into a side pot.
    Seat 3 wins the main pot; the side pot goes to the better of seats 1 and 2."""
    deck = stacked(
        ["Ah Kh 4d", "As 2s 3c", "Qh Qs 8c"],
        ["Ad", "Js", "Qc"],
        ["2h", "5s", "9d"],
        ["7c", "6c", "4h"],
        ["9c", "9h", "2d"],
    )
    dealer = Dealer(deck, [1000, 1000, 135])
    dealer.passive_to_street(5)
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bet", 200)
    dealer.passive_to_street(6)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    main, side = result.pots
    assert (main.amount, main.eligible, main.high_winners) == (3 * 135, (1, 2, 3), (3,))
    assert side.eligible == (1, 2) and side.high_winners == (1,)
    assert side.amount == 2 * (200 - 100)
    assert result.stack(3) == 3 * 135


def test_r_pot_2_a_six_high_straight_beats_the_wheel() -> None:
    """R-POT-2: A-2-3-4-5 is the lowest straight: seat 2's 2-3-4-5-6 wins."""
    deck = stacked(["Ah 2h 9c", "6s 2s Kd"], ["3c", "3d"], ["4d", "4h"], ["5s", "5c"], ["Jd", "Qc"])
    dealer = Dealer(deck, players=2)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (award,) = result.pots[0].awards
    assert award.seat == 2 and award.hand == "a straight, Deuce to Six"


def test_r_pot_3_identical_hands_split_the_pot() -> None:
    """R-POT-3: A-K-Q-J-9 twice: the 65 pot is split 33 / 32."""
    dealer = play_tie(OddChip.HIGH_CARD_BY_SUIT)
    result = dealer.hand.result
    assert result is not None
    (pot,) = result.pots
    assert pot.amount == 65
    assert sorted(a.amount for a in pot.awards) == [32, 33]
    assert all(a.hand == "high card Ace" for a in pot.awards)


def test_r_pot_4_odd_chip_to_the_highest_card_by_suit() -> None:
    """R-POT-4 high_card_by_suit: seat 2's ace of spades outranks seat 1's ace of hearts."""
    result = play_tie(OddChip.HIGH_CARD_BY_SUIT).hand.result
    assert result is not None
    assert {a.seat: a.amount for a in result.pots[0].awards} == {2: 33, 1: 32}


def test_r_pot_4_odd_chip_to_the_winner_nearest_the_buttons_left() -> None:
    """R-POT-4 left_of_button: seat 1 sits nearest the button's (seat 3's) left."""
    result = play_tie(OddChip.LEFT_OF_BUTTON).hand.result
    assert result is not None
    assert {a.seat: a.amount for a in result.pots[0].awards} == {1: 33, 2: 32}


def test_r_pot_5_rake_comes_from_each_pot_in_proportion_odd_cent_from_the_main() -> None:
    """R-POT-5: a 10% rake on a hand with a side pot: each pot gives its share, the main pot
    the odd cent, and the winners get the rest."""
    ten_percent = RakeSchedule((RakeTier(2, None, cap=10_000, amount=1, every=10),))
    deck = stacked(
        ["Ah Kh 4d", "As 2s 3c", "Qh Qs 8c"],
        ["Ad", "Js", "Qc"],
        ["2h", "5s", "9d"],
        ["7c", "6c", "4h"],
        ["9c", "9h", "2d"],
    )
    dealer = Dealer(deck, [1000, 1000, 135], table=config(rake=ten_percent))
    dealer.passive_to_street(5)
    dealer.act(dealer.hand.to_act or 0, "bet", 200)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    main, side = result.pots
    total = main.amount + side.amount  # 405 + 200 = 605
    assert result.rake == total // 10 == 60
    assert side.rake == 60 * side.amount // total  # 19 (19.8 rounded down)
    assert main.rake == 60 - side.rake  # 41: the odd cent from the main pot
    assert sum(a.amount for a in main.awards) == main.amount - main.rake
    assert sum(a.amount for a in side.awards) == side.amount - side.rake


def test_r_hilo_1_the_pot_is_split_between_best_high_and_best_low() -> None:
    """R-HILO-1: seat 1's king-high straight takes the high half, seat 2's 8-7-5-3-A the low."""
    deck = stacked(["Kc Kd 9h", "Ac 3d 5h"], ["Qs", "7s"], ["Js", "8d"], ["Tc", "Qd"], ["9c", "Jh"])
    dealer = Dealer(deck, players=2, table=config(Game.STUD8))
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (pot,) = result.pots
    assert pot.amount == 70
    halves = {(a.seat, a.half): (a.amount, a.hand) for a in pot.awards}
    assert halves == {
        (1, "high"): (35, "a straight, Nine to King"),
        (2, "low"): (35, "8,7,5,3,A"),
    }


def test_r_hilo_2_with_no_low_the_high_hand_scoops() -> None:
    """R-HILO-2: nobody has five cards eight or lower: the best high takes it all."""
    deck = stacked(["Kc Kd 9h", "Ac Qd Jh"], ["Qs", "Ts"], ["Js", "9d"], ["Tc", "Td"], ["9c", "2h"])
    dealer = Dealer(deck, players=2, table=config(Game.STUD8))
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (award,) = result.pots[0].awards
    assert (award.seat, award.amount, award.half) == (1, 70, "high")


def test_r_hilo_3_one_player_scoops_with_different_hands_for_high_and_low() -> None:
    """R-HILO-3: seat 1's A-2-3-4-5-6 makes a six-high straight for high and the wheel for
    low: both halves."""
    deck = stacked(["Ac 2d 9h", "Kc Kd Ts"], ["3s", "Qs"], ["4h", "Js"], ["5c", "Td"], ["6d", "2h"])
    dealer = Dealer(deck, players=2, table=config(Game.STUD8))
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    awards = {a.half: a for a in result.pots[0].awards}
    assert awards["high"].seat == awards["low"].seat == 1
    assert awards["high"].hand == "a straight, Deuce to Six"
    assert awards["low"].hand == "5,4,3,2,A"
    assert result.stack(1) == 1000 + 35


def test_r_hilo_3_tied_lows_are_quartered() -> None:
    """R-HILO-3: seats 1 and 2 tie for low with 7-5-4-2-A; seat 3's kings take the high
    half. Pot 3 x 35 = 105: high 53, the low 52 split 26 / 26."""
    deck = stacked(
        ["Ac 2d 9h", "Ad 2c Ts", "Kc Kd Js"],
        ["4c", "4d", "Qs"],
        ["5h", "5s", "Jd"],
        ["7c", "7d", "Qd"],
        ["Jh", "Th", "3s"],
    )
    dealer = Dealer(deck, players=3, table=config(Game.STUD8))
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    (pot,) = result.pots
    assert pot.amount == 105
    assert sorted((a.seat, a.half, a.amount) for a in pot.awards) == [
        (1, "low", 26),
        (2, "low", 26),
        (3, "high", 53),
    ]


def test_r_hilo_4_the_odd_chip_of_the_split_goes_to_the_high_half() -> None:
    """R-HILO-4: a 65 pot splits 33 high, 32 low."""
    deck = stacked(
        ["Kc Kd Qh", "Ac 3d Qc", "2c 3c Ks"],
        ["Qs", "7s"],
        ["Js", "8d"],
        ["Tc", "5h"],
        ["9c", "Jh"],
    )
    dealer = Dealer(deck, players=3, table=config(Game.STUD8, ante=5))
    dealer.act(2, "bring_in")
    dealer.act(3, "fold")
    dealer.act(1, "call")
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    halves = {a.half: (a.seat, a.amount) for a in result.pots[0].awards}
    assert halves == {"high": (1, 33), "low": (2, 32)}


def test_build_pots_layers_side_pots_by_what_each_put_in() -> None:
    """R-POT-1 arithmetic: 50 / 100 / 100 (one folded at 30): main 50x2+30, side 100."""
    pots = build_pots([[50, 100, 100, 30]], [True, True, True, False])
    assert pots == [(180, (0, 1, 2)), (100, (1, 2))]


def test_split_evenly_gives_odd_chips_in_order() -> None:
    assert split_evenly(11, [2, 0, 1]) == [(2, 4), (0, 4), (1, 3)]


def test_r_game_1_the_same_deal_is_won_whole_in_stud_and_split_in_stud_hi_lo() -> None:
    """R-GAME-1: two games, both fixed limit. Dealt the same cards and called down, seat 1's
    straight takes the whole pot in Seven Card Stud; in Stud Hi/Lo seat 2's 8-7-5-3-A low
    takes half of it."""
    deck = stacked(["Kc Kd 9h", "Ac 3d 5h"], ["Qs", "7s"], ["Js", "8d"], ["Tc", "Qd"], ["9c", "Jh"])
    for game, awards in (
        (Game.STUD, {(1, "whole"): 70}),
        (Game.STUD8, {(1, "high"): 35, (2, "low"): 35}),
    ):
        dealer = Dealer(deck, players=2, table=config(game))
        dealer.passive_to_end()
        result = dealer.hand.result
        assert result is not None
        assert {(a.seat, a.half): a.amount for a in result.pots[0].awards} == awards
