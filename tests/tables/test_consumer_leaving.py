"""Leaving mid-hand over the protocol (R-BUY-1): every viewer sees the leaver's hand folded
at once, the seat frees, and the stack is back in the balance; the flood limits are the
settings'."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.consumer_helpers import (
    BUY_IN,
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    current_hand,
    deal_hand,
    engine_of,
    seated_clients,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_player_leaving_mid_hand_is_folded_at_once_and_paid_out(table, players):
    clients = await seated_clients(table.pk, players)
    await deal_hand(table.pk)
    hand = await database_sync_to_async(current_hand)(table.pk)
    engine = engine_of(hand)
    leaver_seat = next(n for n in (1, 2, 3) if n != engine.to_act)
    in_front = engine.stack(leaver_seat)
    leaver, watcher = clients[leaver_seat - 1], clients[engine.to_act - 1]

    reply = await leaver.request({"type": "leave"}, "result")

    assert reply["ok"] and reply["command"] == "leave"
    abandon = await watcher.wait_for(lambda f: f["type"] == "event" and f["kind"] == "abandon")
    fold = await watcher.wait_for(lambda f: f["type"] == "event" and f["kind"] == "action")
    assert abandon["payload"]["seat"] == fold["payload"]["seat"] == leaver_seat
    assert fold["payload"]["action"] == "fold" and fold["seq"] == abandon["seq"] + 1
    seats = await watcher.wait_for(lambda f: f["type"] == "seats")
    assert all(s["number"] != leaver_seat for s in seats["seats"])
    player = players[leaver_seat - 1]
    await database_sync_to_async(player.refresh_from_db)()
    assert player.balance == 100_000 - BUY_IN + in_front
    for client in clients:
        await client.close()


async def test_the_flood_limits_come_from_the_settings(table, players, settings):
    settings.TABLE_WS_RATE = 0.001
    settings.TABLE_WS_BURST = 2
    client = await TableClient.open(table.pk, players[0])
    await client.wait_for(lambda f: f["type"] == "snapshot")

    for _ in range(3):
        await client.send({"type": "ping"})
    await client.drain(0.2)

    assert [f["type"] for f in client.frames[-3:]] == ["pong", "pong", "error"]
    assert client.frames[-1]["code"] == "rate_limited"
    await client.close()
