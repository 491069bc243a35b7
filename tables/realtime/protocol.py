"""The live table's WebSocket protocol: what a client may send, parsed into typed commands.

docs/protocol.md is the reader's version of this module. Parsing checks shape only (types,
required fields, sizes); whether a command is allowed (whose turn, which amounts, enough
balance) is the services' business. Identity is never read from a message: a ``seat`` or
``user`` field is refused, the player is always the session's user.
"""

from __future__ import annotations

import html
import json
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from stud import ActionKind

# A client frame larger than this is refused before it is parsed.
MAX_FRAME_BYTES = 2048
# The server's own limit on a WebSocket message (Daphne's --websocket-max-message-size and
# --websocket-max-frame-size, set where the room is started: Makefile, Procfile,
# docs/operations.md, tests/room_processes.py). Daphne's default, 1 MiB, cut a larger frame
# with an abnormal close before the room could answer ``too_large``; up to this size the room
# answers, and only a larger one is cut by the server (close code 1009).
SERVER_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
DAPHNE_SIZE_ARGS = (
    f"--websocket-max-message-size {SERVER_MAX_MESSAGE_BYTES} "
    f"--websocket-max-frame-size {SERVER_MAX_MESSAGE_BYTES}"
)
CHAT_MAX_CHARS = 200
# A client reference echoed in replies (lets a client match a reply to its request).
REF_MAX_CHARS = 64
# Amounts are integer cents; anything larger than this is not a table amount.
MAX_AMOUNT = 10**12


class ErrorCode(StrEnum):
    """The `code` of an `error` frame: the consumer's own answers to a message it could not
    take (a refusal by the rules is a `result` frame with a `tables.services.Refusal`).
    docs/protocol.md lists exactly these (a test checks)."""

    BAD_JSON = "bad_json"
    BAD_FRAME = "bad_frame"
    TOO_LARGE = "too_large"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    MISSING_FIELD = "missing_field"
    UNKNOWN_FIELD = "unknown_field"
    BAD_FIELD = "bad_field"
    FORBIDDEN_FIELD = "forbidden_field"
    CHAT_TOO_LONG = "chat_too_long"
    LOGIN_REQUIRED = "login_required"
    RATE_LIMITED = "rate_limited"
    NOT_FOUND = "not_found"
    INTERNAL = "internal"


# A client's reference for a message, echoed in the replies to it.
Ref = str | int | None


