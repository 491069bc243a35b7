"""The one command of the ping socket (`/ws/ping/`, pokerroom/consumers.py), declared once
(issue #23) in the table commands' style (tables/realtime/commands.py): `{"type": "ping",
"echo": ...}`, decoded straight into `Ping` by msgspec. `PING_COMMANDS` is what
docs/protocol.md's "Client -> server (the ping socket)" table is checked against
(tests/tables/test_frames_declared.py), `ping_commands_schema()` its JSON schema. No page
uses this socket: the schema is documented, no JavaScript types are generated for it."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from tables.realtime.protocol import REF_MAX_CHARS

ECHO_MAX_CHARS = REF_MAX_CHARS

# What a ping may ask to be echoed: any JSON value, a string of at most ECHO_MAX_CHARS.
Echo = (
    Annotated[str, msgspec.Meta(max_length=ECHO_MAX_CHARS)]
    | int
    | float
    | bool
    | list[Any]
    | dict[str, Any]
    | None
)


class PingCommandBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """The base of the ping socket's commands: the tag `type` is the class's `tag`."""


class Ping(PingCommandBase, frozen=True, tag="ping"):
    """Answered `pong` with the session's user name and this `echo`."""

    echo: Echo = None


PING_COMMANDS: tuple[type[PingCommandBase], ...] = (Ping,)
_decoder = msgspec.json.Decoder(Ping)


class PingRefused(Exception):
    """A message the ping socket does not take; `message` says why (code `bad_message`)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def command_tag(command_class: type[PingCommandBase]) -> str:
    return str(command_class.__struct_config__.tag)


def ping_commands_schema() -> dict[str, Any]:
    schema: dict[str, Any] = msgspec.json.schema(Ping)
    return schema


def parse_ping(text: str) -> Ping:
    """One client message -> a `Ping`, or PingRefused. (Its size is the consumer's to check
    first: a message over the limit is refused unread.)"""
    try:
        return _decoder.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass
    try:
        echo = msgspec.json.decode(text).get("echo")
    except (msgspec.DecodeError, AttributeError):
        echo = None
    if isinstance(echo, str) and len(echo) > ECHO_MAX_CHARS:
        raise PingRefused(f"echo is at most {ECHO_MAX_CHARS} characters")
    raise PingRefused('send {"type": "ping"}')
