"""Rake: the RULES.md schedule as data (R-POT-5, R-RAKE-1, R-RAKE-3)."""

from __future__ import annotations

import pytest

from stud import RakeSchedule, RakeTier, seeded_rake_schedule
from stud.rake import (
    HIGH_STAKES_RAKE,
    MIDDLE_STAKES_RAKE,
    SMALL_STAKES_RAKE,
    rake_paid_shares,
    split_rake,
)
from tests.stud.conftest import Dealer, config, stacked


@pytest.mark.parametrize(
    ("pot", "players", "rake"),
    [
        (499, 2, 0),
        (500, 2, 25),
        (999, 10, 25),
        (1000, 6, 50),
        (1999, 3, 75),
        (2000, 3, 100),
        (5000, 8, 100),  # capped at $1
    ],
)
def test_r_rake_1_small_stakes_quarter_per_full_five_dollars(
    pot: int, players: int, rake: int
) -> None:
    """$0.50/$1, $1/$2: $0.25 per full $5 of pot, at most $1, for 2-10 players."""
    assert SMALL_STAKES_RAKE.rake_for(pot, players) == rake


@pytest.mark.parametrize(
    ("pot", "players", "rake"),
    [
        (1999, 2, 0),
        (2000, 3, 100),
        (9000, 3, 100),
        (3999, 4, 100),
        (4000, 5, 200),
        (9000, 5, 200),
        (2000, 6, 100),
        (4000, 7, 200),
        (6000, 8, 300),
        (99999, 8, 300),
    ],
)
def test_r_rake_1_middle_stakes_a_dollar_at_each_threshold(
    pot: int, players: int, rake: int
) -> None:
    """$2/$4 to $10/$20: $1 at $20 (2-3), $1 more at $40 (4-5), and at $60 (6+)."""
    assert MIDDLE_STAKES_RAKE.rake_for(pot, players) == rake


@pytest.mark.parametrize(
    ("pot", "players", "rake"),
    [
        (3999, 2, 0),
        (4000, 3, 100),
        (6999, 4, 100),
        (7000, 5, 200),
        (7000, 6, 200),
        (9999, 6, 200),
        (10000, 6, 300),
    ],
)
def test_r_rake_1_high_stakes_a_dollar_at_forty_seventy_and_a_hundred(
    pot: int, players: int, rake: int
) -> None:
    """$15/$30, $20/$40: $1 at $40 (2-3); $1 more at $70 (4-5); $1 at $40, $70, $100 (6+)."""
    assert HIGH_STAKES_RAKE.rake_for(pot, players) == rake


def test_r_rake_3_seeded_schedules_by_stakes_and_none_outside() -> None:
    """R-RAKE-3: stakes outside the seeded ranges are not raked."""
    assert seeded_rake_schedule(100, 200) is SMALL_STAKES_RAKE
    assert seeded_rake_schedule(500, 1000) is MIDDLE_STAKES_RAKE
    assert seeded_rake_schedule(2000, 4000) is HIGH_STAKES_RAKE
    assert seeded_rake_schedule(25, 50) is None
    assert seeded_rake_schedule(5000, 10000) is None


def test_rake_schedule_round_trips_through_json() -> None:
    for schedule in (SMALL_STAKES_RAKE, MIDDLE_STAKES_RAKE, HIGH_STAKES_RAKE):
        assert RakeSchedule.from_json(schedule.to_json()) == schedule


def test_a_rake_tier_must_say_how_it_takes() -> None:
    with pytest.raises(ValueError):
        RakeTier(2, 3, cap=100, amount=100)
    with pytest.raises(ValueError):
        RakeTier(2, 3, cap=100, amount=100, every=500, thresholds=(2000,))


def test_r_pot_5_split_rake_in_proportion_with_the_odd_cent_from_the_main_pot() -> None:
    assert split_rake(73, [335, 400]) == [34, 39]
    assert split_rake(0, [335, 400]) == [0, 0]
    assert sum(split_rake(300, [1, 5000, 5000])) == 300


# Heads-up at $1/$2 (small stakes rake). Seat 1's 5h brings in.
HEADS_UP = stacked(["2c 3c 5h", "2d 3d 9s"], ["Kc", "9h"], ["4s", "7s"], ["Jd", "Td"])


def test_r_rake_1_the_pot_measured_is_after_the_uncalled_bet_is_returned() -> None:
    """R-RAKE-1: seat 2 bets 200 into 420 on fifth and seat 1 folds: the 200 comes back, so
    the pot measured is 420 (under $5: no rake), not 620."""
    table = config(rake=SMALL_STAKES_RAKE)
    dealer = Dealer(HEADS_UP, players=2, table=table)
    dealer.act(1, "complete", 100)
    dealer.act(2, "raise", 200)
    dealer.act(1, "call")
    dealer.passive_to_street(5)
    assert dealer.hand.pot == 420
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "check")
    dealer.act(3 - first, "bet", 200)
    dealer.act(first, "fold")
    result = dealer.hand.result
    assert result is not None
    assert result.uncalled == ((3 - first, 200),)
    assert result.pots[0].amount == 420
    assert result.rake == 0


def test_r_rake_1_a_hand_won_without_showdown_is_raked_the_same() -> None:
    """R-RAKE-1: a 620 pot won when the other folds on fifth street: 25 raked, the winner
    gets 595 and the uncalled 200 back."""
    dealer = Dealer(HEADS_UP, players=2, table=config(rake=SMALL_STAKES_RAKE))
    dealer.act(1, "complete", 100)
    dealer.act(2, "raise", 200)
    dealer.act(1, "call")
    dealer.act(2, "bet", 100)  # fourth street: seat 2's pair of nines acts first
    dealer.act(1, "call")
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bet", 200)
    dealer.act(3 - first, "fold")
    result = dealer.hand.result
    assert result is not None and not result.showdown
    assert (result.pots[0].amount, result.rake) == (620, 25)
    assert result.stack(first) == 1000 - 310 + 620 - 25


def test_r_rake_1_players_counted_are_those_dealt_in() -> None:
    """R-RAKE-1: the tier is chosen by players dealt in, even if most fold at once: four
    dealt in at $2/$4 rake $2 on a $40 pot."""
    assert MIDDLE_STAKES_RAKE.rake_for(4000, 4) == 200
    assert MIDDLE_STAKES_RAKE.rake_for(4000, 3) == 100


def test_issue_26_the_rake_paid_is_split_by_the_chips_each_put_in():
    """$1 of rake from a pot of $10.10, $10.10 and $4.10 put in: 41.56c, 41.56c and 16.87c;
    the two cents left go to the largest remainders (16.87c's, then the first 41.56c's)."""
    assert rake_paid_shares(100, [1010, 1010, 410]) == [42, 41, 17]
    assert rake_paid_shares(0, [500, 500]) == [0, 0]
    assert rake_paid_shares(25, [10, 0, 490]) == [1, 0, 24]  # 0.5c and 24.5c: a tie, the first
