"""What kind of table this is, answered in one place: a cash table or a tournament's table.

The table services ask the kind (`table_kind(table)`) instead of testing
`Table.is_tournament` where they act: who may take, leave or add chips to a seat, who is
dealt in, who schedules the next deal, whether the pot is raked, which seat deals first,
whether the chips are money, whether the table asks for "I'm in". A question about a kind of
table is a field here, so a new one (a sit-and-go's table, a private table) is one instance.

The tables know a tournament only by name: the tournament's step between hands is a task
name (TOURNAMENT_TABLE_BETWEEN_HANDS), never an import (pyproject.toml's contracts: tables do
not import tournaments). A read, not a service: the selectors ask it too, so it sits below
both (pyproject.toml's layers contract).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tables.models import Table

# A tournament table between hands: the tournament's step (tournaments/tasks.py) decides
# what happens before the next deal (issue #13).
TOURNAMENT_TABLE_BETWEEN_HANDS = "tournaments.tasks.table_between_hands"
# A hand dealt at a tournament table: the tournament tells its pages when that deal closed
# the add-on (R-TOUR-1: the first hand of its level), so the offer goes away (issue #21).
TOURNAMENT_TABLE_DEALT = "tournaments.tasks.table_hand_dealt"


@dataclass(frozen=True)
class TableKind:
    """The answers of one kind of table.

    `players_take_seats`: players take, leave, add chips and join the waiting list by
    themselves (R-BUY-1); otherwise the table refuses them (Refusal.TOURNAMENT_TABLE, with
    `seats_refusal` / `waiting_list_refusal`) and its owner places and removes the seats.
    `deals_in_everyone_with_chips`: every seat with chips is dealt in, sitting out or absent
    (they post and are timed out, R-TIME-1); otherwise only the seats in (R-SIT-1) that said
    "I'm in" or post automatically (R-GAME-3, R-ANTE-1).
    `asks_im_in`: the table asks players without auto-ante for "I'm in" (R-ANTE-1).
    `between_hands_task`: None, the table schedules its own next hand (R-GAME-3); else the
    registered name of the task its hand's end sends (with the table's id) to decide the
    next deal (a tournament's step: eliminations, moves, the level).
    `dealt_task`: None, or the registered name of the task each deal sends after its commit
    (with the table's and the hand's ids): what the table's owner does when a hand is dealt
    (a tournament's: its pages told that the add-on closed, R-TOUR-1).
    `raked`: the pot is raked by the table's schedule (R-RAKE-3: a tournament is not).
    `chips_are_money`: the chips are cents from the balance: they go back to it when the
    table closes, and `audit_chips` counts them; otherwise they are tournament chips, shown
    as chips, never as dollars.
    `first_button_on_last_seat`: the first hand's button is put on the highest seat dealt
    in, so the deal starts at the lowest (cash); otherwise on the lowest (R-TOUR-2: the
    draw's seat 1 gets the button).

    Queries that pick tables by kind in SQL (the chip audit's money on tables, the lobby's
    list) filter on `Table.is_tournament` itself (tables/selectors.py)."""

    name: str
    players_take_seats: bool
    deals_in_everyone_with_chips: bool
    asks_im_in: bool
    between_hands_task: str | None
    raked: bool
    chips_are_money: bool
    first_button_on_last_seat: bool
    seats_refusal: str = ""
    waiting_list_refusal: str = ""
    dealt_task: str | None = None

    def first_button(self, dealt: Sequence[int]) -> int:
        """The first hand's button among the seat numbers dealt in (ascending)."""
        return dealt[-1] if self.first_button_on_last_seat else dealt[0]


CASH = TableKind(
    name="cash",
    players_take_seats=True,
    deals_in_everyone_with_chips=False,
    asks_im_in=True,
    between_hands_task=None,
    raked=True,
    chips_are_money=True,
    first_button_on_last_seat=True,
)

TOURNAMENT = TableKind(
    name="tournament",
    players_take_seats=False,
    deals_in_everyone_with_chips=True,
    asks_im_in=False,
    between_hands_task=TOURNAMENT_TABLE_BETWEEN_HANDS,
    raked=False,
    chips_are_money=False,
    first_button_on_last_seat=False,
    seats_refusal=(
        "This is a tournament table: the tournament draws and moves the seats, and its chips "
        "stay at the table until you are out."
    ),
    waiting_list_refusal="A tournament table has no waiting list.",
    dealt_task=TOURNAMENT_TABLE_DEALT,
)


def table_kind(table: Table) -> TableKind:
    """The kind of `table` (`Table.is_tournament` is set once, when a tournament opens it)."""
    return TOURNAMENT if table.is_tournament else CASH
