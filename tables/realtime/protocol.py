"""The live table's WebSocket protocol: its limits, the codes of its `error` frames and the
flood control of a connection.

docs/protocol.md is the reader's version of this module. What a client may send is declared
in tables/realtime/commands.py, what it receives in tables/realtime/frames.py.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Any

from msgspec import UNSET

from tables.realtime.frames import Error

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

    def frame(self) -> Error:
        return error_frame(self.code, self.message, ref=self.ref)


def error_frame(code: str, message: str, *, ref: str | int | None = None) -> Error:
    """The declared `error` frame (tables/realtime/frames.py); `ref` left out when None."""
    return Error(code=str(code), message=message, ref=UNSET if ref is None else ref)


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
