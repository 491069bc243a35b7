"""The act path's cost in queries, so a regression shows (docs/performance.md, "Live tables").

One action in the middle of a hand: BEGIN, lock the table row, read the hand, read the seats
(once: the player's own seat and the turn logic share it), insert the events and update the
hand (the fields a turn changes), COMMIT. On PostgreSQL the events and the hand's new turn are
one statement (`WITH events AS (INSERT ...) UPDATE ...`), and BEGIN, the lock and the two reads
go in one trip (pipeline mode): 6 statements in 3 trips; elsewhere 7 statements.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tables import services
from tables.models import Hand, HandEvent, Table
from tables.services.change import current_hand, lock_table, lock_table_read, seats_by_number
from tables.services.flow import hand_events_record, hand_turn_save
from tables.services.outbox import Outbox
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    passive_action,
    running_hand,
    seated_player,
)

pytestmark = pytest.mark.django_db

# 8 before the seats were read once per act; 7 before issue #15 wrote the events and the
# hand's turn in one statement (PostgreSQL).
ACT_QUERIES = {"postgresql": 6}.get(connection.vendor, 7)


def test_an_action_mid_hand_takes_a_bounded_number_of_queries():
    table = make_table()
    players = {number: seated_player(table, seat_number=number) for number in range(1, 7)}
    assert services.hand_start(table_id=table.pk).ok
    counts = []
    for _ in range(4):  # the bring-in and the first calls of third street
        player = players[_seat_to_act(table)]
        kind, amount = passive_action(table, player)
        seq = running_hand(table).seq
        with CaptureQueriesContext(connection) as queries:  # the act alone, as a client sends it
            result = services.hand_act(
                table_id=table.pk, player=player, expected_seq=seq, kind=kind, amount=amount
            )
        assert result.ok, result.reply()
        counts.append(len(queries.captured_queries))
    assert max(counts) <= ACT_QUERIES, [q["sql"][:120] for q in queries.captured_queries]


def _seat_to_act(table: Table) -> int:
    seat = engine_of(running_hand(table)).to_act
    assert seat is not None
    return seat


def _fields(instance: object) -> dict[str, object]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields  # type: ignore[attr-defined]
    }


def test_the_lock_and_the_reads_sent_together_read_what_they_read_one_by_one():
    """`lock_table_read` (one trip on PostgreSQL) builds the same table, hand and seats as
    `lock_table`, `current_hand` and `seats_by_number`; no table: nothing."""
    table = make_table()
    for number in range(1, 4):
        seated_player(table, seat_number=number)
    assert services.hand_start(table_id=table.pk).ok
    with transaction.atomic():
        together = lock_table_read(table.pk, seats=True)
    with transaction.atomic():
        locked = lock_table(table.pk)
        assert locked is not None
        apart = (locked, current_hand(locked), seats_by_number(locked))
    assert together[0] is not None and together[1] is not None and together[2] is not None
    assert _fields(together[0]) == _fields(apart[0])
    assert _fields(together[1]) == _fields(apart[1])
    assert {n: _fields(s) for n, s in together[2].items()} == {
        n: _fields(s) for n, s in apart[2].items()
    }
    with transaction.atomic():
        assert lock_table_read(table.pk + 1000, seats=True) == (None, None, None)


def test_an_action_at_a_table_that_does_not_exist_is_answered_not_found():
    player = seated_player(make_table(), seat_number=1)
    result = services.hand_act(table_id=10**9, player=player, expected_seq=0, kind="call")
    assert result.status == "refused" and result.error == "not_found"


def test_the_events_written_with_the_turn_are_the_events_the_players_were_sent():
    """R-GAME-3 flow: the rows written in one statement with the hand's turn are the frames
    broadcast, seq for seq, each dated."""
    table = make_table()
    players = {number: seated_player(table, seat_number=number) for number in range(1, 4)}
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    player = players[_seat_to_act(table)]
    result = act(table, player, *passive_action(table, player))
    assert result.ok, result.reply()
    sent = {f["seq"]: f for f in result.frames.table_json if f.get("type") == "event"}
    rows = HandEvent.objects.filter(hand=hand, seq__gt=hand.seq).order_by("seq")
    assert [row.seq for row in rows] == sorted(sent)
    for row in rows:
        assert row.kind == sent[row.seq]["kind"] and row.payload == sent[row.seq]["payload"]
        assert row.created_at is not None
    hand.refresh_from_db()
    assert hand.seq == max(sent) == result.seq


def test_the_one_statement_write_stores_every_event_column_as_the_orm_does():
    """`hand_turn_save` builds its INSERT from HandEvent's fields: a column added to the
    model is written by it too, with the value `bulk_create` would store."""
    table = make_table()
    for number in range(1, 4):
        seated_player(table, seat_number=number)
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    records = [("chat_note", {"n": 1}, None), ("chat_note", {"n": 2}, 2)]
    with transaction.atomic():
        outbox = Outbox(table)
        hand_events_record(hand, records, outbox, with_turn=True)
        rows = list(outbox.events_unwritten[hand.pk])
        hand_turn_save(hand, ["seq"], outbox)
    sent = [_fields(row) for row in rows]  # as the save left them: created_at set
    stored = [
        _fields(row) for row in HandEvent.objects.filter(hand=hand, seq__gt=sent[0]["seq"] - 1)
    ]
    for row in sent:
        row.pop("id")
    for row in stored:
        row.pop("id")
    assert sorted(stored, key=lambda r: r["seq"]) == sent
    assert Hand.objects.get(pk=hand.pk).seq == hand.seq == sent[-1]["seq"]
