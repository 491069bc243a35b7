"""Every frame a client of a tournament socket receives, declared once (issue #23), in the
table frames' style (tables/realtime/frames.py): a frozen `msgspec.Struct` whose tag is its
`type`, final when built. `TOURNAMENT_FRAMES` is what docs/protocol.md's "Server -> client
(tournament sockets)" table is checked against (tests/tables/test_frames_declared.py), and
`tournament_frames_schema()` their JSON schema.

The consumer (tournaments/consumer.py) sends the snapshot, the lobby's rows, `pong` and
`error`; tournaments/broadcast.py the changes and the player's notices, after commit."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

Ref = str | int


class TournamentFrameBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of every tournament frame: the tag `type` is the class's `tag`."""


class TournamentSnapshot(TournamentFrameBase, frozen=True, tag="tournament"):
    """The whole tournament (tournaments.selectors.tournament_snapshot), with its `seq`: a
    client keeps the frame with the highest."""

    tournament_id: int
    seq: int
    tournament: dict[str, Any]
    ref: Ref | UnsetType = UNSET


class TournamentRows(TournamentFrameBase, frozen=True, tag="tournament_rows"):
    """The lobby's Tournaments tab, every row (tournaments.selectors.lobby_rows)."""

    rows: list[dict[str, Any]]
    ref: Ref | UnsetType = UNSET


class TournamentRow(TournamentFrameBase, frozen=True, tag="tournament_row"):
    """One lobby row changed."""

    tournament_id: int
    seq: int
    row: dict[str, Any]


class TournamentMoved(TournamentFrameBase, frozen=True, tag="tournament_moved"):
    """To the player alone: the draw seated them or they were moved (R-TOUR-2/3/4)."""

    tournament_id: int
    table_id: int
    table_number: int | None
    seat: int
    url: str


class TournamentEliminated(TournamentFrameBase, frozen=True, tag="tournament_eliminated"):
    """To the player alone, on elimination (R-TOUR-7): `prize` in cents, `prize_at_end` when
    a paid place's prize is credited as the tournament ends."""

    tournament_id: int | None
    place: int
    prize: int
    prize_at_end: bool


class TournamentError(TournamentFrameBase, frozen=True, tag="error"):
    """A message the socket could not take (tournaments.commands.TournamentErrorCode)."""

    code: str
    message: str
    ref: Ref | UnsetType = UNSET


class TournamentPong(TournamentFrameBase, frozen=True, tag="pong"):
    ref: Ref | UnsetType = UNSET


TournamentFrame = (
    TournamentSnapshot
    | TournamentRows
    | TournamentRow
    | TournamentMoved
    | TournamentEliminated
    | TournamentError
    | TournamentPong
)

TOURNAMENT_FRAMES: tuple[type[TournamentFrameBase], ...] = (
    TournamentSnapshot,
    TournamentRows,
    TournamentRow,
    TournamentMoved,
    TournamentEliminated,
    TournamentError,
    TournamentPong,
)

_encoder = msgspec.json.Encoder()


def frame_tag(frame_class: type[TournamentFrameBase]) -> str:
    return str(frame_class.__struct_config__.tag)


def frame_text(frame: TournamentFrameBase) -> str:
    """The frame as the JSON text a client receives."""
    return _encoder.encode(frame).decode()


def tournament_frames_schema() -> dict[str, Any]:
    """The JSON schema of every tournament frame (`$defs`, one a type, and the union)."""
    schema: dict[str, Any] = msgspec.json.schema(TournamentFrame)
    return schema
