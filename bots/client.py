"""A bot player: logs in over HTTP like a browser and plays over the real WebSocket protocol.

It knows no rule of poker: it acts only from the ``legal_actions`` the room offers it in a
snapshot, and it keeps its view whole the way any client must (docs/protocol.md): events are
numbered by the hand's seq, a gap or a reconnect asks for a snapshot.

    bot = Bot(base_url="http://127.0.0.1:8000", username="bot1", password="...", table_id=1)
    stats = await bot.play(hands=10)      # BotStats: hands seen, actions, latencies

A tournament bot (``TournamentBot``) registers over the room's API, follows the tournament
over its socket (docs/protocol.md, "Tournaments") and plays at whichever table the room seats
it: a ``Bot`` per table, the old one's socket closed when it is moved, until it is out or
the tournament is over:

    bot = TournamentBot(base_url=..., tournament_id=3, username="tbot1", password="...")
    result = await bot.play()             # TournamentResult: place, prize, tables, moves

It buys the tournament's add-on over the API as a player would (``ADD_ON_POLICIES``; by
default when it is offered and the bot's stack is at or below the starting stack).

The benchmark reads ``BotStats.broadcast_latencies``: seconds from sending an action to
receiving the table's event for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import logging
import random
import re
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

logger = logging.getLogger(__name__)

POLICIES = ("call", "random")
# Seconds to wait for the your_turn frame (the offers) before asking for a snapshot instead:
# a fallback for a lost frame, well inside the action clock. Not shorter: on a busy room a
# late frame is common, and a snapshot costs the room far more than the frame.
TURN_FRAME_WAIT = 3.0
# Seconds after which a snapshot asked for and not received is asked for again: the request
# or its answer can be lost (refused by the rate limit, a dropped frame), and a bot waiting
# on it forever would skip every later event as a gap.
SNAPSHOT_RETRY = 3.0
# Seconds between pings, each carrying the last (hand_id, seq) the bot holds: a bot that is
# behind (a frame lost on the way, or in an outage) is sent a snapshot, so even a bot that
# waits for a turn frame that never came is mended within one ping (docs/protocol.md).
PING_EVERY = 2.0
# Seconds an action may go unanswered before it is sent again, with the same seq (actions
# are idempotent: a repeat of one applied is answered stale, never applied twice).
ACT_REPLY_WAIT = 3.0
# A connection lost or refused (the server restarting) is opened again after a pause that
# doubles from the first to the last, with jitter so that a room's bots do not come back in
# one burst; the room answers each new connection with a snapshot (docs/protocol.md).
RECONNECT_FIRST = 0.25
RECONNECT_LAST = 2.0
# Close codes after which reconnecting would not help: no such table, flooding.
CLOSE_FINAL = frozenset({4404, 4008})
_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')


class BotLoginFailed(RuntimeError):
    pass


def http_login(base_url: str, username: str, password: str, *, timeout: float = 10) -> str:
    """Post the room's login form (with its CSRF token) and return the Cookie header that
    carries the session, as a browser would hold it."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login_url = urllib.parse.urljoin(_origin(base_url), "/accounts/login/")
    with opener.open(login_url, timeout=timeout) as page:
        found = _CSRF_INPUT.search(page.read().decode("utf-8", "replace"))
    if found is None:
        raise BotLoginFailed(f"no CSRF token in the login form at {login_url}")
    form = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": found.group(1)}
    ).encode()
    request = urllib.request.Request(
        login_url, data=form, headers={"Referer": login_url, "Origin": _origin(base_url)}
    )
    with opener.open(request, timeout=timeout) as answer:
        page = answer.read().decode("utf-8", "replace")
    cookies = {cookie.name: cookie.value for cookie in jar}
    if "sessionid" not in cookies:
        said = re.search(r'class="errorlist[^"]*"[^>]*>(.*?)</', page, re.S)
        reason = re.sub(r"<[^>]+>", " ", said.group(1)).strip() if said else page[:200]
        raise BotLoginFailed(f"the room refused the login of {username!r}: {reason}")
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def _origin(base_url: str) -> str:
    """The room's page origin, as a browser would send it: http(s), never ws(s) (the room
    accepts only its own origins, scheme included: pokerroom/origins.py)."""
    parts = urllib.parse.urlsplit(base_url)
    scheme = "https" if parts.scheme in ("https", "wss") else "http"
    return f"{scheme}://{parts.netloc}"


def ws_url_of(base_url: str, table_id: int) -> str:
    parts = urllib.parse.urlsplit(base_url)
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}/ws/tables/{table_id}/"


def http_url_of(url: str) -> str:
    """The room's HTTP address from either an http(s):// or a ws(s):// URL."""
    parts = urllib.parse.urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}"


def razz_low_quality(cards: list[int]) -> int:
    """How a Razz hand looks to the bot (the room's card ids, ``rank * 4 + suit``, deuce 0 ..
    ace 12): its bad cards, each paired card or card above an eight (ace low) counting one.
    0 is a smooth low in the making; 2 or more is a hand to give up facing a bet."""
    seen: set[int] = set()
    bad = 0
    for card in cards:
        value = ((card >> 2) + 1) % 13 + 1  # ace 1, deuce 2 .. king 13
        if value in seen or value > 8:
            bad += 1
        seen.add(value)
    return bad


