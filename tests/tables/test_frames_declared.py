"""Issue #23: the protocol is declared once (tables/realtime/frames.py, the frames a client
receives; tables/realtime/commands.py, the commands it sends) and docs/protocol.md says what
the declarations say: its "Server -> client" table lists exactly the declared frame types,
its "Client -> server" table exactly the declared commands, and each row names every field
of its frame or command; the browser's JSDoc types (static/js/table/frames.js,
static/js/table/commands.js, static/js/tournament/frames.js, static/js/tournament/commands.js)
are the ones generated from the declarations' JSON schema. The tournament sockets' and the
ping socket's frames and commands are checked the same way against their own tables."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from pokerroom import commands as ping_commands
from pokerroom import frames as ping_frames
from tables.realtime import commands, frames
from tables.realtime.typedefs import typedef_files
from tournaments import commands as tournament_commands
from tournaments import frames as tournament_frames

ROOT = Path(__file__).resolve().parents[2]
# Fields every reader knows without the row saying them: the tag, the table, the echo.
FIELDS_NOT_RESTATED = {"type", "table_id", "ref", "command"}


def protocol_rows(heading: str) -> dict[str, str]:
    """The rows of the markdown table under `heading`: each type of the first column (a row
    may name several, "`seat_offer`, `waiting_list`") -> the row's text."""
    lines = (ROOT / "docs" / "protocol.md").read_text().splitlines()
    start = lines.index(heading)
    rows: dict[str, str] = {}
    in_table = False
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if not line.startswith("|"):
            if in_table:
                break
            continue
        in_table = True
        first = line.split("|")[1]
        for name in re.findall(r"`([a-z_]+)`", first):
            rows[name] = line
    return rows


def test_the_doc_lists_exactly_the_declared_frames() -> None:
    documented = set(protocol_rows("## Server -> client"))
    declared = {frames.frame_tag(frame) for frame in frames.TABLE_FRAMES}
    assert documented - declared == set(), "docs/protocol.md lists frames never declared"
    assert declared - documented == set(), "docs/protocol.md does not list declared frames"


@pytest.mark.parametrize("frame", frames.TABLE_FRAMES, ids=frames.frame_tag)
def test_the_doc_row_names_every_field_of_the_frame(frame: type[frames.Frame]) -> None:
    row = protocol_rows("## Server -> client")[frames.frame_tag(frame)]
    named = set(re.findall(r"`([a-z_]+)`", row))
    missing = set(frame.__struct_fields__) - FIELDS_NOT_RESTATED - named
    assert missing == set(), f"docs/protocol.md's `{frames.frame_tag(frame)}` row omits {missing}"


def test_a_frame_is_final_once_built() -> None:
    frame = frames.Stakes(
        table_id=1, ante=5, bring_in=10, small_bet=20, big_bet=40, dealer_only_ante=False
    )
    with pytest.raises(AttributeError):
        frame.ante = 10  # type: ignore[misc]


def test_a_frame_that_is_not_declared_does_not_validate() -> None:
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "stakes", "table_id": 1, "ante": 5})  # fields missing
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "pong", "echo": 1})  # a field never declared
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "gossip"})


@pytest.mark.parametrize("path", sorted(typedef_files()))
def test_the_browsers_types_are_generated_from_the_declarations(path: str) -> None:
    """`manage.py frame_typedefs` writes the JSDoc types of the table frames
    (static/js/table/frames.js), the table commands (static/js/table/commands.js) and the
    tournament sockets' frames (static/js/tournament/frames.js); run it after changing a
    declaration."""
    written = (ROOT / path).read_text()
    assert written == typedef_files()[path](), f"{path} is stale: run manage.py frame_typedefs"


def test_every_declaration_has_its_browser_types() -> None:
    assert set(typedef_files()) == {
        "static/js/table/frames.js",
        "static/js/table/commands.js",
        "static/js/tournament/frames.js",
        "static/js/tournament/commands.js",
    }


def test_the_browsers_command_types_name_every_command() -> None:
    """Issue #23: the page's commands are typed as the server declares them (`ActCommand`
    ..., their union `TableCommand`), the fields the server requires required."""
    text = typedef_files()["static/js/table/commands.js"]()
    union = re.search(r"@typedef \{([^}]*)\} TableCommand", text)
    assert union is not None
    assert set(union.group(1).split(" | ")) == {f"{c.__name__}Command" for c in commands.COMMANDS}
    assert " *   seq: number,\n *   kind: ActionKind," in text  # act: required
    assert " *   amount?: number," in text


