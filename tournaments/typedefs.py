"""The browser's types of the tournament sockets' frames (tournaments/frames.py) and commands
(tournaments/commands.py), generated as the table's are (tables/realtime/typedefs.py):
`<Class>Frame` (`TournamentSnapshotFrame`, ...) and their union `TournamentFrame`, written by
`manage.py frame_typedefs` to static/js/tournament/frames.js; `SnapshotCommand`,
`PingCommand` and their union `TournamentCommand` to static/js/tournament/commands.js (both
registered in the app's `ready()`)."""

from __future__ import annotations

from tables.realtime.typedefs import render_typedefs
from tournaments.commands import TOURNAMENT_COMMANDS, command_tag, tournament_commands_schema
from tournaments.frames import TOURNAMENT_FRAMES, frame_tag, tournament_frames_schema

TOURNAMENT_TYPEDEFS_PATH = "static/js/tournament/frames.js"
TOURNAMENT_COMMAND_TYPEDEFS_PATH = "static/js/tournament/commands.js"


def tournament_typedefs_text() -> str:
    return render_typedefs(
        tournament_frames_schema(),
        members=[(frame.__name__, frame_tag(frame)) for frame in TOURNAMENT_FRAMES],
        suffix="Frame",
        union="TournamentFrame",
        source="tournaments/frames.py",
        about="The frames a tournament socket sends",
    )


def tournament_command_typedefs_text() -> str:
    return render_typedefs(
        tournament_commands_schema(),
        members=[(command.__name__, command_tag(command)) for command in TOURNAMENT_COMMANDS],
        suffix="Command",
        union="TournamentCommand",
        source="tournaments/commands.py",
        about="The commands a tournament page sends",
    )
