"""The table consumer (docs/protocol.md): snapshot on connect, commands through the services,
events to every viewer in seq order, visitors watch and never act, presence and reconnect."""

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
    make_table,
    seated_clients,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_visitor_gets_the_public_snapshot_on_connect(table):
    visitor = await TableClient.open(table.pk)
    snapshot = await visitor.wait_for(lambda f: True)
    assert snapshot["type"] == "snapshot"
    assert snapshot["table"]["id"] == table.pk
    assert snapshot["viewer"] is None
    await visitor.close()


async def test_an_unknown_table_is_refused_and_closed(db):
    visitor = await TableClient.open(987654)
    frames = await visitor.drain(0.2)
    assert frames[0]["type"] == "error" and frames[0]["code"] == "not_found"
    assert visitor.frames[-1] == {"type": "_closed", "code": 4404}


async def test_a_visitor_may_watch_but_never_act(table):
    visitor = await TableClient.open(table.pk)
    await visitor.wait_for(lambda f: f["type"] == "snapshot")
    for message in (
        {"type": "sit", "buy_in": BUY_IN},
        {"type": "act", "seq": 1, "kind": "call", "amount": 50},
        {"type": "chat", "text": "hello"},
        {"type": "im_in"},
    ):
        reply = await visitor.reply_to(message)
        assert reply["type"] == "error" and reply["code"] == "login_required"
    assert (await visitor.reply_to({"type": "snapshot"}))["type"] == "snapshot"
    await visitor.close()


async def test_sitting_down_is_answered_and_every_viewer_sees_the_seats(table, players):
    visitor = await TableClient.open(table.pk)
    alice = await TableClient.open(table.pk, players[0])
    await alice.wait_for(lambda f: f["type"] == "snapshot")
    reply = await alice.request({"type": "sit", "seat": 4, "buy_in": BUY_IN}, "result")
    assert reply["ok"] and reply["command"] == "sit"
    seats = await visitor.wait_for(lambda f: f["type"] == "seats")
    assert [(s["number"], s["player_id"], s["stack"]) for s in seats["seats"]] == [
        (4, players[0].pk, BUY_IN)
    ]
    short = await alice.reply_to({"type": "add_chips", "amount": -5})
    assert short["type"] == "error"
    await alice.close()
    await visitor.close()


async def test_every_viewer_gets_every_event_of_a_hand_in_seq_order(table, players):
    clients = await seated_clients(table.pk, players)
    visitor = await TableClient.open(table.pk)
    await deal_hand(table.pk)
    for client in [*clients, visitor]:
        await client.drain(0.1)
    hand = await database_sync_to_async(current_hand)(table.pk)
    for client in [*clients, visitor]:
        seqs = sorted(
            {f["seq"] for f in client.frames if f["type"] == "event" and f["hand_id"] == hand.pk}
        )
        assert seqs == list(range(1, hand.seq + 1))
    for client in [*clients, visitor]:
        await client.close()


async def test_a_reconnecting_player_gets_their_own_down_cards_back(table, players):
    """R-TIME-3: a disconnected player stays seated and in the hand; reconnecting restores
    their full view, their own down cards included."""
    clients = await seated_clients(table.pk, players)
    await deal_hand(table.pk)
    hand = await database_sync_to_async(current_hand)(table.pk)
    engine = engine_of(hand)
    # Someone whose turn it is not leaves and comes back.
    index, player = next((i, p) for i, p in enumerate(players) if i + 1 != engine.to_act)
    await clients[index].close()
    back = await TableClient.open(table.pk, player)
    snapshot = await back.wait_for(lambda f: f["type"] == "snapshot")
    own = engine.down[[p.seat for p in engine.players].index(index + 1)]
    mine = next(s for s in snapshot["hand"]["state"]["seats"] if s["seat"] == index + 1)
    assert mine["down"] == list(own)
    assert all("down" not in s for s in snapshot["hand"]["state"]["seats"] if s is not mine)
    seat_row = next(s for s in snapshot["seats"] if s["number"] == index + 1)
    assert seat_row["connected"] is True
    for client in [*clients[:index], *clients[index + 1 :], back]:
        await client.close()


