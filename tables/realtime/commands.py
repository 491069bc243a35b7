"""Every command a client of the table socket may send, declared once (issue #23), beside the
frames it receives (tables/realtime/frames.py).

Each command is a frozen `msgspec.Struct` whose tag is the message's `type` (and the
`command` named in the reply to it), its fields' types and ranges declared on it: a client
frame is decoded straight into one of them by msgspec (`parse_frame`). `ref`, a client's
reference echoed in the replies, is optional on all. `commands_schema()` is their JSON
schema; docs/protocol.md's "Client -> server" table is checked against them
(tests/tables/test_frames_declared.py).

Decoding checks shape only (types, required fields, ranges, sizes); whether a command is
allowed (whose turn, which amounts, enough balance) is the services' business. Identity is
never read from a message: a `seat` (except on `sit`), `user` or `player` field is refused,
the player is always the session's user. A message msgspec refuses is looked at once more
(`_refusal`) only to say why, with the codes of `ErrorCode` (tables/realtime/protocol.py),
in the order a client is told: its `ref`, its `type`, a forbidden field, a missing one, an
unknown one, a field's value."""

from __future__ import annotations

import html
import json
import unicodedata
from typing import Annotated, Any

import msgspec

from stud import ActionKind
from tables.realtime.protocol import (
    CHAT_MAX_CHARS,
    MAX_AMOUNT,
    MAX_FRAME_BYTES,
    REF_MAX_CHARS,
    ErrorCode,
    ProtocolError,
)

