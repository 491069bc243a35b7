"""Every frame a client of the table socket receives, declared once (issue #23).

Each frame is a frozen `msgspec.Struct` whose tag is its `type`: built once, by the service
or selector that knows what it says, and never edited after (the outbox only collects and
transports them: tables/services/outbox.py). `TableFrame` is the union of them all; its
JSON schema (`table_frames_schema`) is what docs/protocol.md is checked against
(tests/tables/test_frames_declared.py) and what the browser's JSDoc types are generated
from (`manage.py frame_typedefs` writes static/js/table/frames.js). The commands a client
sends are declared beside them, in tables/realtime/commands.py.

msgspec, not pydantic: building and encoding a frame costs about a tenth of pydantic's and
of a dict through `json.dumps` (docs/performance.md, "Issue #23: frames declared").

A field that is `UNSET` is left out of the JSON (the frame has no such key); a field that
is None is sent as null. The tournaments' frames are tournaments/frames.py."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

Status = Literal["applied", "stale", "refused", "skipped"]
Ref = str | int


class Frame(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of every frame: the tag `type` is the class's `tag`."""


# --- the hand ------------------------------------------------------------------------------


class Event(Frame, frozen=True, tag="event"):
    """One hand event. `seq` is the hand's, 1, 2, 3 ... for every viewer. An event one seat
    alone may see reaches the table as a placeholder (`kind` "private", `seat`, empty
    `payload`) and that seat's player as the real event with `private` true. The last event
    of a batch names the turn (`to_act`, `action_deadline`, `ms_left`); the others null."""

    table_id: int
    hand_id: int
    hand_number: int
    seq: int
    kind: str
    payload: dict[str, Any]
    to_act: int | None = None
    action_deadline: str | None = None
    ms_left: int | None = None
    seat: int | UnsetType = UNSET
    private: bool | UnsetType = UNSET


class HandStrength(Frame, frozen=True, tag="hand_strength"):
    """To a player still in the hand, after a batch that dealt cards: what their cards make."""

    table_id: int
    hand_id: int
    seq: int
    seat: int
    high: str | None
    low: str | None


