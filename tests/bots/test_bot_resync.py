"""Issue #22: the bot client mends what an outage lost without waiting for a later frame.

- Its pings carry the last (hand_id, seq) it holds, and the snapshot the room sends a bot
  that is behind gives it the turn it never heard of.
- An action answered `internal` (the room failed, nothing applied: a database restarting)
  or not answered at all is sent again, with the same seq, until it is applied or refused.

The room is a small WebSocket server in the test that speaks the protocol's frames."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from bots import client
from bots.client import Bot
from tests.room_processes import free_port

SEAT = 2
CHECK = [{"kind": "check", "amount": 0}]


def _snapshot(*, seq: int, to_act: int) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "viewer": {"player_id": 7, "seat": SEAT},
        "table": {"buy_in": 100},
        "hand": {
            "id": 1,
            "seq": seq,
            "state": {"to_act": to_act, "legal_actions": CHECK if to_act == SEAT else []},
        },
        "seats": [{"number": SEAT, "player_id": 7, "stack": 100}],
    }


Room = Callable[[ServerConnection, dict[str, Any], list[dict[str, Any]]], Awaitable[None]]


def _play_against(room: Room, *, until: Callable[[list[dict[str, Any]]], bool]) -> list[Any]:
    """Run a bot against `room` (called with each message the bot sends) until `until`
    holds of the messages received; returns them."""
    port = free_port()
    received: list[dict[str, Any]] = []

    async def scenario() -> None:
        async def serve_one(ws: ServerConnection) -> None:
            await ws.send(json.dumps(_snapshot(seq=3, to_act=SEAT)))
            async for text in ws:
                message = json.loads(text)
                received.append(message)
                await room(ws, message, received)

        bot = Bot(base_url=f"http://127.0.0.1:{port}", table_id=1, cookie="sessionid=x", seed=1)
        async with serve(serve_one, "127.0.0.1", port):
            playing = asyncio.create_task(bot.play(timeout=30))
            async with asyncio.timeout(20):
                while not until(received):
                    await asyncio.sleep(0.02)
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

    asyncio.run(scenario())
    return received


def _acts(received: list[dict[str, Any]]) -> list[tuple[int, str, Any]]:
    return [(m["seq"], m["kind"], m.get("ref")) for m in received if m["type"] == "act"]


async def _answer_applied(ws: ServerConnection, act: dict[str, Any]) -> None:
    """The room's answer to an action it applied: the hand moves on to seq 4."""
    applied = {
        "type": "result",
        "command": "act",
        "ok": True,
        "status": "applied",
        "ref": act["ref"],
        "seq": 4,
    }
    await ws.send(json.dumps(applied))


@pytest.fixture(autouse=True)
def quick_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "PING_EVERY", 0.1)
    monkeypatch.setattr(client, "ACT_REPLY_WAIT", 0.3)


def test_an_action_answered_internal_is_sent_again_with_the_same_seq_until_applied() -> None:
    answers = iter(["internal", "internal", "applied"])

    async def room(ws: ServerConnection, message: dict[str, Any], _: list[Any]) -> None:
        if message["type"] != "act":
            return
        answer = next(answers, "applied")
        if answer == "internal":
            await ws.send(json.dumps({"type": "error", "code": "internal", "ref": message["ref"]}))
        else:
            await _answer_applied(ws, message)

    received = _play_against(room, until=lambda got: len(_acts(got)) >= 3)
    acts = _acts(received)
    assert acts[:3] == [(3, "check", acts[0][2])] * 3  # the same action, same seq, same ref
    assert len(acts) == 3


def test_an_action_not_answered_is_sent_again() -> None:
    async def room(ws: ServerConnection, message: dict[str, Any], got: list[Any]) -> None:
        if message["type"] == "act" and len(_acts(got)) >= 2:
            await _answer_applied(ws, message)

    received = _play_against(room, until=lambda got: len(_acts(got)) >= 2)
    assert [a[:2] for a in _acts(received)] == [(3, "check"), (3, "check")]


def test_an_idle_bot_that_missed_its_turn_gets_it_from_the_snapshot_its_ping_brings() -> None:
    """The bot acts at seq 3; the frames that gave it the turn again at seq 4 were lost. Its
    ping says it holds seq 3: the room sends the snapshot, and the bot acts at seq 4."""

    async def room(ws: ServerConnection, message: dict[str, Any], _: list[Any]) -> None:
        if message["type"] == "act" and message["seq"] == 3:
            await _answer_applied(ws, message)  # ... and the events of seq 4 are lost on the way
        if message["type"] == "ping" and message.get("seq") == 3:
            assert message["hand_id"] == 1
            await ws.send(json.dumps(_snapshot(seq=4, to_act=SEAT)))
            await ws.send(json.dumps({"type": "pong"}))

    received = _play_against(room, until=lambda got: any(a[0] == 4 for a in _acts(got)))
    assert [a[:2] for a in _acts(received)] == [(3, "check"), (4, "check")]
    pings = [m for m in received if m["type"] == "ping"]
    assert pings and pings[0] == {"type": "ping", "hand_id": 1, "seq": 3}
