"""Issue #22: a frame lost on the way is mended at the client's next ping. Each ping carries
the last (hand_id, seq) the client holds; a client that is behind is sent a snapshot before
the pong, so a turn frame lost in an outage costs at most one ping interval, even when no
later frame would show the gap (docs/protocol.md, "Catching up")."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables.services import outbox
from tests.consumer_helpers import (
    TableClient,
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seat_of,
    seated_clients,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _turn_and_offer(table_id: int) -> tuple[int, int, int, str, int]:
    hand = current_hand(table_id)
    assert hand is not None
    engine = engine_of(hand)
    seat = engine.to_act
    assert seat is not None
    offer = engine.legal_actions(seat)[0]
    return hand.pk, hand.seq, seat, offer.kind.value, offer.amount


async def _two_at_a_hand() -> tuple[Any, list[TableClient], list[Any]]:
    table = await database_sync_to_async(make_table)()
    players = [await database_sync_to_async(make_player)() for _ in range(2)]
    clients = await seated_clients(table.pk, players)
    await deal_hand(table.pk)
    return table, clients, players


async def test_r_time_3_a_player_whose_turn_frame_was_lost_gets_it_at_the_next_ping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The channel layer loses the frames of the first action (as with Redis down): no later
    frame comes to show the gap. The next player's ping, with the seq he holds, brings him a
    snapshot in which it is his turn, with his offers."""
    table, clients, players = await _two_at_a_hand()
    hand_id, seq, seat, kind, amount = await database_sync_to_async(_turn_and_offer)(table.pk)
    seats = [await database_sync_to_async(seat_of)(table.pk, p) for p in players]
    actor = clients[seats.index(seat)]
    waiting = next(c for c in clients if c is not actor)
    for client in clients:
        await client.drain()
    monkeypatch.setattr(outbox, "broadcast", lambda **_: False)  # the frames are lost
    reply = await actor.reply_to(
        {"type": "act", "seq": seq, "hand_id": hand_id, "kind": kind, "amount": amount}
    )
    assert reply["ok"], reply
    assert [f for f in await waiting.drain() if f["type"] == "event"] == []

    await waiting.send({"type": "ping", "hand_id": hand_id, "seq": seq, "ref": "p1"})
    snapshot = await waiting.wait_for(lambda f: f["type"] == "snapshot")
    pong = await waiting.wait_for(lambda f: f["type"] == "pong")

    assert snapshot["hand"]["id"] == hand_id and snapshot["hand"]["seq"] > seq
    assert snapshot["hand"]["state"]["to_act"] == snapshot["viewer"]["seat"]
    assert snapshot["hand"]["state"]["legal_actions"]
    assert pong["ref"] == "p1"


async def test_a_client_that_holds_the_tables_last_seq_gets_only_its_pong() -> None:
    table, clients, _ = await _two_at_a_hand()
    hand = await database_sync_to_async(current_hand)(table.pk)
    assert hand is not None
    await clients[0].drain()
    await clients[0].send({"type": "ping", "hand_id": hand.pk, "seq": hand.seq, "ref": "p"})
    await clients[0].wait_for(lambda f: f["type"] == "pong")
    assert [f["type"] for f in await clients[0].drain()] == []
    assert not any(f["type"] == "snapshot" for f in clients[0].frames[clients[0].read - 1 :])


async def test_a_client_without_the_hand_in_play_is_behind() -> None:
    """It missed the hand's first frames (its last hand is another, or none)."""
    _, clients, _ = await _two_at_a_hand()
    await clients[1].drain()
    await clients[1].send({"type": "ping", "seq": 0})
    snapshot = await clients[1].wait_for(lambda f: f["type"] == "snapshot")
    assert snapshot["hand"] is not None


async def test_a_plain_ping_is_still_answered_pong() -> None:
    _, clients, _ = await _two_at_a_hand()
    await clients[0].drain()
    assert (await clients[0].reply_to({"type": "ping"}))["type"] == "pong"
