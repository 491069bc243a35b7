"""A bot whose connection is lost (the Daphne it talks to died and came back on the same port)
opens it again with a backoff and plays on from the room's snapshot, as docs/protocol.md asks
of every client; a close code that says "for good" (4404: no such table) ends it.

The room here is a small WebSocket server in the test that speaks the protocol's frames, so the
drop and the refusal while it is down happen exactly when the test says."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from websockets.asyncio.server import ServerConnection, serve

from bots.client import Bot
from tests.room_processes import free_port

SEAT = 2


def _snapshot(*, seq: int) -> dict[str, Any]:
    """The bot is seated and it is its turn, with a check offered."""
    return {
        "type": "snapshot",
        "viewer": {"player_id": 7, "seat": SEAT},
        "table": {"buy_in": 100},
        "hand": {
            "id": 1,
            "seq": seq,
            "state": {"to_act": SEAT, "legal_actions": [{"kind": "check", "amount": 0}]},
        },
        "seats": [{"number": SEAT, "player_id": 7, "stack": 100}],
    }


def test_a_bot_reconnects_after_its_server_died_and_acts_from_the_new_snapshot() -> None:
    port = free_port()
    received: list[tuple[int, dict[str, Any]]] = []  # (connection number, message)

    async def scenario() -> Bot:
        connections = 0

        async def room(ws: ServerConnection) -> None:
            nonlocal connections
            connections += 1
            number = connections
            await ws.send(json.dumps(_snapshot(seq=3)))
            async for text in ws:
                received.append((number, json.loads(text)))
                if number == 1:
                    ws.transport.abort()  # the process died: no close frame
                    return

        bot = Bot(base_url=f"http://127.0.0.1:{port}", table_id=1, cookie="sessionid=x", seed=1)
        server = await serve(room, "127.0.0.1", port)
        playing = asyncio.create_task(bot.play(timeout=30))
        while not received:
            await asyncio.sleep(0.05)
        server.close()
        await server.wait_closed()
        await asyncio.sleep(1.0)  # down: the bot's attempts are refused meanwhile
        async with serve(room, "127.0.0.1", port):
            while len(received) < 2:
                await asyncio.sleep(0.05)
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
        return bot

    bot = asyncio.run(scenario())
    acts = [(number, m["seq"]) for number, m in received if m["type"] == "act"]
    # The same turn, still the bot's in the new snapshot, is played again on the new
    # connection: the action sent on the lost one may never have arrived.
    assert acts == [(1, 3), (2, 3)]
    assert bot.stats.reconnects >= 2  # the drop, then at least one refused attempt
    assert bot.stats.snapshots == 2


def test_a_bot_stops_when_the_room_says_the_table_does_not_exist() -> None:
    port = free_port()

    async def scenario() -> None:
        async def room(ws: ServerConnection) -> None:
            await ws.send(json.dumps({"type": "error", "code": "not_found"}))
            await ws.close(code=4404)

        bot = Bot(base_url=f"http://127.0.0.1:{port}", table_id=99, cookie="sessionid=x")
        async with serve(room, "127.0.0.1", port):
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await bot.play(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        assert bot.stats.reconnects == 0

    asyncio.run(scenario())
