"""The tournament's rules as plain Python (stud/tournament.py): the structure, the draw, who
moves, when tables merge, the order of eliminations, the end of an equal-deals level."""

from __future__ import annotations

import random

import pytest

from stud.tournament import (
    DEFAULT_STRUCTURE,
    TURBO_STRUCTURE,
    Bust,
    balancing_mover,
    button_after,
    equal_deals_level_over,
    finishing_places,
    level_spec,
    moves_to_balance,
    position_from_button,
    seat_draw,
    tables_merge,
)


def test_r_tour_8_the_default_structure_is_the_rooms_table():
    rows = [
        (level.number, level.ante, level.bring_in, level.small_bet, level.big_bet)
        for level in DEFAULT_STRUCTURE
    ]
    assert rows == [
        (1, 5, 5, 10, 20),
        (2, 5, 10, 20, 40),
        (3, 25, 10, 25, 50),
        (4, 10, 15, 30, 60),
        (5, 10, 25, 50, 100),
        (6, 15, 25, 60, 120),
        (7, 25, 50, 100, 200),
        (8, 25, 50, 150, 300),
        (9, 50, 75, 200, 400),
        (10, 50, 100, 300, 600),
        (11, 75, 150, 400, 800),
        (12, 100, 200, 600, 1200),
    ]
    assert all(level.minutes == 15 for level in DEFAULT_STRUCTURE)
    third = DEFAULT_STRUCTURE[2]
    assert third.dealer_only_ante and third.equal_deals
    assert [level.number for level in DEFAULT_STRUCTURE if level.break_minutes] == [5, 9]
    assert {level.break_minutes for level in DEFAULT_STRUCTURE if level.break_minutes} == {10}


def test_r_tour_8_the_turbo_preset_has_the_same_levels_at_3_minutes_and_1_minute_breaks():
    for default, turbo in zip(DEFAULT_STRUCTURE, TURBO_STRUCTURE, strict=True):
        assert (turbo.ante, turbo.bring_in, turbo.small_bet, turbo.big_bet) == (
            default.ante,
            default.bring_in,
            default.small_bet,
            default.big_bet,
        )
        assert turbo.minutes == 3
        assert turbo.break_minutes == (1 if default.break_minutes else 0)


def test_r_tour_8_each_level_after_12_doubles_ante_bring_in_and_bets():
    thirteen = level_spec(DEFAULT_STRUCTURE, 13)
    fourteen = level_spec(DEFAULT_STRUCTURE, 14)
    assert (thirteen.ante, thirteen.bring_in, thirteen.small_bet, thirteen.big_bet) == (
        200,
        400,
        1200,
        2400,
    )
    assert (fourteen.ante, fourteen.bring_in, fourteen.small_bet, fourteen.big_bet) == (
        400,
        800,
        2400,
        4800,
    )
    assert fourteen.minutes == 15 and fourteen.break_minutes == 0


def test_r_tour_2_up_to_seven_players_sit_at_one_table_from_seat_1():
    [table] = seat_draw([11, 12, 13, 14, 15, 16, 17], random.Random(3))
    assert sorted(table) == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(table.values()) == [11, 12, 13, 14, 15, 16, 17]


@pytest.mark.parametrize(("players", "sizes"), [(8, [4, 4]), (9, [5, 4]), (16, [8, 8])])
def test_r_tour_2_more_than_seven_start_on_two_balanced_tables(players, sizes):
    tables = seat_draw(list(range(players)), random.Random(5))
    assert [len(table) for table in tables] == sizes
    assert all(sorted(table) == list(range(1, len(table) + 1)) for table in tables)
    assert sorted(p for table in tables for p in table.values()) == list(range(players))


def test_r_tour_2_the_draw_is_random():
    draws = {
        tuple(seat_draw(list(range(8)), random.Random(seed))[0].values()) for seed in range(20)
    }
    assert len(draws) > 10


def test_r_deal_1_the_button_moves_to_the_next_occupied_seat_and_seat_1_deals_first():
    assert button_after(None, [3, 1, 5]) == 1
    assert button_after(1, [1, 3, 5]) == 3
    assert button_after(5, [1, 3, 5]) == 1
    assert button_after(2, [1, 3, 5]) == 3  # the last button's seat is empty now


def test_position_is_counted_clockwise_from_the_button_among_occupied_seats():
    assert position_from_button(2, 2, [1, 2, 3, 4]) == 0
    assert position_from_button(2, 3, [1, 2, 3, 4]) == 1
    assert position_from_button(3, 1, [1, 3, 6]) == 2


def test_r_tour_3_the_mover_sits_where_the_eliminated_seat_sits_relative_to_the_button():
    # Short table: seats 1, 2, 4 left, seat 3 emptied; its last button was seat 1, so on the
    # next hand seat 2 deals and the empty seat 3 is first to its left (position 1).
    # Long table: seats 1..5, last button 4: seat 5 deals next, so seat 1 is first to its left.
    mover = balancing_mover(
        empty_seat=3,
        short_last_button=1,
        short_occupied=[1, 2, 4],
        long_last_button=4,
        long_occupied=[1, 2, 3, 4, 5],
    )
    assert mover == 1


def test_r_tour_3_the_mover_takes_the_deal_when_the_empty_seat_deals_next():
    # The empty seat 2 comes right after the last button (seat 1): it deals next (position
    # 0), so the long table's next dealer moves: its last button was 2, so seat 3.
    mover = balancing_mover(
        empty_seat=2,
        short_last_button=1,
        short_occupied=[1, 3, 4],
        long_last_button=2,
        long_occupied=[1, 2, 3, 4, 5, 6],
    )
    assert mover == 3


@pytest.mark.parametrize(
    ("first", "second", "moves"), [(4, 4, 0), (5, 4, 0), (5, 3, 1), (6, 3, 1), (7, 3, 2)]
)
def test_r_tour_3_players_move_only_when_the_tables_differ_by_more_than_one(first, second, moves):
    assert moves_to_balance(first, second) == moves


def test_r_tour_4_two_tables_merge_at_seven_players_left():
    assert not tables_merge(8, 2)
    assert tables_merge(7, 2)
    assert not tables_merge(7, 1)


def test_r_tour_7_players_out_together_place_by_chips_at_the_start_of_the_hand():
    places = finishing_places([Bust(1, 300), Bust(2, 100), Bust(3, 200)], players_left=10)
    assert places == {2: 10, 3: 9, 1: 8}


def test_r_tour_7_equal_chips_tie_and_share_the_best_of_their_places():
    places = finishing_places([Bust(1, 5), Bust(2, 5), Bust(3, 10)], players_left=10)
    assert places == {1: 9, 2: 9, 3: 8}


def test_r_tour_7_someone_must_be_left():
    with pytest.raises(ValueError):
        finishing_places([Bust(1, 5), Bust(2, 5)], players_left=2)


def test_r_tour_6_an_equal_deals_level_ends_when_everyone_has_dealt_the_same():
    assert not equal_deals_level_over(deals=[1, 1, 0], hands_since_timer=1, players=3)
    assert equal_deals_level_over(deals=[1, 1, 1], hands_since_timer=1, players=3)
    # a player moved in with another count: one more orbit at most
    assert equal_deals_level_over(deals=[2, 1, 0], hands_since_timer=3, players=3)
