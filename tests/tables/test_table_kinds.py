"""A table's kind answers, in one place, how a cash table and a tournament's table differ
(tables/kinds.py): who sits, who is dealt in, who schedules the next deal, the
rake, the first button, chips or money, the "I'm in" prompt."""

from __future__ import annotations

from tables.kinds import CASH, TOURNAMENT, table_kind
from tables.models import Table
from tables.services.scheduling import TOURNAMENT_TABLE_BETWEEN_HANDS


def test_a_table_is_cash_unless_a_tournament_opened_it():
    assert table_kind(Table(is_tournament=False)) is CASH
    assert table_kind(Table(is_tournament=True)) is TOURNAMENT


def test_r_buy_1_at_a_cash_table_players_take_leave_and_buy_chips_themselves():
    assert CASH.players_take_seats
    assert CASH.chips_are_money  # cashed out to the balance, counted by audit_chips
    assert CASH.seats_refusal == ""


def test_r_tour_2_a_tournament_table_refuses_players_seats_and_waiting_list():
    assert not TOURNAMENT.players_take_seats
    assert "the tournament draws and moves the seats" in TOURNAMENT.seats_refusal
    assert TOURNAMENT.waiting_list_refusal == "A tournament table has no waiting list."
    assert not TOURNAMENT.chips_are_money  # tournament chips, shown as chips


def test_r_ante_1_a_cash_table_deals_in_those_in_and_asks_for_im_in():
    assert not CASH.deals_in_everyone_with_chips
    assert CASH.asks_im_in


def test_a_tournament_table_deals_in_everyone_with_chips_and_asks_nobody():
    assert TOURNAMENT.deals_in_everyone_with_chips
    assert not TOURNAMENT.asks_im_in


def test_r_game_3_a_cash_table_schedules_its_own_next_hand():
    assert CASH.between_hands_task is None


def test_a_tournament_tables_next_deal_is_the_tournaments_step_by_name():
    assert TOURNAMENT.between_hands_task == TOURNAMENT_TABLE_BETWEEN_HANDS
    assert TOURNAMENT.between_hands_task == "tournaments.tasks.table_between_hands"


def test_r_tour_1_a_tournament_tables_deal_is_told_to_the_tournament_by_name():
    """Issue #21 (9): the deal that closes the add-on changes nothing else the tournament's
    pages hear of; a cash table's deal is nobody's business but the table's."""
    assert CASH.dealt_task is None
    assert TOURNAMENT.dealt_task == "tournaments.tasks.table_hand_dealt"


def test_r_rake_3_a_tournament_table_is_not_raked():
    assert CASH.raked
    assert not TOURNAMENT.raked


def test_r_deal_1_and_r_tour_2_the_first_hands_button():
    dealt = [2, 4, 7]
    assert CASH.first_button(dealt) == 7  # the lowest seat is dealt first
    assert TOURNAMENT.first_button(dealt) == 2  # the draw's first seat gets the button
