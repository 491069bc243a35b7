"""Presence that outlived its process (R-TIME-3): the sweep that clears stale counts.

A Daphne process that dies closes none of its connections: their counts stay on the seats.
Each process refreshes the seats of its open connections every few seconds
(tables/heartbeat.py), so a count nobody refreshed for tables.models.PRESENCE_STALE belongs to
a process that is gone. Seat.present(now) already shows such a seat disconnected; this sweep
(beat, every couple of seconds) writes it down and tells the table, so a crashed player shows
gone within seconds as one who closed the tab does.

The sweep does not cut a turn short: R-TIME-1 gives a disconnected player the same time as
anyone ("a reload or a short drop costs nothing"), and a server restart is such a drop, so a
player to act keeps their clock (tests/tables/test_tables_restart.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction

from tables.common import now_or
from tables.models import PRESENCE_STALE, Seat
from tables.services.change import table_change


def seats_heartbeat(
    *, seats: Iterable[tuple[int, int]], now: datetime | None = None
) -> set[tuple[int, int]]:
    """A server process's open connections say they are still there (tables/heartbeat.py,
    every HEARTBEAT_SECONDS): ``seats`` are (table_id, player_id) pairs. Refreshes last_seen
    of those still counted, in one UPDATE, nothing broadcast; returns the pairs still counted
    (a pair missing was cleared by the sweep, or the player left: its connections count
    themselves again if they still can).

    The UPDATE never waits for a row lock: a seat a table change holds (it locks the table,
    then writes its seats) is skipped this beat (`FOR UPDATE SKIP LOCKED`, in id order) and
    still named counted. Waiting would let one UPDATE over many seats, taking their locks in
    its own order, deadlock with a hand's end writing those seats, and PostgreSQL would then
    abort one of the two: the beat, or the hand. A skipped seat is refreshed next beat, well
    inside PRESENCE_STALE, and the presence sweep checks again under the table's lock."""
    pairs = set(seats)
    if not pairs:
        return set()
    # Two IN lists, not one OR of (table AND player) per pair: that query took Django 60 ms of
    # CPU to build for a process's 300 connections, every beat, holding the GIL the event
    # loop needs (docs/performance.md, "The human-pace tail: the presence heartbeat"). A
    # seat of a player named at another of these tables is dropped here.
    counted = Seat.objects.filter(
        table_id__in={table_id for table_id, _ in pairs},
        player_id__in={player_id for _, player_id in pairs},
        connections__gt=0,
    )
    rows = [
        row
        for row in counted.values_list("pk", "table_id", "player_id")
        if (row[1], row[2]) in pairs
    ]
    if rows:
        unlocked = (
            Seat.objects.filter(pk__in=[pk for pk, _, _ in rows])
            .order_by("pk")
            .select_for_update(skip_locked=True)
            .values("pk")
        )
        with transaction.atomic():
            Seat.objects.filter(pk__in=unlocked).update(last_seen=now_or(now))
    return {(table_id, player_id) for _, table_id, player_id in rows}


def presence_sweep(*, now: datetime | None = None) -> int:
    """Every seat still counted connected whose last heartbeat is PRESENCE_STALE old or
    older: no connections, disconnected, and a seats frame to its table. Returns how many
    seats it cleared."""
    now = now_or(now)
    lapsed = Seat.objects.filter(connected=True, last_seen__lte=now - PRESENCE_STALE)
    cleared = 0
    for table_id, seat_id in list(lapsed.values_list("table_id", "pk")):
        if _presence_lapse(table_id=table_id, seat_id=seat_id, now=now):
            cleared += 1
    return cleared


def _presence_lapse(*, table_id: int, seat_id: int, now: datetime) -> bool:
    """One seat, under its table's lock, if it is still stale (a heartbeat or a connect
    since the query wins: stale, nothing written); a table another holds is left to the next
    sweep (busy)."""
    with table_change(table_id, skip_locked=True) as change:
        seat = Seat.objects.filter(pk=seat_id, table=change.table).first()
        if seat is None or seat.last_seen is None or seat.present(now) or not seat.connected:
            raise change.stale(None)
        seat.connections = 0
        seat.connected = False
        seat.save(update_fields=["connections", "connected"])
        change.outbox.seats_changed = True
    return change.result.ok
