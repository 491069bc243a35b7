"""R-SHOW-3 over the protocol: the uncalled winner is offered to show, `show` makes the cards
public to every viewer, and `auto_muck` sets "muck losing hands" from the table."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.consumer_helpers import (
    BUY_IN,
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    deal_hand,
    seated_clients,
)
from tests.table_factories import stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _act(client: TableClient, kind: str, amount: int = 0) -> dict:
    turn = await client.wait_for(lambda f: f["type"] == "your_turn")
    message = {"type": "act", "seq": turn["seq"], "hand_id": turn["hand_id"], "kind": kind}
    reply = await client.request({**message, "amount": amount}, "result")
    assert reply["ok"], reply
    return turn


async def test_r_show_3_the_uncalled_winner_shows_and_every_viewer_sees_it(table, players):
    alice, bob = await seated_clients(table.pk, players[:2])
    visitor = await TableClient.open(table.pk)
    hand_id = await deal_hand(table.pk, stacked_deck(ALICE_WINS))
    await _act(bob, "bring_in", table.bring_in)
    await _act(alice, "complete", table.small_bet)
    await _act(bob, "fold")

    offer = await alice.wait_for(lambda f: f["type"] == "show_offer")
    assert offer["hand_id"] == hand_id and offer["seat"] == 1
    early_bob = await bob.reply_to({"type": "show", "hand_id": hand_id})
    assert early_bob["error"] == "illegal_action"
    shown = await alice.request({"type": "show", "hand_id": hand_id}, "result")

    assert shown["ok"] and shown["command"] == "show"
    for client in (bob, visitor):
        frame = await client.wait_for(lambda f: f["type"] == "event" and f["kind"] == "show")
        assert frame["payload"]["seat"] == 1 and len(frame["payload"]["cards"]) == 3
        assert frame["seq"] == shown["seq"]
    for client in (alice, bob, visitor):
        await client.close()


async def test_r_show_3_show_needs_a_hand_id(table, players):
    alice = await TableClient.open(table.pk, players[0])

    reply = await alice.reply_to({"type": "show"})

    assert reply["type"] == "error" and reply["code"] == "missing_field"
    await alice.close()


async def test_r_show_3_muck_losing_hands_is_set_from_the_table(table, players):
    alice = await TableClient.open(table.pk, players[0])
    assert (await alice.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]

    reply = await alice.request({"type": "auto_muck", "on": False}, "result")

    assert reply["ok"] and reply["command"] == "auto_muck"
    snapshot = await alice.request({"type": "snapshot"}, "snapshot")
    assert snapshot["viewer"]["auto_muck"] is False
    await database_sync_to_async(players[0].refresh_from_db)()
    assert players[0].auto_muck is False
    bad = await alice.reply_to({"type": "auto_muck", "on": "no"})
    assert bad["type"] == "error" and bad["code"] == "bad_field"
    await alice.close()