class ProtocolError(ValueError):
    """A message that is not a valid command: answered with an error frame, nothing changes."""

    def __init__(self, code: str, message: str, *, ref: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def frame(self) -> dict[str, object]:
        return error_frame(self.code, self.message, ref=self.ref)


def error_frame(code: str, message: str, *, ref: str | int | None = None) -> dict[str, object]:
    frame: dict[str, object] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        frame["ref"] = ref
    return frame


# --- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Send me the whole table as I may see it (on connect, on a gap, on reconnect)."""

    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An action in the current hand; ``seq`` is the last event seq the client has seen (and
    ``hand_id``, optional, the hand it belongs to), so a stale or repeated action is answered,
    not applied."""

    seq: int
    kind: ActionKind
    amount: int = 0
    hand_id: int | None = None
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Sit:
    """Take a seat with a buy-in; ``seat`` None: the lowest free seat."""

    seat: int | None
    buy_in: int
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class AddChips:
    amount: int
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class SitOut:
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class SitIn:
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class ImIn:
    """R-ANTE-1: confirm "I'm in" for the next hand (players who post antes by hand)."""

    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class JoinWaitingList:
    """Wait for a seat at a full table; a freed seat is offered with ``seat_offer``."""

    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class LeaveWaitingList:
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Show:
    """R-SHOW-3: the winner nobody called shows their cards, after the hand and before the
    next one; ``hand_id`` names the hand (the one that just ended)."""

    hand_id: int
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class SetAutoMuck:
    """R-SHOW-3: the player's "muck losing hands" setting, read when the next hand starts."""

    on: bool
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class MuteChat:
    """Hide (``on``) or show again another player's chat, ``player_id`` (the chat frames'),
    on the account: every table, browser and device."""

    player_id: int
    on: bool
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    """``text`` is already checked: at most CHAT_MAX_CHARS, no control characters, and
    HTML-escaped so that no client can be handed markup by another player."""

    text: str
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive, and the client's position: the last (``hand_id``, ``seq``) it holds for
    this table. A client behind the table is sent a snapshot before the ``pong``, so a lost
    frame costs at most one ping interval (docs/protocol.md, "Catching up")."""

    hand_id: int | None = None
    seq: int | None = None
    ref: str | int | None = None


Command = (
    Snapshot
    | Act
    | Sit
    | AddChips
    | SitOut
    | SitIn
    | Leave
    | ImIn
    | JoinWaitingList
    | LeaveWaitingList
    | Show
    | SetAutoMuck
    | MuteChat
    | Chat
    | Ping
)


def _int(message: dict[str, Any], name: str, *, low: int, high: int, ref: Any) -> int:
    value = message.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(ErrorCode.BAD_FIELD, f"{name} must be an integer", ref=ref)
    if not low <= value <= high:
        raise ProtocolError(
            ErrorCode.BAD_FIELD, f"{name} must be between {low} and {high}", ref=ref
        )
    return value


def _ref(message: dict[str, Any]) -> str | int | None:
    ref = message.get("ref")
    if ref is None:
        return None
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise ProtocolError(ErrorCode.BAD_FIELD, "ref must be a string or an integer")
    if isinstance(ref, str) and len(ref) > REF_MAX_CHARS:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"ref is longer than {REF_MAX_CHARS} characters")
    if isinstance(ref, int) and abs(ref) > MAX_AMOUNT:
        raise ProtocolError(ErrorCode.BAD_FIELD, "ref is out of range")
    return ref


def clean_chat_text(text: str, *, ref: str | int | None = None) -> str:
    """Chat is plain text: trimmed, length-limited, no control characters, HTML-escaped."""
    text = text.strip()
    if not text:
        raise ProtocolError(ErrorCode.BAD_FIELD, "text is empty", ref=ref)
    if len(text) > CHAT_MAX_CHARS:
        raise ProtocolError(
            ErrorCode.CHAT_TOO_LONG, f"chat is limited to {CHAT_MAX_CHARS} characters", ref=ref
        )
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Co", "Cs"} for ch in text):
        raise ProtocolError(ErrorCode.BAD_FIELD, "text holds control characters", ref=ref)
    return html.escape(text, quote=True)


def parse_frame(text: str | None, raw: bytes | None = None) -> Command:
    """One client frame -> one command, or ProtocolError (malformed, unknown, oversize)."""
    if raw is not None and text is None:
        raise ProtocolError(ErrorCode.BAD_FRAME, "send JSON text frames, not binary")
    if text is None:
        raise ProtocolError(ErrorCode.BAD_FRAME, "empty frame")
    # A character is at least a byte: a long text is refused without encoding it.
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a message is limited to {MAX_FRAME_BYTES} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON") from None
    return parse_message(message)


def parse_message(message: Any) -> Command:
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a type")
    ref = _ref(message)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string type", ref=ref)
    spec = _BY_NAME.get(kind)
    if spec is None:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown type; one of: {', '.join(MESSAGE_TYPES)}", ref=ref
        )
    given = set(message) - {"type", "ref"}
    if kind != "sit" and ("seat" in given or "user" in given or "player" in given):
        raise ProtocolError(
            ErrorCode.FORBIDDEN_FIELD,
            "you act only as yourself: the seat comes from your session",
            ref=ref,
        )
    missing = spec.required - given
    if missing:
        raise ProtocolError(
            ErrorCode.MISSING_FIELD, f"missing: {', '.join(sorted(missing))}", ref=ref
        )
    unknown = given - spec.required - spec.optional
    if unknown:
        raise ProtocolError(
            ErrorCode.UNKNOWN_FIELD, f"unknown: {', '.join(sorted(unknown))}", ref=ref
        )
    if spec.parse is None:
        return spec.command(ref=ref)
    return spec.parse(message, ref)


def _parse_act(message: dict[str, Any], ref: Ref) -> Act:
    action = message.get("kind")
    if not isinstance(action, str) or action not in {k.value for k in ActionKind}:
        raise ProtocolError(
            ErrorCode.BAD_FIELD,
            f"kind must be one of: {', '.join(k.value for k in ActionKind)}",
            ref=ref,
        )
    amount = _int(message, "amount", low=0, high=MAX_AMOUNT, ref=ref) if "amount" in message else 0
    hand_id = _int(message, "hand_id", low=1, high=2**62, ref=ref) if "hand_id" in message else None
    return Act(
        seq=_int(message, "seq", low=0, high=2**31, ref=ref),
        kind=ActionKind(action),
        amount=amount,
        hand_id=hand_id,
        ref=ref,
    )


def _parse_sit(message: dict[str, Any], ref: Ref) -> Sit:
    return Sit(
        seat=_int(message, "seat", low=1, high=8, ref=ref) if "seat" in message else None,
        buy_in=_int(message, "buy_in", low=1, high=MAX_AMOUNT, ref=ref),
        ref=ref,
    )


def _parse_add_chips(message: dict[str, Any], ref: Ref) -> AddChips:
    return AddChips(amount=_int(message, "amount", low=1, high=MAX_AMOUNT, ref=ref), ref=ref)


def _parse_show(message: dict[str, Any], ref: Ref) -> Show:
    return Show(hand_id=_int(message, "hand_id", low=1, high=2**62, ref=ref), ref=ref)


def _parse_auto_muck(message: dict[str, Any], ref: Ref) -> SetAutoMuck:
    on = message.get("on")
    if not isinstance(on, bool):
        raise ProtocolError(ErrorCode.BAD_FIELD, "on must be true or false", ref=ref)
    return SetAutoMuck(on=on, ref=ref)


def _parse_mute(message: dict[str, Any], ref: Ref) -> MuteChat:
    on = message.get("on")
    if not isinstance(on, bool):
        raise ProtocolError(ErrorCode.BAD_FIELD, "on must be true or false", ref=ref)
    return MuteChat(
        player_id=_int(message, "player_id", low=1, high=2**62, ref=ref), on=on, ref=ref
    )


def _parse_ping(message: dict[str, Any], ref: Ref) -> Ping:
    hand_id = _int(message, "hand_id", low=1, high=2**62, ref=ref) if "hand_id" in message else None
    seq = _int(message, "seq", low=0, high=2**31, ref=ref) if "seq" in message else None
    return Ping(hand_id=hand_id, seq=seq, ref=ref)


def _parse_chat(message: dict[str, Any], ref: Ref) -> Chat:
    text = message.get("text")
    if not isinstance(text, str):
        raise ProtocolError(ErrorCode.BAD_FIELD, "text must be a string", ref=ref)
    return Chat(text=clean_chat_text(text, ref=ref), ref=ref)


# --- the table of commands --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One message a client may send: its name (the message's ``type`` on the wire, and the
    ``command`` of the reply to it), the class of the command it parses into, its fields
    besides ``type`` and ``ref`` (which is optional everywhere), how they are read (None: the
    command has no field but ``ref``), and whether a visitor, who only watches, may send it."""

    name: str
    command: Callable[..., Command]
    required: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    parse: Callable[[dict[str, Any], Ref], Command] | None = None
    watcher: bool = False


def _fields(*names: str) -> frozenset[str]:
    return frozenset(names)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("snapshot", Snapshot, watcher=True),
    CommandSpec("act", Act, _fields("seq", "kind"), _fields("amount", "hand_id"), _parse_act),
    CommandSpec("sit", Sit, _fields("buy_in"), _fields("seat"), _parse_sit),
    CommandSpec("add_chips", AddChips, _fields("amount"), parse=_parse_add_chips),
    CommandSpec("sit_out", SitOut),
    CommandSpec("sit_in", SitIn),
    CommandSpec("leave", Leave),
    CommandSpec("im_in", ImIn),
    CommandSpec("join_waiting_list", JoinWaitingList),
    CommandSpec("leave_waiting_list", LeaveWaitingList),
    CommandSpec("show", Show, _fields("hand_id"), parse=_parse_show),
    CommandSpec("auto_muck", SetAutoMuck, _fields("on"), parse=_parse_auto_muck),
    CommandSpec("mute", MuteChat, _fields("player_id", "on"), parse=_parse_mute),
    CommandSpec("chat", Chat, _fields("text"), parse=_parse_chat),
    CommandSpec("ping", Ping, optional=_fields("hand_id", "seq"), parse=_parse_ping, watcher=True),
)
_BY_NAME: dict[str, CommandSpec] = {spec.name: spec for spec in COMMANDS}
_BY_COMMAND: dict[Callable[..., Command], CommandSpec] = {spec.command: spec for spec in COMMANDS}
MESSAGE_TYPES = tuple(_BY_NAME)


