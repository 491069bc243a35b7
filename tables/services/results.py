"""What a table service returns: whether it applied, why not (a `Refusal`), and the frames
it broadcasts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from tables.realtime.frames import Frame, frame_json

# applied: the change is made; stale: an expected seq or hand that has moved on, nothing
# done; refused: a rule or a check said no, nothing written; skipped: the next hand could not
# be dealt and its schedule was cleared (hand_start only: docs/tables-services.md).
Status = Literal["applied", "stale", "refused", "skipped"]


class Refusal(StrEnum):
    """Why a service did not apply: `TableResult.error`, the `error` of a `result` frame.
    docs/tables-services.md and docs/protocol.md list exactly these (a test checks)."""

    NOT_FOUND = "not_found"
    TABLE_CLOSED = "table_closed"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    SEAT_TAKEN = "seat_taken"
    BAD_SEAT = "bad_seat"
    TABLE_FULL = "table_full"
    SEAT_OFFERED = "seat_offered"
    SEAT_HELD = "seat_held"
    SHORT_BUY_IN = "short_buy_in"
    INSUFFICIENT_BALANCE = "insufficient_balance"
    PLAY_LIMIT = "play_limit"
    BAD_AMOUNT = "bad_amount"
    IN_HAND = "in_hand"
    NO_HAND = "no_hand"
    NOT_IN_HAND = "not_in_hand"
    ILLEGAL_ACTION = "illegal_action"
    STALE = "stale"
    ALREADY_WAITING = "already_waiting"
    NOT_WAITING = "not_waiting"
    SEATS_FREE = "seats_free"
    HAND_RUNNING = "hand_running"
    TOURNAMENT_TABLE = "tournament_table"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_DUE = "not_due"
    TOO_LATE = "too_late"
    BUSY = "busy"
    BAD_PLAYER = "bad_player"
    SUSPENDED = "suspended"
    SHARED_ADDRESS = "shared_address"


@dataclass(frozen=True)
class Frames:
    """Frames for the table group and for each player's own group (docs/tables-services.md),
    as declared (tables/realtime/frames.py), final when built."""

    table: list[Frame] = field(default_factory=list)
    users: dict[int, list[Frame]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.table) or any(self.users.values())

    @cached_property
    def table_json(self) -> list[dict[str, Any]]:
        """The table group's frames as the JSON objects a client receives."""
        return [frame_json(frame) for frame in self.table]

    @cached_property
    def users_json(self) -> dict[int, list[dict[str, Any]]]:
        """Each player's own frames as the JSON objects a client receives."""
        return {user: [frame_json(frame) for frame in sent] for user, sent in self.users.items()}


@dataclass(frozen=True)
class TableResult:
    status: Status
    table_id: int
    error: Refusal | None = None
    message: str = ""
    hand_id: int | None = None
    seq: int | None = None
    frames: Frames = field(default_factory=Frames)

    @property
    def ok(self) -> bool:
        return self.status == "applied"

    def reply(self) -> dict[str, Any]:
        """The frame answering whoever made the call."""
        return {
            "type": "result",
            "ok": self.ok,
            "status": self.status,
            "error": None if self.error is None else str(self.error),
            "message": self.message,
            "table_id": self.table_id,
            "hand_id": self.hand_id,
            "seq": self.seq,
        }


def refused(
    table_id: int,
    error: Refusal,
    message: str,
    *,
    hand_id: int | None = None,
    seq: int | None = None,
) -> TableResult:
    return TableResult("refused", table_id, error, message, hand_id, seq)


def stale(table_id: int, *, hand_id: int | None, seq: int | None) -> TableResult:
    return TableResult(
        "stale",
        table_id,
        Refusal.STALE,
        "That was already answered or is out of date; the hand has moved on.",
        hand_id,
        seq,
    )
