"""No frame sent to anyone holds another player's down card before it is shown.

Three players and a visitor record every frame of a whole hand played to showdown over the
WebSocket (the deck stacked, each player asking for a snapshot on their turn, as a client
would). Then every frame is searched for the down cards of the others.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables import services
from tables.models import Hand
from tests.consumer_helpers import (
    BUY_IN,
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    engine_of,
    make_player,
    make_table,
    stacked_deck,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# Keys under which a frame may carry cards that are not up cards.
HIDDEN_KEYS = {"down", "cards", "shown", "hole", "hole_cards", "deck"}


def _cards_under_hidden_keys(value: Any, found: list[int]) -> list[int]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in HIDDEN_KEYS:
                _all_ints(inner, found)
            else:
                _cards_under_hidden_keys(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _cards_under_hidden_keys(inner, found)
    return found


def _all_ints(value: Any, found: list[int]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        found.append(value)
    elif isinstance(value, list):
        for inner in value:
            _all_ints(inner, found)
    elif isinstance(value, dict):
        for inner in value.values():
            _all_ints(inner, found)


def _shown_seats(frame: dict[str, Any]) -> set[int]:
    if frame.get("type") == "event" and frame.get("kind") == "show":
        return {frame["payload"]["seat"]}
    return set()


async def _play_to_showdown(clients: dict[int, TableClient], table_id: int) -> Hand:
    """Each player, on their turn, asks for a snapshot and checks or calls."""
    for _ in range(60):
        hand = await database_sync_to_async(
            lambda: Hand.objects.filter(table_id=table_id).order_by("-pk").first()
        )()
        engine = engine_of(hand)
        if engine.is_over:
            return hand
        client = clients[engine.to_act]
        snapshot = await client.request({"type": "snapshot"}, "snapshot")
        offers = {o["kind"]: o for o in snapshot["hand"]["state"]["legal_actions"]}
        choice = offers.get("check") or offers.get("call") or offers.get("bring_in")
        assert choice is not None, offers
        reply = await client.request(
            {
                "type": "act",
                "seq": snapshot["hand"]["seq"],
                "kind": choice["kind"],
                "amount": choice["amount"],
            },
            "result",
        )
        assert reply["ok"], reply
    raise AssertionError("the hand did not end")


async def test_no_frame_holds_another_players_down_card_before_it_is_shown():
    table = await database_sync_to_async(make_table)()
    players = [await database_sync_to_async(make_player)() for _ in range(3)]
    clients: dict[int, TableClient] = {}
    for number, player in enumerate(players, start=1):
        client = await TableClient.open(table.pk, player)
        reply = await client.request({"type": "sit", "seat": number, "buy_in": BUY_IN}, "result")
        assert reply["ok"], reply
        clients[number] = client
    visitor = await TableClient.open(table.pk)
    dealt = await database_sync_to_async(services.hand_start)(
        table_id=table.pk, deck=stacked_deck(11)
    )
    assert dealt.ok, dealt

    hand = await _play_to_showdown(clients, table.pk)
    viewers: dict[int | None, TableClient] = {**clients, None: visitor}
    for client in viewers.values():
        await client.drain(0.2)

    engine = engine_of(hand)
    assert engine.is_over
    down = {p.seat: set(engine.down[i]) for i, p in enumerate(engine.players)}
    assert any(f.get("kind") == "showdown" for f in visitor.frames), "the hand must reach showdown"

    checked = 0
    for viewer_seat, client in viewers.items():
        shown: set[int] = set()
        for frame in client.frames:
            shown |= _shown_seats(frame)
            visible = _cards_under_hidden_keys(frame, [])
            for seat, cards in down.items():
                if seat == viewer_seat or seat in shown:
                    continue
                leaked = cards & set(visible)
                assert not leaked, (
                    f"viewer {viewer_seat} saw seat {seat}'s down card(s) {leaked} in {frame}"
                )
            checked += 1
        # Each player did get their own down cards (privately), the visitor none.
        own = [
            f for f in client.frames if f.get("type") == "event" and f.get("kind") == "down_cards"
        ]
        if viewer_seat is None:
            assert not own
        else:
            assert own and all(f["payload"]["seat"] == viewer_seat for f in own)
            assert {c for f in own for c in f["payload"]["cards"]} == down[viewer_seat]
    assert checked > 50
    for client in viewers.values():
        await client.close()