class LegalAction(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    amount: int
    adds: int


class YourTurn(Frame, frozen=True, tag="your_turn"):
    """To the player to act only, after the batch's events."""

    table_id: int
    hand_id: int
    seq: int
    seat: int | None
    legal_actions: list[LegalAction]
    action_deadline: str | None
    ms_left: int | None


class TimeBank(Frame, frozen=True, tag="time_bank"):
    """R-BET-7: the action clock ran out and the player's time bank runs now."""

    table_id: int
    hand_id: int
    seq: int
    seat: int
    time_bank_ms: int
    action_deadline: str | None
    ms_left: int | None


class TurnClock(Frame, frozen=True, tag="turn_clock"):
    """R-TIME-3: the turn's broadcast was lost (the room could not reach the player): its
    clock starts again, the time bank untouched."""

    table_id: int
    hand_id: int
    seq: int
    seat: int
    action_deadline: str | None
    ms_left: int | None


class ShowOffer(Frame, frozen=True, tag="show_offer"):
    """R-SHOW-3: to the winner nobody called, when the hand ends."""

    table_id: int
    hand_id: int
    seat: int
    until: str | None
    ms_left: int | None


# --- the table -----------------------------------------------------------------------------


class Seats(Frame, frozen=True, tag="seats"):
    """The seats changed: the whole list (tables.selectors.seats_public)."""

    table_id: int
    seats: list[dict[str, Any]]


class LastHands(Frame, frozen=True, tag="last_hands"):
    """A hand ended: the table's last hands (newest first, as the snapshot's `last_hands`),
    so no viewer asks for a snapshot to learn them (issue #23)."""

    table_id: int
    last_hands: list[dict[str, Any]]


class WaitingList(Frame, frozen=True, tag="waiting_list"):
    table_id: int
    entries: list[dict[str, Any]]


class SeatOffer(Frame, frozen=True, tag="seat_offer"):
    """To the first in line when a seat frees: held for them `until`."""

    table_id: int
    entry_id: int
    until: str | None
    ms_left: int | None


class NextHand(Frame, frozen=True, tag="next_hand"):
    """A hand is due `at` (null: none is); `awaiting_ante`: the seats whose "I'm in" it waits
    for (R-ANTE-1; not sent at a tournament table, which asks nobody)."""

    table_id: int
    at: str | None
    ms_left: int | None
    awaiting_ante: list[int] | UnsetType = UNSET


class AnteConfirm(Frame, frozen=True, tag="ante_confirm"):
    """R-ANTE-1: to a player who confirms antes by hand: reply `im_in` before `deadline`."""

    table_id: int
    deadline: str | None
    ms_left: int | None


class Stakes(Frame, frozen=True, tag="stakes"):
    """R-TOUR-5: a tournament table's next hand is dealt at these stakes."""

    table_id: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    dealer_only_ante: bool


class RotationState(msgspec.Struct, frozen=True, kw_only=True):
    """R-MIX-1: where a Triple Stud table's rotation stands (stud.variant.Rotation)."""

    hand_in_play: bool
    current_game: str
    next_hand_game: str
    hands_left_in_game: int
    next_game: str


class TableGame(Frame, frozen=True, tag="table_game"):
    """R-MIX-1: a hand was dealt or ended at a Triple Stud table: the game now and next, as
    the snapshot's `table` has them (`game`, `game_label`, `rotation`), so the header
    changes with the hand and no page asks for a snapshot to learn it."""

    table_id: int
    game: str
    game_label: str
    rotation: RotationState | None


class ViewerState(msgspec.Struct, frozen=True, kw_only=True):
    """The viewer's own part of the table, as the snapshot's `viewer` has it."""

    player_id: int
    seat: int
    auto_ante: bool
    auto_muck: bool
    ante_confirmed: bool
    time_bank_ms: int
    all_in_protection_left: int


class Viewer(Frame, frozen=True, tag="viewer"):
    """To the player alone: their own part of the table changed (they sat down, said "I'm
    in", changed a setting the table reads): the snapshot's `viewer`, whole."""

    table_id: int
    viewer: ViewerState


class TableClosed(Frame, frozen=True, tag="table_closed"):
    table_id: int
    hand_running: bool


class TableOpened(Frame, frozen=True, tag="table_opened"):
    """Staff opened the table again: it deals and seats players again."""

    table_id: int


class Chat(Frame, frozen=True, tag="chat"):
    """A chat line (`text` HTML-escaped by the server), `at` when it was said (ISO)."""

    table_id: int
    player_id: int
    name: str
    text: str
    at: str


class RealityCheckNotice(Frame, frozen=True, tag="reality_check"):
    """Issue #26: to one player, at the end of a hand (or between hands, seated and dealt
    into none), every `every_minutes` of their play session: time played, net result
    (cents: chips won less lost, after rake) and rake paid (their share, cents) since
    `started_at` (tables/services/reality_checks.py)."""

    table_id: int
    check_id: int
    started_at: str
    minutes_played: int
    net: int
    rake_paid: int
    every_minutes: int


# --- replies to the one who sent a command -------------------------------------------------


class Snapshot(Frame, frozen=True, tag="snapshot"):
    """The whole table as this viewer may see it (tables.selectors.table_snapshot)."""

    table: dict[str, Any]
    seats: list[dict[str, Any]]
    viewer: dict[str, Any] | None
    hand: dict[str, Any] | None
    next_hand_at: str | None
    next_hand_ms_left: int | None
    awaiting_ante: list[int]
    waiting_list: list[dict[str, Any]]
    last_hands: list[dict[str, Any]]
    chat: list[dict[str, Any]]
    chat_muted: list[int]
    show_offer: dict[str, Any] | None = None
    ref: Ref | UnsetType = UNSET


class Result(Frame, frozen=True, tag="result"):
    """The reply to a command (tables.services.TableResult.reply)."""

    ok: bool
    status: Status
    error: str | None
    message: str
    table_id: int
    hand_id: int | None
    seq: int | None
    command: str | UnsetType = UNSET
    ref: Ref | UnsetType = UNSET


class Error(Frame, frozen=True, tag="error"):
    """A message that was not a valid command (tables.realtime.protocol.ErrorCode)."""

    code: str
    message: str
    ref: Ref | UnsetType = UNSET


class Pong(Frame, frozen=True, tag="pong"):
    ref: Ref | UnsetType = UNSET


TableFrame = (
    Event
    | HandStrength
    | YourTurn
    | TimeBank
    | TurnClock
    | ShowOffer
    | Seats
    | LastHands
    | WaitingList
    | SeatOffer
    | NextHand
    | AnteConfirm
    | Stakes
    | TableGame
    | Viewer
    | TableClosed
    | TableOpened
    | Chat
    | RealityCheckNotice
    | Snapshot
    | Result
    | Error
    | Pong
)

TABLE_FRAMES: tuple[type[Frame], ...] = (
    Event,
    HandStrength,
    YourTurn,
    TimeBank,
    TurnClock,
    ShowOffer,
    Seats,
    LastHands,
    WaitingList,
    SeatOffer,
    NextHand,
    AnteConfirm,
    Stakes,
    TableGame,
    Viewer,
    TableClosed,
    TableOpened,
    Chat,
    RealityCheckNotice,
    Snapshot,
    Result,
    Error,
    Pong,
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(TableFrame)


def frame_tag(frame_class: type[Frame]) -> str:
    return str(frame_class.__struct_config__.tag)


def frame_text(frame: Frame) -> str:
    """The frame as the JSON text a client receives."""
    return _encoder.encode(frame).decode()


def frame_json(frame: Frame) -> dict[str, Any]:
    """The frame as the JSON object a client receives (what tests and the snapshot read)."""
    built: dict[str, Any] = msgspec.to_builtins(frame)
    return built


def frame_check(received: dict[str, Any] | str | bytes) -> Frame:
    """The declared frame a client's JSON is, or `msgspec.ValidationError` when it is none
    (an unknown type, a field missing, extra or of another type)."""
    text = received if isinstance(received, str | bytes) else _encoder.encode(received)
    checked: Frame = _decoder.decode(text)
    return checked


def table_frames_schema() -> dict[str, Any]:
    """The JSON schema of every table frame (`$defs`, one a type, and the union)."""
    schema: dict[str, Any] = msgspec.json.schema(TableFrame)
    return schema