def choose_action(
    legal_actions: list[dict[str, Any]],
    *,
    policy: str,
    rng: random.Random,
    game: str = "stud",
    cards: list[int] | None = None,
) -> dict[str, Any]:
    """Pick one of the offered actions. ``call``: check or call mostly, sometimes bet, raise
    or complete; ``random``: any offer, folding only now and then. Neither folds when a check
    is offered. In Razz (``game``, with the bot's ``cards``) the ``call`` bot plays lows: it
    folds a rough hand (two bad cards: pairs or cards above an eight) facing a bet, and bets
    a smooth one (no bad card)."""
    by_kind = {offer["kind"]: offer for offer in legal_actions}
    passive = [by_kind[k] for k in ("check", "call", "bring_in") if k in by_kind]
    aggressive = [by_kind[k] for k in ("bet", "raise", "complete") if k in by_kind]
    # Several sizes of one kind (R-BET-2's small or big bet) are several offers.
    aggressive += [
        o for o in legal_actions if o["kind"] in ("bet", "raise") and o not in aggressive
    ]
    if policy == "random":
        pool = passive + aggressive
        if "fold" in by_kind and "check" not in by_kind and (not pool or rng.random() < 0.1):
            return by_kind["fold"]
        return rng.choice(pool) if pool else legal_actions[0]
    if game == "razz" and cards:
        bad = razz_low_quality(cards)
        facing_bet = "fold" in by_kind and "check" not in by_kind and "bring_in" not in by_kind
        if facing_bet and bad >= 2 and rng.random() < 0.8:
            return by_kind["fold"]
        if aggressive and bad == 0 and rng.random() < 0.6:
            return rng.choice(aggressive)
    if aggressive and (not passive or rng.random() < 0.15):
        return rng.choice(aggressive)
    if passive:
        return passive[0]
    if "check" not in by_kind and "fold" in by_kind:
        return by_kind["fold"]
    return legal_actions[0]


@dataclass
class BotStats:
    hands: int = 0
    actions: int = 0
    snapshots: int = 0
    # Snapshots asked for (a gap, a lost turn frame, a refused action), and connections
    # opened again after one was lost: the bot's resyncs.
    snapshot_requests: int = 0
    reconnects: int = 0
    gaps: int = 0
    # Events of the current hand that came after a later one (a seq below the last applied,
    # never seen, not older than the last snapshot): a table's order broken on the way.
    out_of_order: int = 0
    # The room's clock played this bot's turn (a `timeout` event for its seat), and actions
    # it answered "stale" (the hand had moved on before the action was applied).
    timeouts: int = 0
    stale_acts: int = 0
    # Actions sent again, same seq: answered `internal`, or not answered in ACT_REPLY_WAIT.
    act_resends: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    # Seconds from sending an action to its result reply, and to the table event it caused.
    reply_latencies: list[float] = field(default_factory=list)
    broadcast_latencies: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        def stats(values: list[float]) -> dict[str, float]:
            if not values:
                return {}
            ordered = sorted(values)
            return {
                "median_ms": statistics.median(ordered) * 1000,
                "p95_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000,
                "max_ms": ordered[-1] * 1000,
            }

        return {
            "hands": self.hands,
            "actions": self.actions,
            "snapshots": self.snapshots,
            "snapshot_requests": self.snapshot_requests,
            "reconnects": self.reconnects,
            "gaps": self.gaps,
            "out_of_order": self.out_of_order,
            "timeouts": self.timeouts,
            "stale_acts": self.stale_acts,
            "act_resends": self.act_resends,
            "errors": len(self.errors),
            "reply": stats(self.reply_latencies),
            "broadcast": stats(self.broadcast_latencies),
        }


