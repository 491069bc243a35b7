"""A bot in a tournament: registers through the API and follows its seat over the
tournament's WebSocket, playing at whatever table the tournament puts it (bots/client.py's
`Bot` at each table, never sitting down itself: the draw seats it, R-TOUR-2). A move
(R-TOUR-3, R-TOUR-4) takes it to the new table; it stops when it is out or the tournament
is over. Like bots/client.py it talks to the room only over HTTP and WebSocket.

    bot = TournamentBot(base_url="http://127.0.0.1:8000", tournament_id=1,
                        username="bot1", password="...")
    await bot.register()
    result = await bot.follow()          # TournamentBotResult: place, tables, moves
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

from bots.client import Bot, _origin, http_login, http_url_of

logger = logging.getLogger(__name__)

# Statuses after which nothing more happens.
OVER = frozenset({"finished", "cancelled"})


class TournamentBotRefused(RuntimeError):
    pass


def _api(
    base_url: str, path: str, *, token: str | None = None, data: dict[str, Any] | None = None
) -> tuple[int, Any]:
    """One API call (JSON answer): (status, body)."""
    url = urllib.parse.urljoin(_origin(base_url), path)
    headers = {"Accept": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    body = None if data is None else urllib.parse.urlencode(data).encode()
    method = "GET" if data is None else "POST"
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def tournament_ws_url(base_url: str, tournament_id: int) -> str:
    parts = urllib.parse.urlsplit(base_url)
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}/ws/tournaments/{tournament_id}/"


@dataclass
class TournamentBotResult:
    place: int | None = None
    prize: int = 0
    tables: list[int] = field(default_factory=list)  # every table it played at, in order
    notices: list[dict[str, Any]] = field(default_factory=list)  # moved / eliminated frames
    status: str = ""


class TournamentBot:
    def __init__(
        self,
        *,
        base_url: str,
        tournament_id: int,
        username: str,
        password: str,
        policy: str = "call",
        seed: int | None = None,
    ) -> None:
        self.base_url = http_url_of(base_url)
        self.tournament_id = tournament_id
        self.username = username
        self.password = password
        self.policy = policy
        self.seed = seed
        self.player_id: int | None = None
        self.result = TournamentBotResult()
        self._table_id: int | None = None
        self._playing: asyncio.Task[Any] | None = None

    async def register(self) -> None:
        """Register through the API (a token from the username and password); already
        registered is fine, any other refusal raises with the room's words."""
        status, body = await asyncio.to_thread(
            _api,
            self.base_url,
            "/api/token/",
            data={"username": self.username, "password": self.password},
        )
        if status != 200:
            raise TournamentBotRefused(f"{self.username}: no API token ({status} {body})")
        token = body["token"]
        _, me = await asyncio.to_thread(_api, self.base_url, "/api/me/", token=token)
        self.player_id = int(me["id"])
        path = f"/api/tournaments/{self.tournament_id}/register/"
        status, body = await asyncio.to_thread(_api, self.base_url, path, token=token, data={})
        if status != 200 and (body or {}).get("code") != "already_registered":
            raise TournamentBotRefused(f"{self.username}: {body}")

    async def follow(self, *, timeout: float | None = None) -> TournamentBotResult:
        """Play at the tournament's tables until out or over."""
        cookie = await asyncio.to_thread(http_login, self.base_url, self.username, self.password)
        try:
            async with asyncio.timeout(timeout):
                while not await self._follow_one_connection(cookie):
                    await asyncio.sleep(0.5)  # lost: the snapshot on reconnect says where
        finally:
            await self._stop_playing()
        return self.result

    async def _follow_one_connection(self, cookie: str) -> bool:
        try:
            async with websockets.connect(
                tournament_ws_url(self.base_url, self.tournament_id),
                additional_headers={"Cookie": cookie},
                origin=_origin(self.base_url),  # type: ignore[arg-type]
                max_size=2**22,
                open_timeout=5,
            ) as ws:
                async for text in ws:
                    if await self.on_frame(json.loads(text), cookie):
                        return True
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 4404:
                raise TournamentBotRefused(f"no tournament {self.tournament_id}") from closed
        except (OSError, TimeoutError, websockets.InvalidHandshake) as failed:
            logger.info("%s: cannot connect (%s), retrying", self.username, failed)
        return False

    async def on_frame(self, frame: dict[str, Any], cookie: str) -> bool:
        """True when the bot is done (out, or the tournament is over)."""
        kind = frame.get("type")
        if kind == "tournament_moved":
            self.result.notices.append(frame)
            await self._play_at(int(frame["table_id"]), cookie)
        elif kind == "tournament_eliminated":
            self.result.notices.append(frame)
            self.result.place, self.result.prize = frame["place"], frame.get("prize") or 0
            return True
        elif kind == "tournament":
            tournament = frame["tournament"]
            self.result.status = tournament["status"]
            mine = next(
                (s for s in tournament["standings"] if s["player_id"] == self.player_id), None
            )
            if mine is not None and mine["place"] is not None:
                self.result.place, self.result.prize = mine["place"], mine["prize"]
                return True
            if tournament["status"] in OVER:
                return True
            if mine is not None and mine["table_id"] is not None:
                await self._play_at(int(mine["table_id"]), cookie)
        return False

    async def _play_at(self, table_id: int, cookie: str) -> None:
        if table_id == self._table_id:
            return
        await self._stop_playing()
        self._table_id = table_id
        self.result.tables.append(table_id)
        bot = Bot(
            base_url=self.base_url,
            table_id=table_id,
            username=self.username,
            cookie=cookie,
            policy=self.policy,
            seed=self.seed,
            sit=False,  # the tournament seats it
        )
        self._playing = asyncio.create_task(bot.play())

    async def _stop_playing(self) -> None:
        if self._playing is not None:
            self._playing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._playing
            self._playing = None
