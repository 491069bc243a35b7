"""The tournament's live frames over WebSocket (docs/protocol.md, "Tournaments"): a
translator, nothing more. Three routes:

  ws/tournaments/                   the lobby's Tournaments tab: `tournament_row` frames
  ws/tournaments/<id>/              a tournament's page and clock: `tournament` snapshots
  ws/tournaments/tables/<table id>/ a tournament table's panel: the same, found by its table

On connect the client gets the current snapshot (or the lobby's rows); after that, every
change's frame (tournaments/broadcast.py). A logged-in player also joins their own group for
the "moved" and "eliminated" notices. A client may send only `snapshot` and `ping`, declared
in tournaments/commands.py and decoded by it.

Every message spends from the socket's budgets, as a table socket's do (`tables.flood.
SocketGuard`: its own bucket, its player's and its address's, shared across processes); a
message over `MAX_FRAME_BYTES`, or a `ref` longer than `REF_MAX_CHARS`, is refused unread.
Snapshots asked for again are served from a short cache keyed by the tournament's `seq`
(`SNAPSHOT_CACHE_SECONDS`), their clock computed afresh (issue #22).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import msgspec
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from tables.flood import SocketGuard
from tables.realtime.protocol import MAX_FRAME_BYTES
from tournaments import commands, selectors
from tournaments.broadcast import LOBBY_GROUP, player_group, tournament_group
from tournaments.commands import TournamentErrorCode
from tournaments.frames import (
    TournamentError,
    TournamentFrameBase,
    TournamentPong,
    TournamentRows,
    TournamentSnapshot,
    frame_text,
)
from tournaments.models import Tournament, TournamentTable

PONG = TournamentPong()
CLOSE_NOT_FOUND = 4404
# A socket refused for flooding again and again is closed (the table socket's code).
CLOSE_ABUSIVE = 4008
MAX_ID = 2**63 - 1
# How long a tournament's snapshot, at one seq, is served again without being rebuilt: a
# change raises the seq (a new snapshot at once); what moves without one (the clock) is
# computed at each answer.
SNAPSHOT_CACHE_SECONDS = 1.0


def error_frame(code: TournamentErrorCode, message: str) -> TournamentError:
    return TournamentError(code=code.value, message=message)


# (tournament id, seq) -> (monotonic time built, snapshot): this process's recent snapshots.
_recent_snapshots: dict[tuple[int, int], tuple[float, dict[str, Any]]] = {}
_recent_lock = threading.Lock()  # the snapshots are built in the database threads
_building: dict[int, threading.Lock] = {}


def _snapshot_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's snapshot: built once per seq and `SNAPSHOT_CACHE_SECONDS`, however
    many sockets ask; the clock always of now."""
    key = (tournament.pk, tournament.seq)
    with _recent_lock:
        building = _building.setdefault(tournament.pk, threading.Lock())
    # One build at a time per tournament: the sockets asking meanwhile wait for it and take
    # it, rather than each building the same snapshot.
    with building:
        now = time.monotonic()
        with _recent_lock:
            recent = _recent_snapshots.get(key)
        if recent is None or now - recent[0] > SNAPSHOT_CACHE_SECONDS:
            recent = (now, selectors.tournament_snapshot(tournament))
            with _recent_lock:
                for stale in [
                    k
                    for k, (at, _) in _recent_snapshots.items()
                    if now - at > SNAPSHOT_CACHE_SECONDS
                ]:
                    del _recent_snapshots[stale]
                _recent_snapshots[key] = recent
    return {**recent[1], "clock": selectors.clock_public(tournament, timezone.now())}


def _snapshot_frame(tournament_id: int) -> TournamentSnapshot | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    snapshot = _snapshot_of(tournament)
    return TournamentSnapshot(tournament_id=tournament.pk, seq=snapshot["seq"], tournament=snapshot)


def _lobby_frame() -> TournamentRows:
    return TournamentRows(rows=selectors.lobby_rows())


