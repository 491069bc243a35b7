"""The waiting list of a full table: join, leave, and an offer that lapses to the next."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import Player
from tables.models import Seat, WaitingListEntry
from tables.services.flow import (
    DUE_TOLERANCE,
    current_hand,
    free_seat_count,
    lock_table,
    now_or,
    offer_free_seats,
)
from tables.services.outbox import Outbox
from tables.services.results import TableResult, refused


def waiting_list_join(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    now = now_or(now)
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        if Seat.objects.filter(table=table, player=player).exists():
            return refused(table_id, "already_seated", "You already have a seat here.")
        if WaitingListEntry.objects.filter(table=table, player=player).exists():
            return refused(table_id, "already_waiting", "You are already on the waiting list.")
        free = free_seat_count(table)
        if free > WaitingListEntry.objects.filter(table=table, offered_until__gt=now).count():
            return refused(table_id, "seats_free", "A seat is free: take it.")
        WaitingListEntry.objects.create(table=table, player=player)
        outbox = Outbox(table)
        outbox.waiting_changed = True
        offer_free_seats(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))


def waiting_list_leave(
    *, table_id: int, player: Player, now: datetime | None = None
) -> TableResult:
    now = now_or(now)
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        entry = WaitingListEntry.objects.filter(table=table, player=player).first()
        if entry is None:
            return refused(table_id, "not_waiting", "You are not on the waiting list.")
        entry.delete()
        outbox = Outbox(table)
        outbox.waiting_changed = True
        offer_free_seats(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))


def waiting_list_offer_expire(*, entry_id: int, now: datetime | None = None) -> TableResult:
    """The offered player did not sit in time: they leave the list, the next is offered."""
    now = now_or(now)
    table_id = (
        WaitingListEntry.objects.filter(pk=entry_id).values_list("table_id", flat=True).first()
    )
    if table_id is None:
        return refused(0, "not_found", "No such waiting-list entry (seated or gone).")
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        entry = WaitingListEntry.objects.filter(pk=entry_id).first()
        if entry is None:
            return refused(table_id, "not_found", "No such waiting-list entry (seated or gone).")
        if entry.offered_until is None or entry.offered_until > now + DUE_TOLERANCE:
            return refused(table_id, "not_due", "The offer has not lapsed.")
        entry.delete()
        outbox = Outbox(table)
        outbox.waiting_changed = True
        offer_free_seats(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))
