"""A tournament bot goes where the room seats it (R-TOUR-2), follows a move to another table
(R-TOUR-3, R-TOUR-4: the old table's socket closed, the new one's opened) and stops when it is
out (R-TOUR-7) or the tournament is over, from the room's frames alone (docs/protocol.md,
"Tournaments"), including when a "moved" notice is lost and only a snapshot says where.

The room here is a small WebSocket server in the test that speaks those frames, so each
notice comes exactly when the test says."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from bots.client import TournamentBot
from tests.room_processes import free_port

ME = 7
TOURNAMENT = 3


def _snapshot(seq: int, *, table_id: int | None, status: str = "running", place: Any = None):
    me = {"player_id": ME, "table_id": table_id, "place": place, "prize": 0}
    other = {"player_id": 8, "table_id": 11, "place": None, "prize": 0}
    return {
        "type": "tournament",
        "tournament_id": TOURNAMENT,
        "seq": seq,
        "tournament": {"status": status, "standings": [me, other]},
    }


class Room:
    """Records which table sockets the bot opened and closed, in order."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.tournament_socket: ServerConnection | None = None
        self.tables_open: set[int] = set()

    async def handle(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request is not None else ""
        if path == f"/ws/tournaments/{TOURNAMENT}/":
            self.tournament_socket = ws
            await ws.send(json.dumps(_snapshot(1, table_id=None, status="registering")))
            async for _ in ws:  # the bot's snapshot requests
                pass
            return
        table_id = int(path.strip("/").split("/")[-1])
        self.log.append(f"open {table_id}")
        self.tables_open.add(table_id)
        await ws.send(json.dumps({"type": "snapshot", "viewer": {"player_id": ME, "seat": 2}}))
        try:
            async for _ in ws:
                pass
        finally:
            self.log.append(f"close {table_id}")
            self.tables_open.discard(table_id)

    async def tell(self, frame: dict[str, Any]) -> None:
        assert self.tournament_socket is not None
        await self.tournament_socket.send(json.dumps(frame))


async def _until(check: Any, within: float = 10) -> None:
    async with asyncio.timeout(within):
        while not check():
            await asyncio.sleep(0.02)


def test_r_tour_3_a_bot_follows_its_move_and_stops_when_eliminated() -> None:
    port = free_port()
    room = Room()

    async def scenario() -> Any:
        bot = TournamentBot(
            base_url=f"http://127.0.0.1:{port}",
            tournament_id=TOURNAMENT,
            cookie="sessionid=x",
            register=False,
            seed=1,
        )
        bot.player_id = ME
        async with serve(room.handle, "127.0.0.1", port):
            playing = asyncio.create_task(bot.play(timeout=30))
            await _until(lambda: room.tournament_socket is not None)
            # The draw: the snapshot seats us at table 10.
            await room.tell(_snapshot(2, table_id=10))
            await _until(lambda: room.tables_open == {10})
            # Balancing: the notice moves us to table 12, seat 5.
            await room.tell(
                {"type": "tournament_moved", "tournament_id": TOURNAMENT, "table_id": 12, "seat": 5}
            )
            await _until(lambda: room.tables_open == {12})
            # A notice of another tournament is not ours.
            await room.tell({"type": "tournament_moved", "tournament_id": 99, "table_id": 40})
            # The merge's notice is lost: the next snapshot names the final table.
            await room.tell(_snapshot(5, table_id=13))
            await _until(lambda: room.tables_open == {13})
            # An older snapshot arriving late changes nothing.
            await room.tell(_snapshot(4, table_id=12))
            await room.tell(
                {"type": "tournament_eliminated", "tournament_id": TOURNAMENT, "place": 3}
            )
            result = await playing
            await _until(lambda: not room.tables_open)
        return result

    result = asyncio.run(scenario())
    assert result.place == 3
    assert result.tables == [10, 12, 13]
    assert result.moves == 2
    # Each table's socket was closed before the next one was opened.
    assert room.log == ["open 10", "close 10", "open 12", "close 12", "open 13", "close 13"]


def test_r_tour_7_the_winner_stops_when_the_tournament_is_finished() -> None:
    port = free_port()
    room = Room()

    async def scenario() -> Any:
        bot = TournamentBot(
            base_url=f"http://127.0.0.1:{port}",
            tournament_id=TOURNAMENT,
            cookie="sessionid=x",
            register=False,
        )
        bot.player_id = ME
        async with serve(room.handle, "127.0.0.1", port):
            playing = asyncio.create_task(bot.play(timeout=30))
            await _until(lambda: room.tournament_socket is not None)
            await room.tell(_snapshot(2, table_id=10))
            await _until(lambda: room.tables_open == {10})
            await room.tell(_snapshot(9, table_id=None, status="finished", place=1))
            result = await playing
            await _until(lambda: not room.tables_open)
        return result

    result = asyncio.run(scenario())
    assert (result.place, result.status, result.tables) == (1, "finished", [10])
