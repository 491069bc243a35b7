"""Celery tasks of tournaments: each thin, each calling one service (DESIGN.md "Time").

Registered under stable names: the tables send `table_between_hands` by name when a
tournament table's hand ends (tables/services/scheduling.py) and `table_hand_dealt` when one
is dealt (tables/kinds.py), and the room's one clock sweep
sends `clock_tick` for a tournament deadline (a start, a level's or a break's end) falling
before its next run (the kinds registered in tournaments/services/clock.py).
"""

from __future__ import annotations

from celery import shared_task

from tournaments.services.clock import tournament_clock_tick
from tournaments.services.entries import add_on_close_announce
from tournaments.services.play import tournament_table_between_hands


@shared_task(name="tournaments.tasks.table_between_hands")
def table_between_hands(table_id: int) -> bool:
    """A tournament table's hand ended: eliminations, moves, the level, the next deal."""
    return tournament_table_between_hands(table_id=table_id)


@shared_task(name="tournaments.tasks.table_hand_dealt")
def table_hand_dealt(table_id: int, hand_id: int) -> bool:
    """A tournament table dealt a hand: if it closed the add-on, the pages are told."""
    return add_on_close_announce(table_id=table_id, hand_id=hand_id)


@shared_task(name="tournaments.tasks.clock_tick")
def clock_tick(tournament_id: int) -> bool:
    """A deadline of the tournament's clock is due (nothing happens when it is not)."""
    return tournament_clock_tick(tournament_id=tournament_id)
