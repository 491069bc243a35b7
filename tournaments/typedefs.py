"""The browser's types of the tournament sockets' frames (tournaments/frames.py), generated
as the table frames' are (tables/realtime/typedefs.py): `<Class>Frame`
(`TournamentSnapshotFrame`, ...) and their union `TournamentFrame`, written by `manage.py
frame_typedefs` to static/js/tournament/frames.js (registered in the app's `ready()`)."""

from __future__ import annotations

from tables.realtime.typedefs import render_typedefs
from tournaments.frames import TOURNAMENT_FRAMES, frame_tag, tournament_frames_schema

TOURNAMENT_TYPEDEFS_PATH = "static/js/tournament/frames.js"


def tournament_typedefs_text() -> str:
    return render_typedefs(
        tournament_frames_schema(),
        members=[(frame.__name__, frame_tag(frame)) for frame in TOURNAMENT_FRAMES],
        suffix="Frame",
        union="TournamentFrame",
        source="tournaments/frames.py",
        about="The frames a tournament socket sends",
    )
