"""The benchmark's own parts (benchmarks/tables.py, benchmarks/floor.py, issue #15): the
transport floor's consumer plays a table's turn round through the channel layer, the stepped
search stops at the first step that fails, and a bot at human pace thinks before it acts,
never acts on a turn that has gone, and counts its time-outs and events out of order."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

import bots.client
from benchmarks.floor import HAND_ACTIONS, action_message, application_factory, seat_of
from benchmarks.tables import Run, stepped_search
from bots.client import Bot

TABLE = 7


def _texts(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(text) for text in message["texts"]]


def test_the_floor_passes_the_turn_round_the_table_and_deals_a_new_hand_after_the_last_action():
    middle = action_message(TABLE, 70, 4, 5, "call", 10)
    assert [(e["seq"], e["kind"], e["to_act"]) for e in _texts(middle)] == [(5, "action", 0)]
    assert json.loads(middle["turn"]) == {
        "type": "your_turn",
        "hand_id": 70,
        "seq": 5,
        "legal_actions": [{"kind": "call", "amount": 10, "adds": 10}],
    }
    last = action_message(TABLE, 70, HAND_ACTIONS - 1, 2, "call", 10)
    assert [(e["hand_id"], e["seq"], e["kind"]) for e in _texts(last)] == [
        (70, HAND_ACTIONS, "action"),
        (70, HAND_ACTIONS + 1, "hand_end"),
        (71, 1, "deal"),
    ]
    assert last["to_act"] == 3
    assert json.loads(last["turn"])["hand_id"] == 71


def test_the_floor_reads_the_seat_from_its_cookie():
    assert seat_of([(b"cookie", b"a=b; floorseat=4")]) == 4
    assert seat_of([(b"origin", b"x")]) == 0


@pytest.mark.asyncio
async def test_one_action_at_the_floor_is_a_reply_to_the_actor_and_the_event_to_all_six():
    application = application_factory()
    sockets = []
    for seat in range(6):
        socket = WebsocketCommunicator(
            application, f"/ws/tables/{TABLE}/", headers=[(b"cookie", f"floorseat={seat}".encode())]
        )
        assert (await socket.connect())[0]
        snapshot = await socket.receive_json_from()
        assert snapshot["viewer"]["seat"] == seat and snapshot["hand"] is None
        sockets.append(socket)
    await sockets[3].send_json_to({"type": "start", "hand_id": 700})
    for socket in sockets:
        deal = await socket.receive_json_from()
        assert (deal["hand_id"], deal["seq"], deal["to_act"]) == (700, 1, 0)
    assert (await sockets[0].receive_json_from())["type"] == "your_turn"

    await sockets[0].send_json_to(
        {"type": "act", "hand_id": 700, "seq": 1, "kind": "call", "amount": 10, "ref": "a1"}
    )
    assert await sockets[0].receive_json_from() == {
        "type": "result",
        "command": "act",
        "ok": True,
        "status": "ok",
        "ref": "a1",
    }
    for socket in sockets:
        event = await socket.receive_json_from()
        assert (event["seq"], event["payload"]["seat"], event["to_act"]) == (2, 0, 1)
    assert (await sockets[1].receive_json_from())["type"] == "your_turn"
    for socket in sockets:
        assert await socket.receive_nothing()
        await socket.disconnect()


def test_the_stepped_search_stops_at_the_first_step_that_fails():
    tried = []

    def holds(count: int) -> bool:
        tried.append(count)
        return count <= 200

    assert stepped_search([300, 50, 200, 100, 500], holds) == (200, 300)
    assert tried == [50, 100, 200, 300]
    assert stepped_search([50], lambda count: False) == (None, 50)
    assert stepped_search([50, 100], lambda count: True) == (100, None)


def _run(latencies: list[float], **counters: int) -> Run:
    bots_seen = {
        "latencies": latencies,
        "replies": [],
        "timeouts": 0,
        "stale_acts": 0,
        "connected": 6,
        "bots": 6,
        **counters,
    }
    return Run("r", 1, "human", 2, 10.0, 0.0, 6, {}, [], [], bots=bots_seen)


def test_a_step_holds_with_p99_under_100_ms_no_time_out_and_every_bot_connected():
    quick = [0.02] * 99 + [0.09]
    assert _run(quick).held()
    assert not _run([0.02] * 90 + [0.15] * 10).held()
    assert not _run(quick, timeouts=1).held()
    assert not _run(quick, stale_acts=1).held()
    assert not _run(quick, connected=5).held()


SEAT = 2


def _turn(seq: int) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "viewer": {"player_id": 9, "seat": SEAT},
        "table": {"buy_in": 100},
        "hand": {
            "id": 1,
            "seq": seq,
            "state": {"to_act": SEAT, "legal_actions": [{"kind": "check", "amount": 0}]},
        },
        "seats": [],
    }


class _Thinking:
    """A bot whose thinking the test releases: asyncio.sleep records the delay and waits."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.delays: list[float] = []
        self.release = asyncio.Event()
        self.sent: list[dict[str, Any]] = []
        self.bot = Bot(base_url="http://127.0.0.1:1", table_id=1, cookie="c", think=(1.0, 6.0))
        self.bot._ws = object()  # type: ignore[assignment]  # the connection it acts on
        self.yield_once = asyncio.sleep

        async def send(message: dict[str, Any]) -> None:
            self.sent.append(message)

        async def think(delay: float) -> None:
            self.delays.append(delay)
            await self.release.wait()

        self.bot.send = send  # type: ignore[method-assign]
        monkeypatch.setattr(bots.client.asyncio, "sleep", think)

    async def settle(self) -> None:
        for _ in range(5):
            await self.yield_once(0)


