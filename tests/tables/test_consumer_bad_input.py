"""Bad input over the WebSocket: each gets an error frame (or a refused result), nothing changes
(the hand's seq, the stacks and the balances), and a well-behaved player is unaffected."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from tests.consumer_helpers import (
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seated_clients,
    stacked_deck,
    stacks_and_balances,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _a_hand_in_play() -> tuple[int, dict[int, TableClient], int]:
    """Three seated players (seats 1-3) and a hand dealt; returns the seat to act."""
    table = await database_sync_to_async(make_table)()
    players = [await database_sync_to_async(make_player)() for _ in range(3)]
    clients = dict(enumerate(await seated_clients(table.pk, players), start=1))
    await deal_hand(table.pk, stacked_deck(3))
    hand = await database_sync_to_async(current_hand)(table.pk)
    return table.pk, clients, engine_of(hand).to_act


async def _state(table_id: int):
    return await database_sync_to_async(stacks_and_balances)(table_id)


async def _close_all(clients) -> None:
    for client in clients.values():
        await client.close()


async def test_malformed_and_unknown_messages_get_error_frames_and_change_nothing():
    table_id, clients, to_act = await _a_hand_in_play()
    before = await _state(table_id)
    player = clients[to_act]
    await player.drain()
    frames = [
        "{this is not json",
        "[]",
        '"act"',
        json.dumps({"type": "shove", "amount": 100}),
        json.dumps({"type": "act", "kind": "call"}),
        json.dumps({"type": "act", "seq": "7", "kind": "call"}),
        json.dumps({"type": "act", "seq": 7, "kind": "call", "amount": "lots"}),
        json.dumps({"type": "sit", "buy_in": None}),
        json.dumps({"type": "chat", "text": "x" * 201}),
        json.dumps({"type": "chat", "text": "y" * 3000}),
    ]
    for text in frames:
        await player.send_text(text)
        reply = await player.wait_for(lambda f: f["type"] in ("error", "result"))
        assert reply["type"] == "error", (text, reply)
    await player.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await player.wait_for(lambda f: True))["code"] == "bad_frame"
    assert await _state(table_id) == before
    await _close_all(clients)


async def test_out_of_turn_wrong_amount_stale_and_forged_seat_change_nothing():
    table_id, clients, to_act = await _a_hand_in_play()
    before = await _state(table_id)
    seq = before[2]
    other = next(seat for seat in clients if seat != to_act)

    out_of_turn = await clients[other].reply_to(
        {"type": "act", "seq": seq, "kind": "call", "amount": 50}
    )
    assert out_of_turn["type"] == "result" and out_of_turn["status"] == "refused"

    forged = await clients[other].reply_to(
        {"type": "act", "seq": seq, "kind": "bring_in", "amount": 50, "seat": to_act}
    )
    assert forged["type"] == "error" and forged["code"] == "forbidden_field"

    wrong_amount = await clients[to_act].reply_to(
        {"type": "act", "seq": seq, "kind": "complete", "amount": 333}
    )
    assert wrong_amount["status"] == "refused" and wrong_amount["error"] == "illegal_action"

    stale = await clients[to_act].reply_to(
        {"type": "act", "seq": seq - 1, "kind": "bring_in", "amount": 50}
    )
    assert stale["status"] == "stale" and stale["seq"] == seq

    hand = await database_sync_to_async(current_hand)(table_id)
    other_hand = await clients[to_act].reply_to(
        {"type": "act", "seq": seq, "hand_id": hand.pk + 1, "kind": "bring_in", "amount": 50}
    )
    assert other_hand["status"] == "stale", other_hand

    assert await _state(table_id) == before
    await _close_all(clients)


async def test_a_flood_is_refused_then_closed_and_a_quiet_player_plays_on():
    table_id, clients, to_act = await _a_hand_in_play()
    before = await _state(table_id)
    flooder_seat = next(seat for seat in clients if seat != to_act)
    flooder = clients[flooder_seat]
    await flooder.drain()
    for _ in range(80):
        await flooder.send({"type": "chat", "text": "spam"})
    await flooder.drain(0.3)
    errors = [f for f in flooder.frames if f.get("type") == "error"]
    assert errors and all(f["code"] == "rate_limited" for f in errors)
    assert flooder.frames[-1] == {"type": "_closed", "code": 4008}
    assert await _state(table_id) == before

    # The player whose turn it is still plays, and the third still hears about it.
    quiet = clients[to_act]
    snapshot = await quiet.request({"type": "snapshot"}, "snapshot")
    offer = snapshot["hand"]["state"]["legal_actions"][0]
    reply = await quiet.request(
        {"type": "act", "seq": before[2], "kind": offer["kind"], "amount": offer["amount"]},
        "result",
    )
    assert reply["ok"], reply
    third = clients[next(s for s in clients if s not in (to_act, flooder_seat))]
    heard = await third.wait_for(lambda f: f.get("type") == "event" and f["kind"] == "action")
    assert heard["payload"]["seat"] == to_act
    for seat, client in clients.items():
        if seat != flooder_seat:
            await client.close()


async def test_chat_reaches_the_table_escaped():
    table_id, clients, _ = await _a_hand_in_play()
    visitor = await TableClient.open(table_id)
    await clients[1].send({"type": "chat", "text": "<script>alert(1)</script> nice hand"})
    chat = await visitor.wait_for(lambda f: f["type"] == "chat")
    assert chat["text"] == "&lt;script&gt;alert(1)&lt;/script&gt; nice hand"
    assert "<" not in json.dumps(chat)
    await visitor.close()
    await _close_all(clients)
