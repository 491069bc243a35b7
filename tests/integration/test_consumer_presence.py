"""Presence from the consumer: each connection of a seated player is counted on the seat in
the database (any process sees it) and refreshed by a heartbeat while it is open."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from tables import consumers
from tables.models import Seat
from tests.integration.consumer_helpers import (
    BUY_IN,
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    make_player,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def player(db):
    return make_player()


def _seat(player) -> Seat:
    return Seat.objects.get(player=player)


async def test_each_connection_is_counted_in_the_database(table, player):
    first = await TableClient.open(table.pk, player)
    assert (await first.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    second = await TableClient.open(table.pk, player)
    await second.wait_for(lambda f: f["type"] == "snapshot")

    assert (await database_sync_to_async(_seat)(player)).connections == 2
    await first.close()
    seat = await database_sync_to_async(_seat)(player)
    assert seat.connections == 1 and seat.connected
    await second.close()
    seat = await database_sync_to_async(_seat)(player)
    assert seat.connections == 0 and not seat.connected


async def test_an_open_connection_refreshes_its_presence(table, player, monkeypatch):
    monkeypatch.setattr(consumers, "HEARTBEAT_SECONDS", 0.05)
    client = await TableClient.open(table.pk, player)
    assert (await client.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    before = (await database_sync_to_async(_seat)(player)).last_seen

    await asyncio.sleep(0.3)

    after = (await database_sync_to_async(_seat)(player)).last_seen
    assert before is not None and after > before
    await client.close()