def test_the_doc_lists_exactly_the_declared_commands() -> None:
    documented = set(protocol_rows("## Client -> server"))
    declared = {commands.command_tag(command) for command in commands.COMMANDS}
    assert documented - declared == set(), "docs/protocol.md lists commands never declared"
    assert declared - documented == set(), "docs/protocol.md does not list declared commands"


@pytest.mark.parametrize("command", commands.COMMANDS, ids=commands.command_tag)
def test_the_doc_row_names_every_field_of_the_command(command: type[commands.Command]) -> None:
    tag = commands.command_tag(command)
    named = set(re.findall(r"`([a-z_]+)`", protocol_rows("## Client -> server")[tag]))
    missing = set(command.__struct_fields__) - FIELDS_NOT_RESTATED - named
    assert missing == set(), f"docs/protocol.md's `{tag}` row omits {missing}"


def test_the_commands_json_schema_is_their_declaration() -> None:
    """What a client may send, as JSON schema: one definition a command, tagged by its
    `type`, refusing unknown fields, with the declared ranges."""
    schema = commands.commands_schema()
    assert schema["discriminator"]["propertyName"] == "type"
    tags = {
        commands.command_tag(command): schema["$defs"][command.__name__]
        for command in commands.COMMANDS
    }
    assert set(tags) == set(commands.MESSAGE_TYPES)
    for tag, definition in tags.items():
        assert definition["properties"]["type"] == {"enum": [tag]}
        assert definition["additionalProperties"] is False
    sit = tags["sit"]["properties"]
    assert (sit["buy_in"]["minimum"], sit["seat"]["anyOf"][0]["maximum"]) == (1, 8)
    assert tags["act"]["required"] == ["type", "seq", "kind"]


def test_a_command_is_final_once_decoded() -> None:
    command = commands.parse_frame('{"type": "act", "seq": 3, "kind": "call"}')
    with pytest.raises(AttributeError):
        command.seq = 4  # type: ignore[misc]


# The other sockets' frames, each against its own table of docs/protocol.md.
OTHER_SOCKETS = [
    ("### Server -> client (tournament sockets)", frame)
    for frame in tournament_frames.TOURNAMENT_FRAMES
] + [("## The ping socket", frame) for frame in ping_frames.PING_FRAMES]


@pytest.mark.parametrize(
    ("heading", "tags"),
    [
        (
            "### Server -> client (tournament sockets)",
            {tournament_frames.frame_tag(f) for f in tournament_frames.TOURNAMENT_FRAMES},
        ),
        ("## The ping socket", {ping_frames.frame_tag(f) for f in ping_frames.PING_FRAMES}),
    ],
    ids=["tournament", "ping"],
)
def test_the_doc_lists_exactly_the_frames_of_the_other_sockets(
    heading: str, tags: set[str]
) -> None:
    assert set(protocol_rows(heading)) == tags


@pytest.mark.parametrize(
    ("heading", "frame"), OTHER_SOCKETS, ids=lambda x: x.__name__ if isinstance(x, type) else ""
)
def test_the_doc_row_names_every_field_of_the_other_sockets_frames(
    heading: str, frame: type[msgspec.Struct]
) -> None:
    tag = str(frame.__struct_config__.tag)
    named = set(re.findall(r"`([a-z_]+)`", protocol_rows(heading)[tag]))
    missing = set(frame.__struct_fields__) - FIELDS_NOT_RESTATED - named
    assert missing == set(), f"docs/protocol.md's `{tag}` row ({heading}) omits {missing}"


def test_the_tournament_frames_have_a_json_schema() -> None:
    schema = tournament_frames.tournament_frames_schema()
    assert schema["discriminator"]["propertyName"] == "type"
    assert set(schema["discriminator"]["mapping"]) == {
        tournament_frames.frame_tag(f) for f in tournament_frames.TOURNAMENT_FRAMES
    }


