"""Issue #14: muting a player's chat is kept on the account. A player mutes from the table
(`mute`); the snapshot says whom they muted at every table and on every connection, and a
mute that cannot be kept is refused with nothing written."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import ChatMute
from tests.consumer_helpers import TableClient, consumer_test_room  # noqa: F401 (autouse)
from tests.table_factories import make_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _mutes() -> list[tuple[int, int]]:
    return list(ChatMute.objects.order_by("id").values_list("player_id", "muted_id"))


async def test_a_mute_from_one_table_holds_at_another_and_on_a_new_connection(table, players):
    alice, bob = players[:2]
    here = await TableClient.open(table.pk, alice)

    reply = await here.request({"type": "mute", "player_id": bob.pk, "on": True}, "result")

    assert reply["ok"] and reply["command"] == "mute"
    other_table = await database_sync_to_async(make_table)(name="Elsewhere")
    there = await TableClient.open(other_table.pk, alice)
    snapshot = await there.request({"type": "snapshot"}, "snapshot")
    assert snapshot["chat_muted"] == [bob.pk]
    again = await here.request({"type": "mute", "player_id": bob.pk, "on": True}, "result")
    assert again["ok"]  # a second click changes nothing
    assert await database_sync_to_async(_mutes)() == [(alice.pk, bob.pk)]

    undone = await there.request({"type": "mute", "player_id": bob.pk, "on": False}, "result")

    assert undone["ok"]
    snapshot = await here.request({"type": "snapshot"}, "snapshot")
    assert snapshot["chat_muted"] == []
    for client in (here, there):
        await client.close()


async def test_muting_oneself_or_nobody_is_refused_and_writes_nothing(table, players):
    alice = players[0]
    client = await TableClient.open(table.pk, alice)

    self_mute = await client.request({"type": "mute", "player_id": alice.pk, "on": True}, "result")
    nobody = await client.request({"type": "mute", "player_id": 10**9, "on": True}, "result")
    bad = await client.reply_to({"type": "mute", "player_id": "bob", "on": True})

    assert self_mute["ok"] is False and self_mute["error"] == "bad_player"
    assert nobody["ok"] is False and nobody["error"] == "bad_player"
    assert bad["type"] == "error" and bad["code"] == "bad_field"
    assert await database_sync_to_async(_mutes)() == []
    await client.close()


async def test_a_visitor_sees_no_mutes_and_may_not_mute(table, players):
    visitor = await TableClient.open(table.pk)

    snapshot = await visitor.request({"type": "snapshot"}, "snapshot")
    refused = await visitor.reply_to({"type": "mute", "player_id": players[0].pk, "on": True})

    assert snapshot["chat_muted"] == []
    assert refused["type"] == "error" and refused["code"] == "login_required"
    await visitor.close()
