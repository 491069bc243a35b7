"""Issue #11, the security review of the table room's WebSocket: who may open it (the origin),
what a table id out of range gets, and floods spread over many connections."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from pokerroom.asgi import application
from tests.integration.consumer_helpers import (
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("table_id", [2**63, 2**63 - 1 + 10**6, 10**40])
async def test_a_table_id_too_large_for_the_database_is_an_unknown_table(db, table_id):
    visitor = await TableClient.open(table_id)
    frames = await visitor.drain(0.2)
    assert frames[0]["type"] == "error" and frames[0]["code"] == "not_found"
    assert visitor.frames[-1] == {"type": "_closed", "code": 4404}


@pytest.mark.parametrize("table_id", [2**63, 10**40])
async def test_a_player_opening_a_table_id_too_large_gets_an_unknown_table(players, table_id):
    player = await TableClient.open(table_id, players[0])
    frames = await player.drain(0.2)
    assert frames[0]["type"] == "error" and frames[0]["code"] == "not_found"
    assert player.frames[-1] == {"type": "_closed", "code": 4404}
