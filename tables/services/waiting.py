"""The waiting list of a full table: join, leave, and an offer that lapses to the next."""

from __future__ import annotations

from datetime import datetime

from accounts.models import Player
from tables.common import now_or
from tables.kinds import table_kind
from tables.models import Seat, WaitingListEntry
from tables.services.change import TableChange, table_change
from tables.services.flow import (
    DUE_TOLERANCE,
    free_seat_count,
    waiting_list_offer_seats,
)
from tables.services.results import Refusal, TableResult, refused


def _waiting_list_remove(change: TableChange, entry: WaitingListEntry, now: datetime) -> None:
    """Off the list; the seats free for the list are offered again (the next in line)."""
    entry.delete()
    change.outbox.waiting_changed = True
    waiting_list_offer_seats(table=change.table, outbox=change.outbox, now=now)


def waiting_list_join(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    now = now_or(now)
    with table_change(table_id) as change:
        table = change.table
        kind = table_kind(table)
        if not kind.players_take_seats:
            raise change.refuse(Refusal.TOURNAMENT_TABLE, kind.waiting_list_refusal)
        if Seat.objects.filter(table=table, player=player).exists():
            raise change.refuse(Refusal.ALREADY_SEATED, "You already have a seat here.")
        if WaitingListEntry.objects.filter(table=table, player=player).exists():
            raise change.refuse(Refusal.ALREADY_WAITING, "You are already on the waiting list.")
        free = free_seat_count(table)
        if free > WaitingListEntry.objects.filter(table=table, offered_until__gt=now).count():
            raise change.refuse(Refusal.SEATS_FREE, "A seat is free: take it.")
        WaitingListEntry.objects.create(table=table, player=player)
        change.outbox.waiting_changed = True
        waiting_list_offer_seats(table=table, outbox=change.outbox, now=now)
    return change.result


def waiting_list_leave(
    *, table_id: int, player: Player, now: datetime | None = None
) -> TableResult:
    now = now_or(now)
    with table_change(table_id) as change:
        entry = WaitingListEntry.objects.filter(table=change.table, player=player).first()
        if entry is None:
            raise change.refuse(Refusal.NOT_WAITING, "You are not on the waiting list.")
        _waiting_list_remove(change, entry, now)
    return change.result


def waiting_list_offer_expire(
    *, entry_id: int, now: datetime | None = None, skip_locked: bool = False
) -> TableResult:
    """The offered player did not sit in time: they leave the list, the next is offered.
    `skip_locked`: the sweep leaves a table another process is working on."""
    now = now_or(now)
    table_id = (
        WaitingListEntry.objects.filter(pk=entry_id).values_list("table_id", flat=True).first()
    )
    if table_id is None:
        return refused(0, Refusal.NOT_FOUND, "No such waiting-list entry (seated or gone).")
    with table_change(table_id, skip_locked=skip_locked) as change:
        entry = WaitingListEntry.objects.filter(pk=entry_id).first()
        if entry is None:
            raise change.refuse(Refusal.NOT_FOUND, "No such waiting-list entry (seated or gone).")
        if entry.offered_until is None or entry.offered_until > now + DUE_TOLERANCE:
            raise change.refuse(Refusal.NOT_DUE, "The offer has not lapsed.")
        _waiting_list_remove(change, entry, now)
    return change.result