def _tournament_of_table(table_id: int) -> int | None:
    return (
        TournamentTable.objects.filter(table_id=table_id)
        .values_list("tournament_id", flat=True)
        .first()
    )


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of the lobby's tournaments, of one tournament, or of a tournament table."""

    tournament_id: int | None
    groups_joined: list[str]

    @property
    def player(self) -> Any:
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    async def connect(self) -> None:
        self.groups_joined = []
        self.tournament_id = None
        self.closing = False
        self.guard = SocketGuard(self.scope, None if self.player is None else self.player.pk)
        await self.accept()
        kwargs = self.scope["url_route"]["kwargs"]
        if "table_id" in kwargs:
            table_id = int(kwargs["table_id"])
            if 0 < table_id <= MAX_ID:
                self.tournament_id = await database_sync_to_async(_tournament_of_table)(table_id)
            if self.tournament_id is None:
                await self._not_found("no tournament at this table")
                return
        elif "tournament_id" in kwargs:
            tournament_id = int(kwargs["tournament_id"])
            self.tournament_id = tournament_id if 0 < tournament_id <= MAX_ID else None
            if self.tournament_id is None:
                await self._not_found("no such tournament")
                return
        if self.tournament_id is None:
            await self._join(LOBBY_GROUP)
        else:
            await self._join(tournament_group(self.tournament_id))
        if self.player is not None:
            await self._join(player_group(self.player.pk))
        # Joined first, then the snapshot: any change after it is already queued for us.
        frame = await self._snapshot()
        if frame is None:
            await self._not_found("no such tournament")
            return
        await self.send_json(frame)

    async def _not_found(self, why: str) -> None:
        await self.send_json(error_frame(TournamentErrorCode.NOT_FOUND, why))
        await self.close(code=CLOSE_NOT_FOUND)

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _snapshot(self) -> TournamentSnapshot | TournamentRows | None:
        if self.tournament_id is None:
            return await database_sync_to_async(_lobby_frame, thread_sensitive=False)()
        return await database_sync_to_async(_snapshot_frame, thread_sensitive=False)(
            self.tournament_id
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        refused = await self.guard.refusal()
        if refused is not None:
            await self._refuse_flood(refused)
            return
        if len(text_data or "") > MAX_FRAME_BYTES or bytes_data is not None:
            await self.send_json(
                error_frame(
                    TournamentErrorCode.TOO_LARGE, f"a message is at most {MAX_FRAME_BYTES} bytes"
                )
            )
            return
        try:
            command = commands.parse_command(text_data or "")
        except commands.TournamentRefused as refusal:
            error = error_frame(refusal.code, refusal.message)
            if refusal.ref is not None:
                error = msgspec.structs.replace(error, ref=refusal.ref)
            await self.send_json(error)
            return
        reply: TournamentFrameBase | None
        if isinstance(command, commands.Ping):
            reply = PONG
        else:
            reply = await self._snapshot()
        if reply is None:
            reply = error_frame(TournamentErrorCode.NOT_FOUND, "no such tournament")
        if command.ref is not None:
            reply = msgspec.structs.replace(reply, ref=command.ref)
        await self.send_json(reply)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """A declared frame (tournaments/frames.py) is encoded by msgspec."""
        if isinstance(content, TournamentFrameBase):
            await self.send(text_data=frame_text(content), close=close)
            return
        await super().send_json(content, close)

    async def _refuse_flood(self, why: str) -> None:
        if self.guard.abusive:
            self.closing = True
            await self.send_json(error_frame(TournamentErrorCode.RATE_LIMITED, f"{why}: goodbye"))
            await self.close(code=CLOSE_ABUSIVE)
        else:
            await self.send_json(error_frame(TournamentErrorCode.RATE_LIMITED, f"{why}: slow down"))

    async def tournament_frames(self, message: dict[str, Any]) -> None:
        """A change's frames for one of our groups, already JSON text (broadcast.py)."""
        for text in message["texts"]:
            await self.send(text_data=text)