# The other sockets' commands (issue #23), each against its own "Client -> server" table.
TOURNAMENT_COMMANDS_HEADING = "### Client -> server (tournament sockets)"
PING_COMMANDS_HEADING = "### Client -> server (the ping socket)"
OTHER_COMMANDS = [
    (TOURNAMENT_COMMANDS_HEADING, command) for command in tournament_commands.TOURNAMENT_COMMANDS
] + [(PING_COMMANDS_HEADING, command) for command in ping_commands.PING_COMMANDS]


@pytest.mark.parametrize(
    ("heading", "tags"),
    [
        (
            TOURNAMENT_COMMANDS_HEADING,
            {tournament_commands.command_tag(c) for c in tournament_commands.TOURNAMENT_COMMANDS},
        ),
        (
            PING_COMMANDS_HEADING,
            {ping_commands.command_tag(c) for c in ping_commands.PING_COMMANDS},
        ),
    ],
    ids=["tournament", "ping"],
)
def test_the_doc_lists_exactly_the_commands_of_the_other_sockets(
    heading: str, tags: set[str]
) -> None:
    assert set(protocol_rows(heading)) == tags


@pytest.mark.parametrize(
    ("heading", "command"),
    OTHER_COMMANDS,
    ids=lambda x: x.__name__ if isinstance(x, type) else "",
)
def test_the_doc_row_names_every_field_of_the_other_sockets_commands(
    heading: str, command: type[msgspec.Struct]
) -> None:
    tag = str(command.__struct_config__.tag)
    named = set(re.findall(r"`([a-z_]+)`", protocol_rows(heading)[tag]))
    missing = set(command.__struct_fields__) - FIELDS_NOT_RESTATED - named
    assert missing == set(), f"docs/protocol.md's `{tag}` row ({heading}) omits {missing}"


def test_the_tournament_commands_json_schema_is_their_declaration() -> None:
    schema = tournament_commands.tournament_commands_schema()
    assert schema["discriminator"]["propertyName"] == "type"
    assert set(schema["discriminator"]["mapping"]) == {"snapshot", "ping"}
    for command in tournament_commands.TOURNAMENT_COMMANDS:
        definition = schema["$defs"][command.__name__]
        assert definition["additionalProperties"] is False
        assert definition["properties"]["ref"]["anyOf"][0]["maxLength"] == 64


def test_the_browsers_tournament_command_types_name_every_command() -> None:
    text = typedef_files()["static/js/tournament/commands.js"]()
    assert "/** @typedef {PingCommand | SnapshotCommand} TournamentCommand */" in text


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ('{"type": "ping"', "bad_json", "not JSON"),
        ("[1]", "bad_message", "not an object"),
        ('{"type": "ping", "ref": true}', "bad_message", "ref must be a string or an integer"),
        ('{"type": "register"}', "unknown_type", "only snapshot and ping"),
        ('{"type": "snapshot", "seat": 3}', "bad_message", "unknown: seat"),
    ],
)
def test_a_tournament_command_not_declared_is_refused_with_its_code(
    message: str, code: str, words: str
) -> None:
    with pytest.raises(tournament_commands.TournamentRefused) as refused:
        tournament_commands.parse_command(message)
    assert (refused.value.code, words in refused.value.message) == (code, True)


def test_a_tournament_command_is_decoded_into_its_declaration() -> None:
    command = tournament_commands.parse_command('{"type": "snapshot", "ref": "r1"}')
    assert command == tournament_commands.Snapshot(ref="r1")
    with pytest.raises(AttributeError):
        command.ref = "r2"  # type: ignore[misc]


def test_the_ping_command_json_schema_is_its_declaration() -> None:
    schema = ping_commands.ping_commands_schema()
    ping = schema["$defs"]["Ping"]
    assert (ping["properties"]["type"], ping["additionalProperties"]) == ({"enum": ["ping"]}, False)
    assert ping["properties"]["echo"]["anyOf"][0] == {"type": "string", "maxLength": 64}


def test_the_ping_socket_takes_only_its_declared_ping() -> None:
    assert ping_commands.parse_ping('{"type": "ping", "echo": [1, "a"]}').echo == [1, "a"]
    for message in ('{"type": "shout"}', '{"type": "ping", "seq": 1}', "7"):
        with pytest.raises(ping_commands.PingRefused) as refused:
            ping_commands.parse_ping(message)
        assert refused.value.message == 'send {"type": "ping"}'
