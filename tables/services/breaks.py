"""A break or self-exclusion reaches the tables (issue #26): the player is cashed out of every
cash table, each seat when the hand it is dealt into ends (never folded), a seat in no hand at
once. Tournament seats are the tournament's (its chips are not money)."""

from __future__ import annotations

from datetime import datetime

from accounts.models import Player
from tables.common import now_or
from tables.models import Seat
from tables.services.change import table_change
from tables.services.flow import on_break_cash_out, waiting_list_offer_seats
from tables.services.results import TableResult


def break_tables_leave(*, player: Player, now: datetime | None = None) -> list[TableResult]:
    """After a break is taken: at each of the player's tables, the seats not in a hand leave
    now; a seat in the hand in play stays to its end."""
    now = now_or(now)
    results = []
    for table_id in Seat.objects.filter(player=player).values_list("table_id", flat=True):
        with table_change(table_id) as change:
            on_break_cash_out(table=change.table, outbox=change.outbox, now=now, hand=change.hand)
            waiting_list_offer_seats(table=change.table, outbox=change.outbox, now=now)
        results.append(change.result)
    return results