class _RoomClient:
    """What every bot starts with: the room's address, its login (a password, or ``cookie``,
    a session made some other way, which skips the HTTP login), its policy and its own
    random numbers (``seed``: the same choices on every run)."""

    def __init__(
        self,
        *,
        base_url: str,
        username: str,
        password: str,
        cookie: str | None,
        policy: str,
        seed: int | None,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy is one of {POLICIES}")
        self.base_url = http_url_of(base_url)
        self.username = username
        self.password = password
        self.cookie = cookie
        self.policy = policy
        self.rng = random.Random(seed)


class Bot(_RoomClient):
    """One bot at one table. ``cookie`` skips the HTTP login (a session made some other way).
    ``think``: seconds (lowest, highest) the bot waits, drawn at random, before it sends each
    action, as a player thinking; None acts the moment its turn comes."""

    def __init__(
        self,
        *,
        base_url: str,
        table_id: int,
        username: str = "",
        password: str = "",
        cookie: str | None = None,
        policy: str = "call",
        buy_in: int | None = None,
        seed: int | None = None,
        sit: bool = True,
        keep_events: bool = False,
        rebuy: bool = True,
        think: tuple[float, float] | None = None,
    ) -> None:
        super().__init__(
            base_url=base_url,
            username=username,
            password=password,
            cookie=cookie,
            policy=policy,
            seed=seed,
        )
        self.table_id = table_id
        self.think = think
        self.buy_in = buy_in
        self.sit = sit
        self.stats = BotStats()
        # What the bot knows of the table.
        self.player_id: int | None = None
        self.seat: int | None = None
        self.hand_id: int | None = None
        self.seq = 0
        # The seqs of the current hand applied, and the seq its last snapshot started from:
        # an older seq not applied arrived out of order (BotStats.out_of_order).
        self.seqs_applied: set[int] = set()
        self.seq_floor = 0
        # The seq each hand had reached when the next hand's first event came (a hand left
        # for a snapshot is not here: frames sent before a snapshot may follow it).
        self.seq_reached: dict[int, int] = {}
        self.to_act: int | None = None
        self.snapshot_pending = False
        self.snapshot_asked_at = 0.0
        self.acted_at: tuple[int, int] | None = None  # (hand_id, seq) of the last action sent
        self.sent_at: float | None = None
        # The last action sent and not yet answered applied or refused (sent again after an
        # `internal` error or ACT_REPLY_WAIT without an answer).
        self.unanswered: dict[str, Any] | None = None
        self.sit_requested = False
        self.hand_ids_seen: set[int] = set()
        self._turn_fallback: asyncio.TimerHandle | None = None
        self._pending: set[asyncio.Future[None]] = set()
        self.hands_ended: set[int] = set()
        # Every hand event applied, in order (tests compare what each bot saw).
        self.keep_events = keep_events
        self.events: list[dict[str, Any]] = []
        self._ws: ClientConnection | None = None
        self._ws_frames_read = 0
        # Rebuys: the table's buy-in and small bet (from the snapshot), and the hand after
        # which the last add_chips was sent (one per hand: its seats frame is not a new ask).
        self.rebuy = rebuy
        self.table_buy_in = 0
        self.small_bet = 0
        self.game = "stud"  # the table's game, from the snapshot and each hand_start
        self.own_cards: list[int] = []  # this hand's own cards, from the events
        self.rebuy_at: tuple[int | None, int] | None = None

    # --- connection ---------------------------------------------------------------------------

    async def login(self) -> str:
        if self.cookie is None:
            self.cookie = await asyncio.to_thread(
                http_login, self.base_url, self.username, self.password
            )
        return self.cookie

    async def play(self, hands: int = 0, *, timeout: float | None = None) -> BotStats:
        """Play until ``hands`` hands have ended at the table (0: until cancelled). A lost
        connection is opened again (with a backoff) unless the room closed it for good."""
        cookie = await self.login()
        async with asyncio.timeout(timeout):
            failures = 0
            while not await self._play_one_connection(cookie, hands):
                failures += 1
                self.stats.reconnects += 1
                pause = min(RECONNECT_LAST, RECONNECT_FIRST * 2 ** (failures - 1))
                await asyncio.sleep(pause * self.rng.uniform(0.5, 1.0))
                if self._ws_frames_read:
                    failures = 0  # that connection worked: the next pause starts short
        return self.stats

    async def _play_one_connection(self, cookie: str, hands: int) -> bool:
        """Read frames on one connection; True when the bot is done, False when the
        connection was lost or could not be opened."""
        self._ws_frames_read = 0
        try:
            async with websockets.connect(
                ws_url_of(self.base_url, self.table_id),
                additional_headers={"Cookie": cookie},
                origin=_origin(self.base_url),  # type: ignore[arg-type]
                max_size=2**22,
                open_timeout=5,
            ) as ws:
                self._ws = ws
                self._forget_connection_state()
                pinging = asyncio.ensure_future(self._ping_while_open(ws))
                try:
                    async for text in ws:
                        self._ws_frames_read += 1
                        await self.on_frame(json.loads(text))
                        if hands and self.stats.hands >= hands:
                            return True
                finally:
                    self._ws = None
                    pinging.cancel()
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code in CLOSE_FINAL:
                raise
            logger.info("%s: connection lost (%s), reconnecting", self.username, closed)
        except (OSError, TimeoutError, websockets.InvalidHandshake) as failed:
            logger.info("%s: cannot connect (%s), retrying", self.username, failed)
        return False

    def _forget_connection_state(self) -> None:
        """A new connection: what was in flight on the last one is lost. The room sends a
        snapshot on connect; it is counted as asked for, so that it is asked again if it
        does not come (SNAPSHOT_RETRY)."""
        if self._turn_fallback is not None:
            self._turn_fallback.cancel()
        self.snapshot_pending, self.snapshot_asked_at = True, time.monotonic()
        self.sent_at = None
        self.unanswered = None
        self.acted_at = None  # an action sent on the lost connection may never have arrived
        self.sit_requested = False

    async def _ping_while_open(self, ws: ClientConnection) -> None:
        """Every PING_EVERY: a ping with the bot's position (the room sends a snapshot to a
        bot that is behind), and the unanswered action sent again once overdue."""
        while self._ws is ws:
            await asyncio.sleep(PING_EVERY)
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ping()
                await self.resend_overdue_act()

    async def ping(self) -> None:
        position: dict[str, Any] = {"seq": self.seq}
        if self.hand_id is not None:
            position["hand_id"] = self.hand_id
        await self.send({"type": "ping", **position})

    async def resend_overdue_act(self, *, now: float | None = None) -> None:
        unanswered = self.unanswered
        if unanswered is None or self.sent_at is None:
            return
        now = time.perf_counter() if now is None else now
        if now - self.sent_at >= ACT_REPLY_WAIT:
            await self._resend_act()

    async def _resend_act(self) -> None:
        """The same action again, same seq: applied once at most (the room checks the seq)."""
        unanswered = self.unanswered
        if unanswered is None or (unanswered["hand_id"], unanswered["seq"]) != (
            self.hand_id,
            self.seq,
        ):
            self.unanswered = None  # the turn has moved on: nothing to send again
            return
        self.stats.act_resends += 1
        self.sent_at = time.perf_counter()
        await self.send(unanswered)

    async def send(self, message: dict[str, Any]) -> None:
        if self._ws is not None:
            await self._ws.send(json.dumps(message))

    async def ask_snapshot(self) -> None:
        now = time.monotonic()
        if not self.snapshot_pending or now - self.snapshot_asked_at > SNAPSHOT_RETRY:
            self.snapshot_pending, self.snapshot_asked_at = True, now
            self.stats.snapshot_requests += 1
            await self.send({"type": "snapshot"})

    # --- frames -------------------------------------------------------------------------------

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            await self.on_snapshot(frame)
        elif kind == "event":
            await self.on_event(frame)
        elif kind == "result":
            await self.on_result(frame)
        elif kind == "your_turn":
            await self.on_your_turn(frame)
        elif kind == "ante_confirm":
            await self.send({"type": "im_in"})
        elif kind == "seats":
            await self.on_seats(frame.get("seats") or [])
        elif kind == "error":
            self.stats.errors.append(frame)
            logger.info("%s: error %s", self.username, frame)
            if frame.get("code") == "rate_limited":
                self.snapshot_pending = False  # what we asked for was not read: ask again
            unanswered = self.unanswered
            if (
                frame.get("code") == "internal"
                and unanswered is not None
                and frame.get("ref") == unanswered.get("ref")
            ):
                await self._resend_act()  # nothing was applied: the same action again

    async def on_snapshot(self, snapshot: dict[str, Any]) -> None:
        self.snapshot_pending = False
        self.stats.snapshots += 1
        viewer = snapshot.get("viewer")
        if viewer is not None:
            self.player_id, self.seat = viewer.get("player_id"), viewer.get("seat")
        else:
            self.seat = None  # not seated here (the snapshot names only seated viewers)
        table = snapshot.get("table") or {}
        self.game = table.get("game") or self.game
        self.table_buy_in = table.get("buy_in") or self.table_buy_in
        self.small_bet = table.get("small_bet") or self.small_bet
        if self.seat is None and self.sit and not self.sit_requested:
            buy_in = self.buy_in or table.get("buy_in")
            if buy_in:
                self.sit_requested = True
                await self.send({"type": "sit", "buy_in": buy_in, "ref": "sit"})
        hand = snapshot.get("hand")
        if hand is not None:
            self.hand_id, self.seq = hand["id"], hand["seq"]
            self.seq_floor, self.seqs_applied = hand["seq"], set()
            self.hand_ids_seen.add(hand["id"])
            state = hand.get("state") or {}
            self.to_act = state.get("to_act")
            offers = state.get("legal_actions") or []
            if self.seat is not None and self.to_act == self.seat and offers:
                await self.act(offers)
        await self.on_seats(snapshot.get("seats") or [])

    async def on_seats(self, seats: list[dict[str, Any]]) -> None:
        if self.player_id is None or not self.sit:
            return
        mine = next((s for s in seats if s.get("player_id") == self.player_id), None)
        if mine is None:
            return
        self.seat = mine.get("number", self.seat)
        if mine.get("sitting_out"):
            await self.send({"type": "sit_in"})
        elif self.rebuy and not mine.get("in_hand"):
            # Broke, or too short to play a street: back to a full buy-in between hands, so
            # a practice table never runs down to bots that cannot play.
            stack = int(mine.get("stack") or 0)
            buy_in = self.buy_in or self.table_buy_in
            if buy_in and stack < max(1, self.small_bet) and self.rebuy_at != self.hands_seen_key():
                self.rebuy_at = self.hands_seen_key()
                await self.send({"type": "add_chips", "amount": buy_in - stack, "ref": "rebuy"})

    async def on_event(self, frame: dict[str, Any]) -> None:
        hand_id, seq = frame.get("hand_id"), frame.get("seq")
        if not isinstance(hand_id, int) or not isinstance(seq, int):
            return
        if hand_id != self.hand_id:
            if hand_id in self.hand_ids_seen:
                if seq > self.seq_reached.get(hand_id, seq):
                    self.stats.out_of_order += 1  # it came after the next hand had begun
                return  # a late frame of a hand already over for us
            if seq != 1:
                self.stats.gaps += 1  # a hand we missed the start of
                await self.ask_snapshot()
                return
            if self.hand_id is not None:
                self.seq_reached[self.hand_id] = self.seq
            self.hand_id, self.seq = hand_id, 0
            self.seq_floor, self.seqs_applied = 0, set()
            self.hand_ids_seen.add(hand_id)
        if seq <= self.seq:
            if seq > self.seq_floor and seq not in self.seqs_applied:
                self.stats.out_of_order += 1
            return  # a duplicate, or the private copy of a placeholder already counted
        if seq > self.seq + 1:
            self.stats.gaps += 1
            await self.ask_snapshot()
            return
        self.seq = seq
        self.seqs_applied.add(seq)
        self._note_own_cards(frame)
        if self.keep_events:
            self.events.append(frame)
        if (
            self.sent_at is not None
            and frame.get("kind") == "action"
            and (frame.get("payload") or {}).get("seat") == self.seat
        ):
            self.stats.broadcast_latencies.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        if frame.get("kind") == "timeout" and (frame.get("payload") or {}).get("seat") == self.seat:
            self.stats.timeouts += 1
        if frame.get("kind") == "hand_end" and hand_id not in self.hands_ended:
            self.hands_ended.add(hand_id)  # counted once (the engine and the room both end it)
            self.stats.hands += 1
        if "to_act" in frame and frame.get("to_act") is not None:
            self.to_act = frame["to_act"]
            if self.seat is not None and self.to_act == self.seat:
                # The offers follow in a your_turn frame; a snapshot if it does not come.
                self._turn_fallback = asyncio.get_running_loop().call_later(
                    TURN_FRAME_WAIT, self._snapshot_if_still_waiting, hand_id, seq
                )

    def _note_own_cards(self, frame: dict[str, Any]) -> None:
        """The bot's own cards of this hand, down and up, from the events (for its policy)."""
        kind = frame.get("kind")
        payload = frame.get("payload") or {}
        if kind == "hand_start":
            self.own_cards = []
            self.game = payload.get("game") or self.game
        elif kind == "down_cards" and payload.get("seat") == self.seat:
            self.own_cards += [int(card) for card in payload.get("cards") or []]
        elif kind == "cards_dealt":
            for dealt in payload.get("seats") or []:
                if dealt.get("seat") == self.seat:
                    self.own_cards += [int(card) for card in dealt.get("up") or []]

    def hands_seen_key(self) -> tuple[int | None, int]:
        return (self.hand_id, len(self.hands_ended))

    def _snapshot_if_still_waiting(self, hand_id: int, seq: int) -> None:
        if self.hand_id == hand_id and self.seq == seq and self.acted_at != (hand_id, seq):
            task = asyncio.ensure_future(self.ask_snapshot())
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def on_your_turn(self, frame: dict[str, Any]) -> None:
        """The offers sent with the turn, when the room sends them (saves a snapshot)."""
        if frame.get("hand_id") == self.hand_id and frame.get("seq") == self.seq:
            offers = frame.get("legal_actions") or []
            if offers:
                await self.act(offers)

    async def on_result(self, frame: dict[str, Any]) -> None:
        if frame.get("command") == "act":
            self.unanswered = None  # applied, stale or refused: answered
        if frame.get("command") == "act" and self.sent_at is not None and "ref" in frame:
            self.stats.reply_latencies.append(time.perf_counter() - self.sent_at)
        if frame.get("command") == "sit" and frame.get("ok"):
            await self.ask_snapshot()  # learn the seat (and our player id)
        if frame.get("status") in ("stale", "refused"):
            if frame.get("command") == "sit":
                self.sit_requested = False
            if frame.get("status") == "refused":
                self.stats.errors.append(frame)
            if frame.get("command") == "act":
                self.sent_at = None
                if frame.get("status") == "stale":
                    self.stats.stale_acts += 1
                if frame.get("status") == "refused":
                    self.acted_at = None  # choose again from fresh offers
                await self.ask_snapshot()

    async def act(self, offers: list[dict[str, Any]]) -> None:
        if self.hand_id is None or self.acted_at == (self.hand_id, self.seq):
            return
        choice = choose_action(
            offers, policy=self.policy, rng=self.rng, game=self.game, cards=self.own_cards
        )
        self.acted_at = (self.hand_id, self.seq)
        if self.think is None:
            await self._send_act(choice)
            return
        task = asyncio.ensure_future(
            self._act_after(self.rng.uniform(*self.think), self.hand_id, self.seq, choice)
        )
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _act_after(
        self, delay: float, hand_id: int, seq: int, choice: dict[str, Any]
    ) -> None:
        """A thinking bot's action, sent after `delay` unless the turn has gone meanwhile (the
        clock ran out, a new connection) or the connection it was chosen on is lost."""
        ws = self._ws
        await asyncio.sleep(delay)
        if (self.hand_id, self.seq) == (hand_id, seq) and self._ws is ws and ws is not None:
            await self._send_act(choice)

    async def _send_act(self, choice: dict[str, Any]) -> None:
        self.stats.actions += 1
        self.sent_at = time.perf_counter()
        self.unanswered = {
            "type": "act",
            "seq": self.seq,
            "hand_id": self.hand_id,
            "kind": choice["kind"],
            "amount": choice["amount"],
            "ref": f"a{self.stats.actions}",
        }
        await self.send(self.unanswered)


async def play_many(bots: list[Bot], *, hands: int = 0, timeout: float | None = None) -> None:
    """Run several bots together; the first failure cancels the rest."""
    async with asyncio.TaskGroup() as group:
        for bot in bots:
            group.create_task(bot.play(hands=hands, timeout=timeout))


async def wait_for_room(base_url: str, *, within: float = 60) -> None:
    """Wait until the room answers HTTP (bots started together with the server)."""
    deadline = time.monotonic() + within
    while True:
        try:
            with contextlib.closing(
                await asyncio.to_thread(urllib.request.urlopen, http_url_of(base_url), timeout=2)
            ):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


# --- tournaments --------------------------------------------------------------------------------

# Seconds between snapshots a tournament bot asks for when no frame came: the "moved" and
# "eliminated" notices and the snapshots may be dropped (channels_redis drops silently), and
# the snapshot names the bot's table and place, so a lost notice costs at most this long.
TOURNAMENT_SNAPSHOT_EVERY = 5.0
TOURNAMENT_OVER = frozenset({"finished", "cancelled"})
# Tries of an HTTP call (login, register) that got no answer in time (a loaded room).
HTTP_ATTEMPTS = 6


# When a tournament bot buys the add-on (R-TOUR-1), while the tournament's snapshot says it
# is open (`add_on_open`) and the bot's line of the standings has none: "short" (the
# default) once its stack at the table is at or below the starting stack, the short stack a
# player tops up, so a big stack never pays for one; "always" as soon as it is offered (before
# the start too); "never".
ADD_ON_POLICIES = ("short", "always", "never")
# The add-on's refusals after which asking again cannot help (any other, e.g. all-in in the
# hand in play, is asked again at a later snapshot).
ADD_ON_FINAL = frozenset(
    {"too_late", "not_registered", "insufficient_balance", "no_add_on", "eliminated", "over"}
)


def add_on_wanted(policy: str, snapshot: dict[str, Any], mine: dict[str, Any] | None) -> bool:
    """Does a bot with `policy` buy the add-on now? From the tournament snapshot alone: it is
    open, the bot plays on (not placed) and has not bought it, and the policy says so."""
    if policy == "never" or not snapshot.get("add_on_open") or mine is None:
        return False
    if mine.get("add_on") or mine.get("place") is not None:
        return False
    if policy == "always":
        return True
    chips = mine.get("chips")
    starting = snapshot.get("starting_chips")
    return isinstance(chips, int) and isinstance(starting, int) and chips <= starting


class TournamentRefusedByRoom(RuntimeError):
    """The room refused to register the bot (not open, full, cannot pay): its words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _cookie_value(cookie: str, name: str) -> str | None:
    for part in cookie.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def http_json(
    base_url: str, path: str, *, cookie: str, method: str = "GET", timeout: float = 10
) -> tuple[int, Any]:
    """Call the room's API as the logged-in browser would: the session cookie, and for a
    POST the CSRF token (the `csrftoken` cookie the login set) with the page's origin.
    Returns the HTTP status and the JSON answer (an error status is answered, not raised)."""
    origin = _origin(base_url)
    headers = {"Cookie": cookie, "Accept": "application/json"}
    if method != "GET":
        headers |= {
            "X-CSRFToken": _cookie_value(cookie, "csrftoken") or "",
            "Origin": origin,
            "Referer": origin + "/",
        }
    request = urllib.request.Request(
        urllib.parse.urljoin(origin, path),
        data=b"" if method != "GET" else None,
        headers=headers,
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        body = refused.read()
        try:
            return refused.code, json.loads(body or b"null")
        except ValueError:
            return refused.code, {"detail": body[:200].decode("utf-8", "replace")}


def tournament_ws_url_of(base_url: str, tournament_id: int) -> str:
    parts = urllib.parse.urlsplit(base_url)
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}/ws/tournaments/{tournament_id}/"


@dataclass
class TournamentResult:
    """How a tournament went for one bot: its place and prize (cents) when it is over for
    it, the tables it played at in order, and each table's BotStats."""

    place: int | None = None
    prize: int = 0
    status: str = ""
    tables: list[int] = field(default_factory=list)
    moves: int = 0
    # When the bot learnt of each table (time.monotonic()), the first being the draw.
    seated_at: list[float] = field(default_factory=list)
    table_stats: dict[int, BotStats] = field(default_factory=dict)
    hands_seen: dict[int, set[int]] = field(default_factory=dict)
    notices: list[dict[str, Any]] = field(default_factory=list)
    # The add-on (R-TOUR-1): bought (by this bot now, or already), and the room's last
    # refusal code if it said no.
    add_on: bool = False
    add_on_refused: str = ""

    def summary(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "prize": self.prize,
            "status": self.status,
            "tables": self.tables,
            "moves": self.moves,
            "add_on": self.add_on,
            "hands": sum(s.hands for s in self.table_stats.values()),
            "actions": sum(s.actions for s in self.table_stats.values()),
            "errors": sum(len(s.errors) for s in self.table_stats.values()),
        }


class TournamentBot(_RoomClient):
    """One bot in one tournament: registers (over the API; already registered is fine),
    waits on the tournament's socket for the draw, plays at its table with a ``Bot`` and
    follows every move to another table (R-TOUR-3 balancing, R-TOUR-4 merge): the old
    table's socket is closed, the new table's opened. It stops when it is out (its place)
    or the tournament is over.

    Where it plays comes from the room's own words: the per-player ``tournament_moved`` and
    ``tournament_eliminated`` notices, and the tournament snapshot's standings (its table,
    its place), asked for again whenever nothing came for a while (a lost notice).

    The add-on it buys with ``POST /api/tournaments/<id>/add-on/`` when a snapshot shows it
    open and ``add_on_wanted`` says so for its ``add_on`` policy (ADD_ON_POLICIES); "already
    bought" counts as bought, so a repeated request never buys twice."""

    def __init__(
        self,
        *,
        base_url: str,
        tournament_id: int,
        username: str = "",
        password: str = "",
        cookie: str | None = None,
        policy: str = "call",
        seed: int | None = None,
        register: bool = True,
        add_on: str = "short",
    ) -> None:
        if add_on not in ADD_ON_POLICIES:
            raise ValueError(f"add_on policy {add_on!r}: one of {ADD_ON_POLICIES}")
        super().__init__(
            base_url=base_url,
            username=username,
            password=password,
            cookie=cookie,
            policy=policy,
            seed=seed,
        )
        self.tournament_id = tournament_id
        self.seed = seed
        self.register_first = register
        self.player_id: int | None = None
        self.result = TournamentResult()
        self.tournament_seq = -1
        self.table_id: int | None = None
        self.table_bot: Bot | None = None
        self._table_task: asyncio.Task[BotStats] | None = None
        self.done = asyncio.Event()
        self.reconnects = 0
        self.add_on_policy = add_on
        self._add_on_task: asyncio.Task[None] | None = None

    # --- HTTP -------------------------------------------------------------------------------

    async def _http(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        """An HTTP call in a thread, tried again (with a growing pause) when the room does
        not answer in time: a busy room, or one still starting. A refusal is not retried."""
        for attempt in range(HTTP_ATTEMPTS):
            try:
                return await asyncio.to_thread(call, *args, **kwargs)
            except (OSError, TimeoutError) as failed:
                if attempt == HTTP_ATTEMPTS - 1:
                    raise
                logger.info("%s: %s, trying again", self.username, failed)
                await asyncio.sleep(min(RECONNECT_LAST, RECONNECT_FIRST * 2**attempt) * 2)
        raise AssertionError("unreachable")

    async def login(self) -> str:
        if self.cookie is None:
            self.cookie = await self._http(
                http_login, self.base_url, self.username, self.password, timeout=30
            )
        if self.player_id is None:
            status, me = await self._http(
                http_json, self.base_url, "/api/me/", cookie=self.cookie, timeout=30
            )
            if status != 200 or not isinstance(me, dict):
                raise BotLoginFailed(f"{self.username}: /api/me/ answered {status}: {me}")
            self.player_id = int(me["id"])
            self.username = self.username or str(me.get("username", ""))
        return self.cookie

    async def register(self) -> bool:
        """Register for the tournament (the buy-in and fee leave the bot's wallet). True
        when it registered now, False when it already was; refused otherwise."""
        cookie = await self.login()
        status, answer = await self._http(
            http_json,
            self.base_url,
            f"/api/tournaments/{self.tournament_id}/register/",
            cookie=cookie,
            method="POST",
            timeout=30,
        )
        if status == 200:
            return True
        answer = answer if isinstance(answer, dict) else {}
        code = str(answer.get("code", status))
        if code == "already_registered":
            return False
        raise TournamentRefusedByRoom(code, str(answer.get("detail", answer)))

    async def buy_add_on(self) -> bool:
        """Buy the add-on over the API. True when bought now or before (already_added_on);
        False when refused, its code kept in ``result.add_on_refused``."""
        cookie = await self.login()
        status, answer = await self._http(
            http_json,
            self.base_url,
            f"/api/tournaments/{self.tournament_id}/add-on/",
            cookie=cookie,
            method="POST",
            timeout=30,
        )
        answer = answer if isinstance(answer, dict) else {}
        code = "" if status == 200 else str(answer.get("code", status))
        if status == 200 or code == "already_added_on":
            self.result.add_on = True
            logger.info("%s: add-on bought", self.username)
            return True
        self.result.add_on_refused = code
        logger.info("%s: add-on refused (%s): %s", self.username, code, answer.get("detail"))
        return False

    def _add_on_consider(self, snapshot: dict[str, Any], mine: dict[str, Any] | None) -> None:
        """Buy the add-on in the background (the frames keep coming) when the policy wants
        it, once: not while a request is out, nor after bought or refused for good."""
        if self.result.add_on or self.result.add_on_refused in ADD_ON_FINAL:
            return
        if self._add_on_task is not None and not self._add_on_task.done():
            return
        if add_on_wanted(self.add_on_policy, snapshot, mine):
            self._add_on_task = asyncio.create_task(self._add_on_try())

    async def _add_on_try(self) -> None:
        try:
            await self.buy_add_on()
        except (OSError, TimeoutError) as failed:  # no answer: the next snapshot tries again
            logger.info("%s: add-on not answered (%s)", self.username, failed)

    # --- the tournament's socket -----------------------------------------------------------------

    async def play(self, *, timeout: float | None = None) -> TournamentResult:
        """Register (unless told not to), then play until out or over."""
        cookie = await self.login()
        if self.register_first:
            try:
                await self.register()
            except TournamentRefusedByRoom as refused:
                if refused.code not in ("not_open", "over"):
                    raise
                # Started or over: a bot that had entered (a restart) plays on or learns its
                # place; one that had not is told so by the snapshot.
                logger.info("%s: %s", self.username, refused)
        try:
            async with asyncio.timeout(timeout):
                failures = 0
                while not self.done.is_set():
                    if await self._follow_one_connection(cookie):
                        failures = 0
                    else:
                        failures += 1
                    if self.done.is_set():
                        break
                    self.reconnects += 1
                    pause = min(RECONNECT_LAST, RECONNECT_FIRST * 2 ** max(0, failures - 1))
                    await asyncio.sleep(pause * self.rng.uniform(0.5, 1.0))
        finally:
            await self._leave_table()
            await self._add_on_stop()
        return self.result

    async def _follow_one_connection(self, cookie: str) -> bool:
        """Read the tournament's frames on one connection until done; False when the
        connection could not be opened or was lost before any frame."""
        frames = 0
        try:
            async with websockets.connect(
                tournament_ws_url_of(self.base_url, self.tournament_id),
                additional_headers={"Cookie": cookie},
                origin=_origin(self.base_url),  # type: ignore[arg-type]
                max_size=2**22,
                open_timeout=5,
            ) as ws:
                while not self.done.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), TOURNAMENT_SNAPSHOT_EVERY)
                    except TimeoutError:
                        await ws.send(json.dumps({"type": "snapshot"}))
                        continue
                    frames += 1
                    await self.on_frame(json.loads(text))
                    self._table_task_check()
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code in CLOSE_FINAL:
                raise
            logger.info("%s: tournament socket lost (%s)", self.username, closed)
        except (OSError, TimeoutError, websockets.InvalidHandshake) as failed:
            logger.info("%s: cannot reach the tournament (%s)", self.username, failed)
        return frames > 0

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if frame.get("tournament_id") not in (None, self.tournament_id):
            return  # a notice of another tournament this player is in
        if kind == "tournament":
            await self.on_tournament(frame.get("tournament") or {}, frame.get("seq"))
        elif kind == "tournament_moved":
            self.result.notices.append(frame)
            table_id = frame.get("table_id")
            if isinstance(table_id, int):
                await self.go_to(table_id)
        elif kind == "tournament_eliminated":
            self.result.notices.append(frame)
            self.result.place = frame.get("place")
            self.result.prize = int(frame.get("prize") or 0)
            await self.finish("eliminated")

    async def on_tournament(self, snapshot: dict[str, Any], seq: Any) -> None:
        """The tournament as it is now: our place if we are out, our table if we play."""
        if isinstance(seq, int):
            if seq < self.tournament_seq:
                return  # older than what we know (frames of two groups can cross)
            self.tournament_seq = seq
        status = str(snapshot.get("status", ""))
        self.result.status = status
        mine = next(
            (s for s in snapshot.get("standings") or [] if s.get("player_id") == self.player_id),
            None,
        )
        if mine is not None and mine.get("place") is not None:
            self.result.place = mine["place"]
            self.result.prize = int(mine.get("prize") or 0)
            await self.finish("out" if status not in TOURNAMENT_OVER else status)
        elif status in TOURNAMENT_OVER:
            await self.finish(status)
        elif mine is None and status not in ("registering", "announced"):
            await self.finish("not entered")  # it started without us
        elif mine is not None and isinstance(mine.get("table_id"), int):
            await self.go_to(mine["table_id"])
        if not self.done.is_set():
            self._add_on_consider(snapshot, mine)

    async def go_to(self, table_id: int) -> None:
        """Play at `table_id`: the socket of the table we leave is closed first."""
        if table_id == self.table_id and self._table_task is not None:
            return
        if self.table_id is not None and table_id != self.table_id:
            self.result.moves += 1
            logger.info("%s: moved from table %s to %s", self.username, self.table_id, table_id)
        await self._leave_table()
        if table_id != self.table_id:
            self.result.tables.append(table_id)
            self.result.seated_at.append(time.monotonic())
        self.table_id = table_id
        bot = Bot(
            base_url=self.base_url,
            table_id=table_id,
            username=self.username,
            cookie=self.cookie,
            policy=self.policy,
            seed=self.rng.randrange(2**32),
            sit=False,  # the room seats us (R-TOUR-2); a tournament seat is never taken
        )
        self.table_bot = bot
        self.result.table_stats[table_id] = bot.stats
        self.result.hands_seen[table_id] = bot.hand_ids_seen
        self._table_task = asyncio.create_task(bot.play())

    def _table_task_check(self) -> None:
        """A table's play that ended on its own (the room closed that table for good) is
        forgotten: the next snapshot names the table to go to, even the same one."""
        task = self._table_task
        if task is not None and task.done():
            if not task.cancelled() and task.exception() is not None:
                logger.info(
                    "%s: table %s ended: %s", self.username, self.table_id, task.exception()
                )
            self._table_task = None

    async def _leave_table(self) -> None:
        task, self._table_task = self._table_task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def finish(self, why: str) -> None:
        logger.info("%s: %s (place %s)", self.username, why, self.result.place)
        await self._leave_table()
        await self._add_on_stop()
        self.done.set()

    async def _add_on_stop(self) -> None:
        buying, self._add_on_task = self._add_on_task, None
        if buying is not None:
            buying.cancel()
            await asyncio.gather(buying, return_exceptions=True)


async def play_tournament(
    bots: list[TournamentBot], *, timeout: float | None = None
) -> list[TournamentResult]:
    """Several bots in one tournament together, each to its own end; the first failure
    cancels the rest."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(bot.play(timeout=timeout)) for bot in bots]
    return [task.result() for task in tasks]
