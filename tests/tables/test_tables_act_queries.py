"""The act path's cost in queries, so a regression shows (docs/performance.md, "Live tables").

One action in the middle of a hand: BEGIN, lock the table row, read the hand, read the seats
(once: the player's own seat and the turn logic share it), insert the events and update the
hand (the fields a turn changes), COMMIT. On PostgreSQL the events and the hand's new turn are
one statement (`WITH events AS (INSERT ...) UPDATE ...`), and BEGIN, the lock and the two reads
go in one trip (pipeline mode): 6 statements in 3 trips; elsewhere 7 statements.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from stud import StudHand
from tables import services
from tests.table_factories import make_table, running_hand, seated_player

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
        hand = running_hand(table)
        engine = StudHand.from_json(hand.state)
        seat = engine.to_act
        offer = next(
            o for o in engine.legal_actions(seat) if o.kind.value in ("bring_in", "call", "check")
        )
        with CaptureQueriesContext(connection) as queries:
            result = services.hand_act(
                table_id=table.pk,
                player=players[seat],
                expected_seq=hand.seq,
                kind=offer.kind.value,
                amount=offer.amount,
            )
        assert result.ok, result.reply()
        counts.append(len(queries.captured_queries))
    assert max(counts) <= ACT_QUERIES, [q["sql"][:120] for q in queries.captured_queries]
