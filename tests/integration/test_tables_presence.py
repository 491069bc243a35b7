"""Presence across processes (R-TIME-3): each open connection is counted on the seat in the
database, so two tabs served by two Daphne processes are right; a count no heartbeat has
refreshed for PRESENCE_STALE (its process died) keeps nobody "connected"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import PRESENCE_STALE, Seat
from tables.selectors import seats_public
from tests.table_factories import engine_of, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db


def _connect(table, player, *, now, connected=True):
    return services.seat_set_connected(
        table_id=table.pk, player=player, connected=connected, now=now
    )


def _shown_connected(table, player) -> bool:
    return next(s for s in seats_public(table.pk) if s["player_id"] == player.pk)["connected"]


def test_two_connections_keep_the_player_connected_until_both_close():
    table = make_table()
    alice = seated_player(table)
    now = timezone.now()
    _connect(table, alice, now=now)  # a tab on one process
    _connect(table, alice, now=now)  # another tab, another process

    closed = _connect(table, alice, now=now, connected=False)

    assert closed.ok and not closed.frames.table  # nothing changed for anyone
    assert Seat.objects.get(player=alice).connections == 1
    assert _shown_connected(table, alice)
    last = _connect(table, alice, now=now, connected=False)
    assert [f["type"] for f in last.frames.table] == ["seats"]
    assert not _shown_connected(table, alice)
    assert Seat.objects.get(player=alice).connections == 0


def test_a_count_without_a_heartbeat_is_stale_and_the_next_connect_starts_it_again():
    table = make_table()
    alice = seated_player(table)
    long_ago = timezone.now() - PRESENCE_STALE - timedelta(seconds=1)
    _connect(table, alice, now=long_ago)
    _connect(table, alice, now=long_ago)  # two connections on a process that then died

    assert not _shown_connected(table, alice)
    _connect(table, alice, now=timezone.now())  # she comes back on a live process

    assert Seat.objects.get(player=alice).connections == 1
    assert _shown_connected(table, alice)


def test_a_heartbeat_keeps_an_open_connection_fresh():
    table = make_table()
    alice = seated_player(table)
    bob = seated_player(table)
    start = timezone.now() - PRESENCE_STALE + timedelta(seconds=5)
    _connect(table, alice, now=start)

    assert services.seat_heartbeat(table_id=table.pk, player=alice) == 1

    assert _shown_connected(table, alice)
    assert Seat.objects.get(player=alice).last_seen > start
    assert services.seat_heartbeat(table_id=table.pk, player=bob) == 0  # nothing counted


def test_r_time_1_the_last_connection_closing_on_their_turn_times_the_player_out():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    now = timezone.now()
    for player in (alice, bob):
        _connect(table, player, now=now)
    assert services.hand_start(table_id=table.pk, now=now).ok
    hand = running_hand(table)
    to_act = engine_of(hand).to_act
    player = alice if to_act == 1 else bob
    seq = hand.seq

    gone = _connect(table, player, now=now, connected=False)

    hand.refresh_from_db()
    assert gone.ok and hand.seq > seq
    assert to_act in hand.timed_out_seats
