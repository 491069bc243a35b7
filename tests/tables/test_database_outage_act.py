"""Issue #22: PostgreSQL restarted mid-hand. The action sent at that moment is answered
`internal` (the room failed, nothing was applied); the client sends it again with the same
seq and it is applied, once: actions are idempotent (a repeat of one applied is answered
`stale`, never applied twice). Here the database connection of the thread serving the action
is broken in the middle of the action, as a restart breaks it."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from tables import services
from tables.models import HandEvent
from tests.consumer_helpers import (
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seat_of,
    seated_clients,
)

pytestmark = [pytest.mark.services, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _turn(table_id: int) -> tuple[int, int, int, str, int]:
    hand = current_hand(table_id)
    assert hand is not None
    engine = engine_of(hand)
    seat = engine.to_act
    assert seat is not None
    offer = engine.legal_actions(seat)[0]
    return hand.pk, hand.seq, seat, offer.kind.value, offer.amount


def _actions_of(hand_id: int, seat: int) -> int:
    return HandEvent.objects.filter(hand_id=hand_id, kind="action", payload__seat=seat).count()


async def test_an_action_broken_by_a_database_restart_is_applied_once_when_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("this test breaks a PostgreSQL connection: run it on the services shape")
    table = await database_sync_to_async(make_table)()
    players = [await database_sync_to_async(make_player)() for _ in range(2)]
    clients = await seated_clients(table.pk, players)
    await deal_hand(table.pk)
    hand_id, seq, seat, kind, amount = await database_sync_to_async(_turn)(table.pk)
    seats = [await database_sync_to_async(seat_of)(table.pk, p) for p in players]
    actor = clients[seats.index(seat)]
    real_hand_act = services.hand_act
    broken = []

    def hand_act_during_a_restart(**kwargs: Any) -> Any:
        if not broken:
            broken.append(True)
            # The server ends this session, as a restart does (what it raises is the point).
            with contextlib.suppress(Exception), connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return real_hand_act(**kwargs)

    monkeypatch.setattr(services, "hand_act", hand_act_during_a_restart)
    act = {"type": "act", "seq": seq, "hand_id": hand_id, "kind": kind, "amount": amount}

    first = await actor.reply_to(act)
    assert (first["type"], first.get("code")) == ("error", "internal")
    assert await database_sync_to_async(_actions_of)(hand_id, seat) == 0

    again = await actor.reply_to(act)  # the client sends it again, same seq
    assert again["type"] == "result" and again["status"] == "applied", again
    once_more = await actor.reply_to(act)  # a repeat (its answer lost): answered, not applied
    assert once_more["status"] == "stale"
    assert await database_sync_to_async(_actions_of)(hand_id, seat) == 1
    for client in clients:
        await client.close()
