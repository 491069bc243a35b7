"""What a table service returns: whether it applied, and the frames it broadcasts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["applied", "stale", "refused"]


@dataclass(frozen=True)
class Frames:
    """Frames for the table group and for each player's own group (docs/tables-services.md)."""

    table: list[dict[str, Any]] = field(default_factory=list)
    users: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.table) or any(self.users.values())


@dataclass(frozen=True)
class TableResult:
    status: Status
    table_id: int
    error: str | None = None
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
            "error": self.error,
            "message": self.message,
            "table_id": self.table_id,
            "hand_id": self.hand_id,
            "seq": self.seq,
        }


def refused(
    table_id: int, error: str, message: str, *, hand_id: int | None = None, seq: int | None = None
) -> TableResult:
    return TableResult("refused", table_id, error, message, hand_id, seq)


def stale(table_id: int, *, hand_id: int | None, seq: int | None) -> TableResult:
    return TableResult(
        "stale",
        table_id,
        "stale",
        "That was already answered or is out of date; the hand has moved on.",
        hand_id,
        seq,
    )
