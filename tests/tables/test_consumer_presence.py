"""Presence from the consumer: each connection of a seated player is counted on the seat in
the database (any process sees it) and refreshed by a heartbeat while it is open."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tables import heartbeat, services
from tables.models import PRESENCE_STALE, Seat
from tests.consumer_helpers import (
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
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.05)
    client = await TableClient.open(table.pk, player)
    assert (await client.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    before = (await database_sync_to_async(_seat)(player)).last_seen

    await asyncio.sleep(0.3)

    after = (await database_sync_to_async(_seat)(player)).last_seen
    assert before is not None and after > before
    await client.close()


async def test_a_live_connection_the_sweep_cleared_counts_itself_again(table, player, monkeypatch):
    """Issue #11: the sweep clears counts whose heartbeat is late; a connection that is in
    fact open (its loop was only slow) puts the player back at its next heartbeat."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.05)
    client = await TableClient.open(table.pk, player)
    assert (await client.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    await client.drain(0.1)
    client.read = len(client.frames)  # the frames of sitting down are past
    later = timezone.now() + PRESENCE_STALE + timedelta(seconds=1)
    assert await database_sync_to_async(services.presence_sweep)(now=later) == 1
    gone = await client.wait_for(lambda f: f["type"] == "seats")
    assert [s["connected"] for s in gone["seats"]] == [False]

    back = await client.wait_for(lambda f: f["type"] == "seats")

    assert [s["connected"] for s in back["seats"]] == [True]
    seat = await database_sync_to_async(_seat)(player)
    assert (seat.connections, seat.connected) == (1, True)
    await client.close()