@pytest.mark.asyncio
async def test_a_bot_at_human_pace_acts_after_thinking_one_to_six_seconds(monkeypatch):
    thinking = _Thinking(monkeypatch)
    await thinking.bot.on_frame(_turn(seq=4))
    await thinking.settle()
    assert thinking.sent == []
    assert len(thinking.delays) == 1 and 1.0 <= thinking.delays[0] <= 6.0
    thinking.release.set()
    await thinking.settle()
    assert [(m["type"], m["seq"], m["kind"]) for m in thinking.sent] == [("act", 4, "check")]


@pytest.mark.asyncio
async def test_a_thinking_bot_whose_turn_the_clock_took_sends_nothing_and_counts_it(monkeypatch):
    thinking = _Thinking(monkeypatch)
    await thinking.bot.on_frame(_turn(seq=4))
    await thinking.settle()
    await thinking.bot.on_frame(
        {"type": "event", "hand_id": 1, "seq": 5, "kind": "timeout", "payload": {"seat": SEAT}}
    )
    thinking.release.set()
    await thinking.settle()
    assert thinking.sent == []
    assert thinking.bot.stats.timeouts == 1


@pytest.mark.asyncio
async def test_a_frame_of_a_hand_that_comes_after_the_next_hand_began_is_out_of_order():
    bot = Bot(base_url="http://127.0.0.1:1", table_id=1, cookie="c")
    bot.seat = SEAT

    def event(hand_id: int, seq: int) -> dict[str, Any]:
        return {"type": "event", "hand_id": hand_id, "seq": seq, "kind": "deal", "payload": {}}

    for frame in (event(1, 1), event(1, 2), event(1, 2), event(2, 1), event(1, 2)):
        await bot.on_frame(frame)
    assert (bot.stats.out_of_order, bot.stats.gaps) == (0, 0)  # duplicates are not
    await bot.on_frame(event(1, 3))
    assert (bot.stats.out_of_order, bot.stats.gaps) == (1, 0)


@pytest.mark.django_db
def test_the_bench_seats_funded_players_whose_sessions_log_them_in():
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db.models import Sum

    from accounts.models import LedgerEntry, Player
    from benchmarks.tables import BANKROLL, seat_bots

    seats = seat_bots(2, 40)
    assert len(seats) == 12 and len({table_id for table_id, _ in seats}) == 2
    for table_id, cookie in seats:
        session = SessionStore(session_key=cookie.split("=", 1)[1])
        player = Player.objects.get(pk=session[SESSION_KEY])
        assert player.username.startswith(f"bench{40 + (table_id != seats[0][0])}-")
        ledger = LedgerEntry.objects.filter(player=player).aggregate(total=Sum("amount"))
        assert player.balance == ledger["total"] == BANKROLL
        assert not player.has_usable_password()
