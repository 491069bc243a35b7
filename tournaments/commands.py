"""Every command a client of a tournament socket may send, declared once (issue #23), in the
table commands' style (tables/realtime/commands.py): a frozen `msgspec.Struct` whose tag is
the message's `type`, decoded straight into one of them (`parse_command`). `ref`, echoed in
the reply, is optional on both. `TOURNAMENT_COMMANDS` is what docs/protocol.md's "Client ->
server (tournament sockets)" table is checked against (tests/tables/test_frames_declared.py),
and `tournament_commands_schema()` their JSON schema.

A message msgspec refuses is looked at once more (`_refusal`) only to say why, with the codes
of `TournamentErrorCode`, in the order a client is told: not JSON, not an object, its `ref`,
its `type`, a field it does not take."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import msgspec

from tables.realtime.protocol import REF_MAX_CHARS

Ref = Annotated[str, msgspec.Meta(max_length=REF_MAX_CHARS)] | int | None


class TournamentErrorCode(StrEnum):
    """The `code` of an `error` frame on a tournament socket (docs/protocol.md lists them)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    NOT_FOUND = "not_found"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"


class TournamentRefused(Exception):
    """A message a tournament socket does not take: its code, message and (when it could be
    read) the client's `ref`."""

    def __init__(self, code: TournamentErrorCode, message: str, ref: str | int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


class TournamentCommandBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of a tournament socket's commands: the tag `type` is the class's `tag`."""

    ref: Ref = None


class Snapshot(TournamentCommandBase, frozen=True, tag="snapshot"):
    """Send me the whole tournament (`tournament`; on the lobby's socket, `tournament_rows`)."""


class Ping(TournamentCommandBase, frozen=True, tag="ping"):
    """Keep-alive: answered `pong`."""


TournamentCommand = Snapshot | Ping
TOURNAMENT_COMMANDS: tuple[type[TournamentCommandBase], ...] = (Snapshot, Ping)


def command_tag(command_class: type[TournamentCommandBase]) -> str:
    return str(command_class.__struct_config__.tag)


_BY_NAME = {command_tag(c): c for c in TOURNAMENT_COMMANDS}
_decoder = msgspec.json.Decoder(TournamentCommand)


def tournament_commands_schema() -> dict[str, Any]:
    """The JSON schema of every command (`$defs`, one a type, and the union)."""
    schema: dict[str, Any] = msgspec.json.schema(TournamentCommand)
    return schema


def parse_command(text: str) -> Snapshot | Ping:
    """One client message -> one command, or TournamentRefused. (Its size is the consumer's
    to check first: a message over the limit is refused unread.)"""
    try:
        command: Snapshot | Ping = _decoder.decode(text)
    except msgspec.ValidationError:
        raise _refusal(text) from None
    except msgspec.DecodeError:
        raise TournamentRefused(TournamentErrorCode.BAD_JSON, "not JSON") from None
    return command


def _refusal(text: str) -> TournamentRefused:
    """Why msgspec refused a message (read once more, as plain JSON)."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return TournamentRefused(TournamentErrorCode.BAD_JSON, "not JSON")
    if not isinstance(message, dict):
        return TournamentRefused(TournamentErrorCode.BAD_MESSAGE, "not an object")
    ref = message.get("ref")
    if isinstance(ref, str) and len(ref) > REF_MAX_CHARS:
        return TournamentRefused(
            TournamentErrorCode.BAD_MESSAGE, f"ref is longer than {REF_MAX_CHARS} characters"
        )
    try:
        ref = msgspec.convert(ref, Ref)
    except msgspec.ValidationError:
        return TournamentRefused(
            TournamentErrorCode.BAD_MESSAGE, "ref must be a string or an integer"
        )
    kind = message.get("type")
    command_class = _BY_NAME.get(kind) if isinstance(kind, str) else None
    if command_class is None:
        return TournamentRefused(
            TournamentErrorCode.UNKNOWN_TYPE,
            "a tournament socket takes only snapshot and ping",
            ref=ref,
        )
    unknown = set(message) - set(command_class.__struct_fields__) - {"type"}
    return TournamentRefused(
        TournamentErrorCode.BAD_MESSAGE,
        f"unknown: {', '.join(sorted(unknown))}" if unknown else "not a tournament command",
        ref=ref,
    )
