"""R-TOUR-9 payouts as arithmetic (stud/payouts.py): places paid, odd cents, ties."""

from __future__ import annotations

import pytest

from stud.payouts import (
    default_percentages,
    percentages_error,
    prize_pool,
    prizes_by_place,
    prizes_by_player,
)


@pytest.mark.parametrize(
    ("entrants", "percentages"),
    [
        (2, (100,)),
        (4, (100,)),
        (5, (65, 35)),
        (7, (65, 35)),
        (8, (50, 30, 20)),
        (12, (50, 30, 20)),
        (13, (40, 27, 20, 13)),
        (16, (40, 27, 20, 13)),
    ],
)
def test_r_tour_9_places_paid_by_entrants(entrants: int, percentages: tuple[int, ...]) -> None:
    assert default_percentages(entrants) == percentages


def test_r_tour_9_the_pool_is_every_buy_in_and_add_on() -> None:
    assert prize_pool(buy_in=4000, entrants=16, add_on_price=1500, add_ons=9) == 77_500


def test_r_tour_9_cents_left_by_rounding_go_to_first_place() -> None:
    # 13 entrants, $40 each and one $15 add-on: 53_500c; 40/27/20/13 -> 21400, 14445,
    # 10700, 6955: exact. One cent more and first place takes it.
    assert prizes_by_place(pool=53_500, entrants=13) == (21_400, 14_445, 10_700, 6_955)
    assert prizes_by_place(pool=53_501, entrants=13) == (21_401, 14_445, 10_700, 6_955)
    # 5 entrants, 20_001c: 65% = 13000.65 -> 13000, 35% = 7000.35 -> 7000, 1 cent to first.
    assert prizes_by_place(pool=20_001, entrants=5) == (13_001, 7_000)


def test_r_tour_9_tied_players_split_the_prizes_of_the_places_they_share() -> None:
    # 8 entrants, pool 32_000: 16000 / 9600 / 6400. Two tie for 2nd (R-TOUR-7): they share
    # 2nd's and 3rd's prizes, 8000 each; the next player is 4th and gets nothing.
    prizes = prizes_by_player(
        pool=32_000, places={"ann": 1, "bob": 2, "cy": 2, "dee": 4, "ed": 5, "f": 6, "g": 7, "h": 8}
    )
    assert prizes == {
        "ann": 16_000,
        "bob": 8_000,
        "cy": 8_000,
        "dee": 0,
        "ed": 0,
        "f": 0,
        "g": 0,
        "h": 0,
    }


def test_r_tour_9_a_split_that_is_not_even_gives_its_odd_cent_to_first() -> None:
    # 8 entrants, pool 32_001: 16000 (+1) / 9600 / 6400; three tie for 3rd and share 6400
    # (the 3rd place prize alone, the others pay nothing): 2133 each and 1 cent to first.
    prizes = prizes_by_player(
        pool=32_001,
        places={"a": 1, "b": 2, "c": 3, "d": 3, "e": 3, "f": 6, "g": 7, "h": 8},
    )
    assert prizes["c"] == prizes["d"] == prizes["e"] == 2_133
    assert prizes["a"] == 16_001 + 1
    assert sum(prizes.values()) == 32_001


def test_staff_percentages_are_checked_and_used() -> None:
    assert percentages_error([60, 30, 10]) is None
    assert percentages_error([60, 30]) == "The payout percentages must add up to 100, not 90."
    assert percentages_error([100, 0]) == "Each payout percentage must be more than 0."
    assert prizes_by_place(pool=10_000, entrants=9, percentages=[60, 30, 10]) == (
        6_000,
        3_000,
        1_000,
    )
    # More places than players: the unplayable places' share goes to first.
    assert prizes_by_place(pool=10_000, entrants=2, percentages=[60, 30, 10]) == (7_000, 3_000)
