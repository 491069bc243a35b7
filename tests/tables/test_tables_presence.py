"""Presence across processes (R-TIME-3): each open connection is counted on the seat in the
database, so two tabs served by two Daphne processes are right; a count no heartbeat has
refreshed for PRESENCE_STALE (its process died) keeps nobody "connected", and the presence
sweep clears it for everyone within seconds (issue #11)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from pokerroom.celery import app as celery_app
from tables import heartbeat, services
from tables.models import PRESENCE_STALE, Seat
from tables.selectors import seats_public
from tables.services import outbox
from tests.table_factories import engine_of, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db


def _connect(table, player, *, now, connected=True):
    return services.seat_set_connected(
        table_id=table.pk, player=player, connected=connected, now=now
    )


def _a_hand_between_two_connected_players(now):
    """Alice in seat 1 and Bob in seat 2, each with one connection, and a hand dealt: the
    table, both players, the hand and the seat to act."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    for player in (alice, bob):
        _connect(table, player, now=now)
    assert services.hand_start(table_id=table.pk, now=now).ok
    hand = running_hand(table)
    return table, alice, bob, hand, engine_of(hand).to_act


def _shown_connected(table, player) -> bool:
    return next(s for s in seats_public(table.pk) if s["player_id"] == player.pk)["connected"]


def test_two_connections_keep_the_player_connected_until_both_close():
    table = make_table()
    alice = seated_player(table)
    now = timezone.now()
    _connect(table, alice, now=now)  # a tab on one process
    _connect(table, alice, now=now)  # another tab, another process

    closed = _connect(table, alice, now=now, connected=False)

    assert closed.ok and not closed.frames.table_json  # nothing changed for anyone
    assert Seat.objects.get(player=alice).connections == 1
    assert _shown_connected(table, alice)
    last = _connect(table, alice, now=now, connected=False)
    assert [f["type"] for f in last.frames.table_json] == ["seats"]
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


def test_r_time_3_the_last_connection_closing_on_their_turn_keeps_the_turn_and_its_clock():
    """Issue #14: a reload or a short drop no longer plays the hand; the clock decides."""
    now = timezone.now()
    table, alice, bob, hand, to_act = _a_hand_between_two_connected_players(now)
    player = alice if to_act == 1 else bob
    seq, deadline = hand.seq, hand.action_deadline

    gone = _connect(table, player, now=now, connected=False)

    hand.refresh_from_db()
    assert gone.ok and [f["type"] for f in gone.frames.table_json] == ["seats"]
    assert hand.seq == seq and hand.action_deadline == deadline
    assert hand.timed_out_seats == [] and engine_of(hand).to_act == to_act
    assert not _shown_connected(table, player)


# --- issue #11: a crashed process's connections count as gone within seconds ---------------


def test_presence_lapses_within_a_few_seconds_of_the_last_heartbeat():
    assert PRESENCE_STALE.total_seconds() <= 6
    assert timedelta(seconds=heartbeat.HEARTBEAT_SECONDS * 2) < PRESENCE_STALE


def test_the_sweep_clears_a_crashed_processs_connections_and_tells_the_table(
    monkeypatch, django_capture_on_commit_callbacks
):
    table = make_table()
    alice = seated_player(table)
    start = timezone.now()
    _connect(table, alice, now=start)
    _connect(table, alice, now=start)  # two tabs on one process, which then dies
    sent = []
    monkeypatch.setattr(outbox, "broadcast", lambda **kwargs: sent.append(kwargs))

    with django_capture_on_commit_callbacks(execute=True):
        assert services.presence_sweep(now=start + PRESENCE_STALE - timedelta(seconds=1)) == 0
    assert Seat.objects.get(player=alice).present(start + PRESENCE_STALE - timedelta(seconds=1))
    assert sent == []
    with django_capture_on_commit_callbacks(execute=True):
        assert services.presence_sweep(now=start + PRESENCE_STALE) == 1

    seat = Seat.objects.get(player=alice)
    assert (seat.connections, seat.connected) == (0, False)
    assert not _shown_connected(table, alice)
    [seats_frame] = sent[0]["frames"].table_json
    assert seats_frame["type"] == "seats"
    assert [s["connected"] for s in seats_frame["seats"] if s["player_id"] == alice.pk] == [False]


