"""What the consumer tests share: a logged-in WebSocket client that records every frame, a
table with players (the `table` and `players` fixtures are in tests/tables/conftest.py),
seating them and dealing a hand from a stacked deck, and scheduling held still so the test
deals the hands."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import Player
from pokerroom.asgi import application
from stud import StudHand
from tables import services
from tables.models import Hand, Seat, Table
from tables.services import scheduling
from tests.factories import PlayerFactory, funded

ORIGIN_HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
BUY_IN = 2000


@pytest.fixture(autouse=True)
def consumer_test_room(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """Import into a consumer test module: the in-process channel layer (these tests are about
    the consumer; tests/tables/test_consumer_scale_out.py runs on Redis), and no task
    runs on its own: the test deals each hand (with a stacked deck) and no clock expires (no
    sweep runs in tests, and a deadline near enough for its service to send its own task is
    held here too)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)


def make_table(**overrides: Any) -> Table:
    fields: dict[str, Any] = {
        "name": f"Test table {random.randrange(10**9)}",
        "game": "stud",
        "small_bet": 200,
        "big_bet": 400,
        "ante": 25,
        "bring_in": 50,
        "buy_in": BUY_IN,
        "time_bank": 0,  # R-BET-7's bank off unless asked: the clock's end is R-TIME-1
        **overrides,
    }
    return Table.objects.create(**fields)


def make_player(cents: int = 100_000) -> Player:
    player = PlayerFactory()
    funded(player, cents)
    return player


def session_cookie(player: Player) -> bytes:
    client = Client()
    client.force_login(player)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def stacked_deck(seed: int = 7) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


class TableClient:
    """One WebSocket connection to a table, logged in as ``player`` (None: a visitor)."""

    def __init__(self, table_id: int, player: Player | None, cookie: bytes | None) -> None:
        headers = list(ORIGIN_HEADERS)
        if cookie is not None:
            headers.append((b"cookie", cookie))
        self.player = player
        self.table_id = table_id
        self.communicator = WebsocketCommunicator(
            application, f"/ws/tables/{table_id}/", headers=headers
        )
        self.frames: list[dict[str, Any]] = []
        self.read = 0  # frames[:read] were already handed out by next_frame

    @classmethod
    async def open(cls, table_id: int, player: Player | None = None) -> TableClient:
        cookie = None if player is None else await database_sync_to_async(session_cookie)(player)
        client = cls(table_id, player, cookie)
        connected, _ = await client.communicator.connect()
        assert connected
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.communicator.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Every frame that arrives until the connection is quiet for ``quiet`` seconds."""
        got: list[dict[str, Any]] = []
        while not await self.communicator.receive_nothing(timeout=quiet):
            output = await self.communicator.receive_output(timeout=1)
            if output["type"] == "websocket.close":
                self.frames.append({"type": "_closed", "code": output.get("code")})
                break
            import json

            frame = json.loads(output["text"])
            self.frames.append(frame)
            got.append(frame)
        return got

    async def wait_for(
        self, matches: Callable[[dict[str, Any]], bool], *, within: float = 3.0
    ) -> dict[str, Any]:
        """The first frame not yet handed out that matches (earlier ones stay recorded)."""
        deadline = asyncio.get_running_loop().time() + within
        while True:
            while self.read < len(self.frames):
                frame = self.frames[self.read]
                self.read += 1
                if matches(frame):
                    return frame
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no matching frame; got {self.frames[-5:]}")
            await self.drain(0.02)

    async def request(self, message: dict[str, Any], reply_type: str) -> dict[str, Any]:
        ref = f"r{len(self.frames)}-{random.randrange(10**6)}"
        await self.send({**message, "ref": ref})
        return await self.wait_for(lambda f: f.get("ref") == ref and f["type"] == reply_type)

    async def reply_to(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message and return the frame answering it (result or error)."""
        ref = f"r{len(self.frames)}-{random.randrange(10**6)}"
        await self.send({**message, "ref": ref})
        return await self.wait_for(lambda f: f.get("ref") == ref)

    async def close(self) -> None:
        await self.communicator.disconnect()


async def seated_clients(table_id: int, players: Sequence[Player]) -> list[TableClient]:
    """A connection for each player, who sits with the buy-in in seat 1, 2, ... in order."""
    clients = [await TableClient.open(table_id, player) for player in players]
    for number, client in enumerate(clients, start=1):
        await client.wait_for(lambda f: f["type"] == "snapshot")
        reply = await client.request({"type": "sit", "seat": number, "buy_in": BUY_IN}, "result")
        assert reply["ok"], reply
    return clients


async def deal_hand(table_id: int, deck: list[int] | None = None) -> int:
    """Deals the table's next hand from ``deck`` (default: `stacked_deck()`); its id."""
    dealt = await database_sync_to_async(services.hand_start)(
        table_id=table_id, deck=stacked_deck() if deck is None else deck
    )
    assert dealt.ok and dealt.hand_id is not None, dealt
    return dealt.hand_id


# --- reads for assertions (tests only; the consumer never queries) ----------------------------


def current_hand(table_id: int) -> Hand | None:
    return Hand.objects.filter(table_id=table_id, ended_at__isnull=True).order_by("-pk").first()


def engine_of(hand: Hand) -> StudHand:
    return StudHand.from_json(hand.state)


def seat_of(table_id: int, player: Player) -> int:
    return Seat.objects.get(table_id=table_id, player=player).number


def stacks_and_balances(table_id: int) -> tuple[dict[int, int], dict[int, int], int | None]:
    stacks = dict(Seat.objects.filter(table_id=table_id).values_list("number", "stack"))
    balances = dict(Player.objects.values_list("pk", "balance"))
    hand = current_hand(table_id)
    return stacks, balances, None if hand is None else hand.seq