# The declared ranges of the commands' fields.
Ref = (
    Annotated[str, msgspec.Meta(max_length=REF_MAX_CHARS)]
    | Annotated[int, msgspec.Meta(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
    | None
)
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
HandId = Annotated[int, msgspec.Meta(ge=1, le=2**62)]
PlayerId = Annotated[int, msgspec.Meta(ge=1, le=2**62)]
SeatNumber = Annotated[int, msgspec.Meta(ge=1, le=8)]
Amount = Annotated[int, msgspec.Meta(ge=0, le=MAX_AMOUNT)]
PositiveAmount = Annotated[int, msgspec.Meta(ge=1, le=MAX_AMOUNT)]

# The fields no message but `sit` may carry (`seat`), and none at all (`user`, `player`).
FORBIDDEN_FIELDS = frozenset({"seat", "user", "player"})


class Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of every command: the tag `type` is the class's `tag`."""

    ref: Ref = None


class Snapshot(Command, frozen=True, tag="snapshot"):
    """Send me the whole table as I may see it (on connect, on a gap, on reconnect)."""


class Act(Command, frozen=True, tag="act"):
    """An action in the current hand; `seq` is the last event seq the client has seen (and
    `hand_id`, optional, the hand it belongs to), so a stale or repeated action is answered,
    not applied."""

    seq: Seq
    kind: ActionKind
    amount: Amount = 0
    hand_id: HandId | None = None


class Sit(Command, frozen=True, tag="sit"):
    """Take a seat with a buy-in; `seat` None: the lowest free seat."""

    buy_in: PositiveAmount
    seat: SeatNumber | None = None


class AddChips(Command, frozen=True, tag="add_chips"):
    amount: PositiveAmount


class SitOut(Command, frozen=True, tag="sit_out"):
    pass


class SitIn(Command, frozen=True, tag="sit_in"):
    pass


class Leave(Command, frozen=True, tag="leave"):
    pass


class ImIn(Command, frozen=True, tag="im_in"):
    """R-ANTE-1: confirm "I'm in" for the next hand (players who post antes by hand)."""


class JoinWaitingList(Command, frozen=True, tag="join_waiting_list"):
    """Wait for a seat at a full table; a freed seat is offered with `seat_offer`."""


class LeaveWaitingList(Command, frozen=True, tag="leave_waiting_list"):
    pass


class Show(Command, frozen=True, tag="show"):
    """R-SHOW-3: the winner nobody called shows their cards, after the hand and before the
    next one; `hand_id` names the hand (the one that just ended)."""

    hand_id: HandId


class SetAutoMuck(Command, frozen=True, tag="auto_muck"):
    """R-SHOW-3: the player's "muck losing hands" setting, read when the next hand starts."""

    on: bool


class MuteChat(Command, frozen=True, tag="mute"):
    """Hide (`on`) or show again another player's chat, `player_id` (the chat frames'), on
    the account: every table, browser and device."""

    player_id: PlayerId
    on: bool


class Chat(Command, frozen=True, tag="chat"):
    """`text`, once parsed, is checked: at most CHAT_MAX_CHARS after trimming, no control
    characters, and HTML-escaped so that no client can be handed markup by another player."""

    text: str


class Ping(Command, frozen=True, tag="ping"):
    """Keep-alive, and the client's position: the last (`hand_id`, `seq`) it holds for this
    table. A client behind the table is sent a snapshot before the `pong`, so a lost frame
    costs at most one ping interval (docs/protocol.md, "Catching up")."""

    hand_id: HandId | None = None
    seq: Seq | None = None


TableCommand = (
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

COMMANDS: tuple[type[Command], ...] = (
    Snapshot,
    Act,
    Sit,
    AddChips,
    SitOut,
    SitIn,
    Leave,
    ImIn,
    JoinWaitingList,
    LeaveWaitingList,
    Show,
    SetAutoMuck,
    MuteChat,
    Chat,
    Ping,
)
# What a visitor, who only watches, may send.
WATCHER_COMMANDS: frozenset[type[Command]] = frozenset({Snapshot, Ping})


def command_tag(command_class: type[Command]) -> str:
    return str(command_class.__struct_config__.tag)


_BY_NAME: dict[str, type[Command]] = {command_tag(c): c for c in COMMANDS}
MESSAGE_TYPES: tuple[str, ...] = tuple(_BY_NAME)
_decoder = msgspec.json.Decoder(TableCommand)


def command_name(command: Command) -> str:
    """The message `type` a command came as (the `command` named in its reply)."""
    return command_tag(type(command))


def watcher_may_send(command: Command) -> bool:
    """A visitor (not logged in) only watches: a snapshot, a ping."""
    return type(command) in WATCHER_COMMANDS


def command_fields(command_class: type[Command]) -> tuple[frozenset[str], frozenset[str]]:
    """The declared (required, optional) fields of a command, besides `type` and `ref`."""
    fields = [f for f in msgspec.structs.fields(command_class) if f.name != "ref"]
    required = frozenset(f.name for f in fields if f.required)
    return required, frozenset(f.name for f in fields) - required


def commands_schema() -> dict[str, Any]:
    """The JSON schema of every command (`$defs`, one a type, and the union)."""
    schema: dict[str, Any] = msgspec.json.schema(TableCommand)
    return schema


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
        command: Command = _decoder.decode(text)
    except msgspec.ValidationError as invalid:
        raise _refusal(text, invalid) from None
    except msgspec.DecodeError:
        raise ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON") from None
    if isinstance(command, Chat):
        clean = clean_chat_text(command.text, ref=command.ref)
        return msgspec.structs.replace(command, text=clean)
    return command


# --- why a message was refused ---------------------------------------------------------------


def _refusal(text: str, invalid: msgspec.ValidationError) -> ProtocolError:
    """The error a client is told for a message msgspec refused (a rare path: the message
    is read once more, as plain JSON, to say why in the order docs/protocol.md gives)."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON")
    if not isinstance(message, dict):
        return ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a type")
    ref = message.get("ref")
    try:
        ref = msgspec.convert(ref, Ref)
    except msgspec.ValidationError:
        if isinstance(ref, str):
            why = f"ref is longer than {REF_MAX_CHARS} characters"
        elif isinstance(ref, int) and not isinstance(ref, bool):
            why = "ref is out of range"
        else:
            why = "ref must be a string or an integer"
        return ProtocolError(ErrorCode.BAD_FIELD, why)
    kind = message.get("type")
    if not isinstance(kind, str):
        return ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string type", ref=ref)
    command_class = _BY_NAME.get(kind)
    if command_class is None:
        return ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown type; one of: {', '.join(MESSAGE_TYPES)}", ref=ref
        )
    given = set(message) - {"type", "ref"}
    forbidden = FORBIDDEN_FIELDS - {"seat"} if command_class is Sit else FORBIDDEN_FIELDS
    if given & forbidden:
        return ProtocolError(
            ErrorCode.FORBIDDEN_FIELD,
            "you act only as yourself: the seat comes from your session",
            ref=ref,
        )
    required, optional = command_fields(command_class)
    missing = required - given
    if missing:
        return ProtocolError(
            ErrorCode.MISSING_FIELD, f"missing: {', '.join(sorted(missing))}", ref=ref
        )
    unknown = given - required - optional
    if unknown:
        return ProtocolError(
            ErrorCode.UNKNOWN_FIELD, f"unknown: {', '.join(sorted(unknown))}", ref=ref
        )
    # A field's type or range: msgspec's own words ("Expected `int` >= 1 - at `$.amount`").
    return ProtocolError(ErrorCode.BAD_FIELD, str(invalid), ref=ref)
