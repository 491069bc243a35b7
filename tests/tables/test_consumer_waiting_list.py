"""The waiting list over the protocol: join at a full table, leave it, and take the seat
offered when one frees (docs/protocol.md)."""

from __future__ import annotations

import pytest

from tests.consumer_helpers import (
    BUY_IN,
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    make_player,
    make_table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    return make_table(seats=2)


@pytest.fixture
def players(db):
    return [make_player() for _ in range(4)]


async def _full_table(table, players) -> tuple[list[TableClient], TableClient]:
    seated = [await TableClient.open(table.pk, player) for player in players[:2]]
    for client in seated:
        assert (await client.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    waiting = await TableClient.open(table.pk, players[2])
    await waiting.wait_for(lambda f: f["type"] == "snapshot")
    return seated, waiting


async def test_a_player_joins_the_waiting_list_of_a_full_table_and_everyone_sees_it(table, players):
    seated, waiting = await _full_table(table, players)

    reply = await waiting.request({"type": "join_waiting_list"}, "result")

    assert reply["ok"] and reply["command"] == "join_waiting_list"
    frame = await seated[0].wait_for(lambda f: f["type"] == "waiting_list")
    assert [entry["player_id"] for entry in frame["entries"]] == [players[2].pk]
    again = await waiting.request({"type": "join_waiting_list"}, "result")
    assert not again["ok"] and again["error"] == "already_waiting"
    for client in [*seated, waiting]:
        await client.close()


async def test_a_player_leaves_the_waiting_list(table, players):
    seated, waiting = await _full_table(table, players)
    assert (await waiting.request({"type": "join_waiting_list"}, "result"))["ok"]

    reply = await waiting.request({"type": "leave_waiting_list"}, "result")

    assert reply["ok"] and reply["command"] == "leave_waiting_list"
    snapshot = await waiting.request({"type": "snapshot"}, "snapshot")
    assert snapshot["waiting_list"] == []
    again = await waiting.request({"type": "leave_waiting_list"}, "result")
    assert again["error"] == "not_waiting"
    for client in [*seated, waiting]:
        await client.close()


async def test_the_waiting_list_is_for_a_full_table_only(table, players):
    client = await TableClient.open(table.pk, players[0])

    reply = await client.request({"type": "join_waiting_list"}, "result")

    assert reply["error"] == "seats_free"
    await client.close()


async def test_a_freed_seat_is_offered_to_the_first_in_line_who_sits_with_a_buy_in(table, players):
    seated, waiting = await _full_table(table, players)
    assert (await waiting.request({"type": "join_waiting_list"}, "result"))["ok"]
    outsider = await TableClient.open(table.pk, players[3])

    assert (await seated[0].request({"type": "leave"}, "result"))["ok"]

    offer = await waiting.wait_for(lambda f: f["type"] == "seat_offer")
    assert offer["table_id"] == table.pk and offer["until"]
    held = await outsider.request({"type": "sit", "buy_in": BUY_IN}, "result")
    assert held["error"] == "seat_offered"
    taken = await waiting.request({"type": "sit", "buy_in": BUY_IN}, "result")
    assert taken["ok"], taken
    snapshot = await waiting.request({"type": "snapshot"}, "snapshot")
    assert snapshot["viewer"]["player_id"] == players[2].pk
    assert snapshot["waiting_list"] == []
    for client in [*seated, waiting, outsider]:
        await client.close()


async def test_a_visitor_may_not_join_the_waiting_list(table):
    visitor = await TableClient.open(table.pk)

    reply = await visitor.reply_to({"type": "join_waiting_list"})

    assert reply["type"] == "error" and reply["code"] == "login_required"
    await visitor.close()