async def test_seat_commands_go_through_the_services_and_come_back_as_seats(table, players):
    alice = await TableClient.open(table.pk, players[0])
    await alice.wait_for(lambda f: f["type"] == "snapshot")
    assert (await alice.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]

    def mine(frame):
        return next(s for s in frame["seats"] if s["player_id"] == players[0].pk)

    for message, check in (
        ({"type": "sit_out"}, lambda seat: seat["sitting_out"]),
        ({"type": "sit_in"}, lambda seat: not seat["sitting_out"]),
        ({"type": "add_chips", "amount": 500}, lambda seat: seat["stack"] == BUY_IN + 500),
    ):
        reply = await alice.request(message, "result")
        assert reply["ok"] and reply["command"] == message["type"], reply
        seats = await alice.wait_for(lambda f: f["type"] == "seats")
        assert check(mine(seats)), seats

    short = await alice.request({"type": "add_chips", "amount": 10**9}, "result")
    assert short["status"] == "refused" and short["error"] == "insufficient_balance"
    reply = await alice.request({"type": "leave"}, "result")
    assert reply["ok"]
    seats = await alice.wait_for(lambda f: f["type"] == "seats")
    assert all(s["player_id"] != players[0].pk for s in seats["seats"])
    await database_sync_to_async(players[0].refresh_from_db)()
    assert players[0].balance == 100_000
    await alice.close()


async def test_a_player_who_confirms_antes_is_asked_and_answers_im_in(table, players):
    """R-ANTE-1: with auto-ante off the player is asked "I'm in?" before the next hand."""
    carol = players[2]
    carol.auto_ante = False
    await database_sync_to_async(carol.save)()
    clients = await seated_clients(table.pk, [players[0], carol])
    asked = await clients[1].wait_for(lambda f: f["type"] == "ante_confirm")
    assert asked["table_id"] == table.pk
    reply = await clients[1].request({"type": "im_in"}, "result")
    assert reply["ok"] and reply["command"] == "im_in"
    snapshot = await clients[1].request({"type": "snapshot"}, "snapshot")
    assert snapshot["viewer"]["ante_confirmed"] is True
    assert not [f for f in clients[0].frames if f["type"] == "ante_confirm"]
    for client in clients:
        await client.close()


async def test_a_players_own_frames_for_another_table_stay_on_that_table(players):
    """The user group serves every table a player sits at; each socket keeps its own."""
    first, second = (
        await database_sync_to_async(make_table)(),
        await database_sync_to_async(make_table)(),
    )
    here = await TableClient.open(first.pk, players[0])
    there = await TableClient.open(second.pk, players[0])
    from channels.layers import get_channel_layer

    from tables.realtime.frames import AnteConfirm
    from tables.services.broadcast import frames_message

    ask = AnteConfirm(table_id=second.pk, deadline=None, ms_left=None)
    await get_channel_layer().group_send(f"user-{players[0].pk}", frames_message(second.pk, [ask]))
    assert (await there.wait_for(lambda f: f["type"] == "ante_confirm"))["table_id"] == second.pk
    await here.drain(0.1)
    assert not [f for f in here.frames if f["type"] == "ante_confirm"]
    await here.close()
    await there.close()


async def test_a_player_with_two_tabs_stays_connected_until_the_last_closes(table, players):
    """R-TIME-3 presence: closing one of two connections does not mark the player away."""
    first = await TableClient.open(table.pk, players[0])
    assert (await first.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    second = await TableClient.open(table.pk, players[0])
    visitor = await TableClient.open(table.pk)

    def connected(frame) -> bool:
        return next(s for s in frame["seats"] if s["player_id"] == players[0].pk)["connected"]

    await first.close()
    assert connected(await visitor.request({"type": "snapshot"}, "snapshot"))
    await second.close()
    away = await visitor.wait_for(lambda f: f["type"] == "seats" and not connected(f))
    assert not connected(away)
    await visitor.close()