def watcher_may_send(command: Command) -> bool:
    """A visitor (not logged in) only watches: a snapshot, a ping."""
    return _BY_COMMAND[type(command)].watcher


def command_name(command: Command) -> str:
    """The message ``type`` a command came as (the ``command`` named in its reply)."""
    return _BY_COMMAND[type(command)].name


# --- flood control ----------------------------------------------------------------------------


class RateLimiter:
    """A token bucket per connection: ``rate`` messages a second, bursts up to ``burst``.

    A message over the limit is refused (error frame, not processed); one that arrives after
    ``abuse_limit`` refusals within a short while marks the connection abusive, and the
    consumer closes it. Each connection has its own bucket: a flood on one costs no other.
    """

    def __init__(
        self,
        *,
        rate: float = 8.0,
        burst: int = 16,
        abuse_limit: int = 20,
        clock: Any = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.abuse_limit = abuse_limit
        self.clock = clock
        self.tokens = float(burst)
        self.refused = 0.0
        self.updated = clock()

    def admit(self) -> bool:
        now = self.clock()
        elapsed = max(0.0, now - self.updated)
        self.updated = now
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.rate)
        # Refusals are forgiven at the same pace tokens come back.
        self.refused = max(0.0, self.refused - elapsed * self.rate / 4)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1.0
        return False

    @property
    def abusive(self) -> bool:
        return self.refused > self.abuse_limit