def test_a_heartbeat_keeps_a_live_connection_out_of_the_sweep():
    table = make_table()
    alice = seated_player(table)
    start = timezone.now()
    _connect(table, alice, now=start)
    beat = start + PRESENCE_STALE - timedelta(seconds=2)
    assert services.seat_heartbeat(table_id=table.pk, player=alice, now=beat) == 1

    assert services.presence_sweep(now=start + PRESENCE_STALE + timedelta(seconds=1)) == 0
    assert Seat.objects.get(player=alice).connections == 1
    assert services.presence_sweep(now=beat + PRESENCE_STALE) == 1


def test_r_time_1_a_player_whose_process_died_on_their_turn_keeps_their_clock():
    """R-TIME-1: a disconnected player gets the same time as anyone (a restart is a short
    drop): the sweep shows them gone, the action clock still decides."""
    now = timezone.now()
    table, alice, bob, hand, to_act = _a_hand_between_two_connected_players(now)
    other = bob if to_act == 1 else alice
    later = now + PRESENCE_STALE
    services.seat_heartbeat(table_id=table.pk, player=other, now=later)  # still there
    seq = hand.seq

    assert services.presence_sweep(now=later) == 1

    hand.refresh_from_db()
    assert hand.seq == seq and hand.timed_out_seats == []
    assert engine_of(hand).to_act == to_act
    assert not _shown_connected(table, bob if to_act == 2 else alice)
    assert Seat.objects.get(player=other).connected


def test_the_presence_sweep_runs_every_two_seconds():
    [entry] = [
        entry
        for entry in celery_app.conf.beat_schedule.values()
        if entry["task"] == "tables.tasks.sweep_stale_presence"
    ]
    assert entry["schedule"] <= timedelta(seconds=2)


def test_a_heartbeat_refreshes_only_the_seats_it_names_of_a_player_at_two_tables():
    """R-TIME-3: a process that holds ann's connection at one table and bob's at another
    refreshes those two seats, not ann's seat at bob's table (another process's)."""
    first, second = make_table(), make_table()
    ann = seated_player(first)
    bob = seated_player(second)
    assert services.seat_take(table_id=second.pk, player=ann, buy_in=second.buy_in).ok
    start = timezone.now()
    for table, player in ((first, ann), (second, bob), (second, ann)):
        _connect(table, player, now=start)
    beat = start + timedelta(seconds=2)

    refreshed = services.seats_heartbeat(seats={(first.pk, ann.pk), (second.pk, bob.pk)}, now=beat)

    assert refreshed == {(first.pk, ann.pk), (second.pk, bob.pk)}
    assert Seat.objects.get(table=first, player=ann).last_seen == beat
    assert Seat.objects.get(table=second, player=bob).last_seen == beat
    assert Seat.objects.get(table=second, player=ann).last_seen == start


def test_one_heartbeat_refreshes_every_seat_a_process_counts():
    """A process beats for all its connections at once: one read and one UPDATE (its own
    transaction: a savepoint here), however many seats; a seat whose count is gone is not
    refreshed and is named as such."""
    tables = [make_table(), make_table()]
    players = [seated_player(tables[0]), seated_player(tables[0]), seated_player(tables[1])]
    start = timezone.now()
    for player in players[:2]:
        _connect(tables[0], player, now=start)
    _connect(tables[1], players[2], now=start)
    _connect(tables[1], players[2], now=start, connected=False)  # gone meanwhile
    beat = start + timedelta(seconds=2)
    seats = {(tables[0].pk, players[0].pk), (tables[0].pk, players[1].pk)}
    gone = (tables[1].pk, players[2].pk)

    with CaptureQueriesContext(connection) as captured:
        refreshed = services.seats_heartbeat(seats=seats | {gone}, now=beat)

    statements = [
        query["sql"]
        for query in captured.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    assert [sql.split()[0] for sql in statements] == ["SELECT", "UPDATE"]

    assert refreshed == seats
    assert [Seat.objects.get(player=p).last_seen for p in players[:2]] == [beat, beat]
    assert Seat.objects.get(player=players[2]).last_seen == start
