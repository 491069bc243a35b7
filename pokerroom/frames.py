"""The frames of the ping socket (`/ws/ping/`, pokerroom/consumers.py), declared once (issue
#23) in the table frames' style (tables/realtime/frames.py): a frozen `msgspec.Struct` whose
tag is its `type`. docs/protocol.md's "The ping socket" table is checked against
`PING_FRAMES` (tests/tables/test_frames_declared.py)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder()


class PingErrorCode(StrEnum):
    """The `code` of the ping socket's `error` frame."""

    BAD_MESSAGE = "bad_message"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"


class PingFrameBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of the ping socket's frames: the tag `type` is the class's `tag`."""


class PingPong(PingFrameBase, frozen=True, tag="pong"):
    """The answer to a ping: the session's `user` name (null: a visitor) and its `echo`."""

    user: str | None
    echo: Any


class PingError(PingFrameBase, frozen=True, tag="error"):
    """A message the ping socket did not answer (`PingErrorCode`)."""

    code: str
    message: str


PING_FRAMES: tuple[type[PingFrameBase], ...] = (PingPong, PingError)


def frame_tag(frame_class: type[PingFrameBase]) -> str:
    return str(frame_class.__struct_config__.tag)


def frame_text(frame: PingFrameBase) -> str:
    """The frame as the JSON text a client receives."""
    return _encoder.encode(frame).decode()


def ping_frames_schema() -> dict[str, Any]:
    schema: dict[str, Any] = msgspec.json.schema(PingPong | PingError)
    return schema
