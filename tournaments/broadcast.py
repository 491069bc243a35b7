"""Live tournament frames over the channel layer, sent only after the change commits.

Groups: `tournament.<id>` (the tournament's page, clock page and its tables' tournament
panel: a full snapshot each time, with seq), `tournaments.lobby` (the lobby's Tournaments
tab: the row), and `tournament-user.<player id>` (per player: "moved", "eliminated").
tournaments/realtime.py's consumers join them; docs/protocol.md documents the frames.

tplay and tmoney call these from their services, inside their transactions:
    tournament_changed(tournament_id)
    tournament_player_moved(player_id, tournament_id, table_id, seat)
    tournament_player_eliminated(player_id, place, prize)
A lost message is mended by seq + snapshot, so a failing layer is logged, never raised.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.layers import get_channel_layer

from tables.services.broadcast import send_to_groups
from tables.services.outbox import on_commit_logged
from tournaments.frames import (
    TournamentEliminated,
    TournamentFrameBase,
    TournamentMoved,
    TournamentRow,
    TournamentSnapshot,
    frame_text,
)

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "tournament.frames"  # the consumers' `tournament_frames` handler receives it
LOBBY_GROUP = "tournaments.lobby"


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def player_group(player_id: int) -> str:
    return f"tournament-user.{player_id}"


def frames_message(frames: list[TournamentFrameBase]) -> dict[str, Any]:
    """Declared frames (tournaments/frames.py) as the channel-layer message the consumers'
    `tournament_frames` handler forwards."""
    return {"type": MESSAGE_TYPE, "texts": [frame_text(frame) for frame in frames]}


def _send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    send_to_groups(layer, messages)


def tournament_frames(tournament_id: int) -> list[tuple[str, dict[str, Any]]]:
    """Bump the seq and build the page's and the lobby's frames (after commit)."""
    from tournaments import selectors
    from tournaments.services.live import tournament_seq_next

    def build(tournament: Any) -> list[tuple[str, dict[str, Any]]]:
        snapshot = selectors.tournament_snapshot(tournament)
        row = selectors.lobby_row(tournament)
        return [
            (
                tournament_group(tournament_id),
                frames_message(
                    [
                        TournamentSnapshot(
                            tournament_id=tournament_id, seq=snapshot["seq"], tournament=snapshot
                        )
                    ]
                ),
            ),
            (
                LOBBY_GROUP,
                frames_message(
                    [TournamentRow(tournament_id=tournament_id, seq=row["seq"], row=row)]
                ),
            ),
        ]

    return tournament_seq_next(tournament_id, build) or []


def tournament_changed(tournament_id: int) -> None:
    """The tournament changed (entries, status, clock, tables, stacks after a hand): once the
    caller's transaction commits, send the full snapshot to its page and its lobby row.
    Outside a transaction it sends at once."""
    on_commit_logged(
        lambda: _send(tournament_frames(tournament_id)),
        what=f"tournament {tournament_id}'s broadcast",
    )


def tournament_player_moved(player_id: int, tournament_id: int, table_id: int, seat: int) -> None:
    """A player was seated by the draw (R-TOUR-2) or moved (R-TOUR-3 balancing, R-TOUR-4
    merge): after commit, tell them where (their browser goes to the table). The caller
    sends `tournament_changed` once for the whole change."""

    def send() -> None:
        from tournaments.models import TournamentTable

        number = (
            TournamentTable.objects.filter(table_id=table_id)
            .values_list("number", flat=True)
            .first()
        )
        frame = TournamentMoved(
            tournament_id=tournament_id,
            table_id=table_id,
            table_number=number,
            seat=seat,
            url=f"/tables/{table_id}/",
        )
        _send([(player_group(player_id), frames_message([frame]))])

    on_commit_logged(send, what=f"player {player_id}'s move notice")


def tournament_player_eliminated(
    player_id: int, place: int, prize: int, tournament_id: int | None = None
) -> None:
    """A player is out (R-TOUR-7): after commit, tell them their place and prize (cents).
    Prizes are paid when the tournament ends, so a paid place's prize not set yet is the
    place's share of the pool (R-TOUR-9) and the notice says it comes at the end
    (`prize_at_end`). `tournament_id` may be omitted: the entry with that place names it.
    The caller sends `tournament_changed` once for the whole change."""

    def send() -> None:
        from tournaments import selectors
        from tournaments.models import Tournament, TournamentEntry

        found = tournament_id
        if found is None:
            found = (
                TournamentEntry.objects.filter(player_id=player_id, place=place)
                .order_by("-eliminated_at", "-id")
                .values_list("tournament_id", flat=True)
                .first()
            )
        expected = prize
        tournament = None if found is None else Tournament.objects.filter(pk=found).first()
        if not prize and tournament is not None:
            expected = selectors.prize_of_place(tournament, place)
        frame = TournamentEliminated(
            tournament_id=found,
            place=place,
            prize=expected,
            prize_at_end=bool(expected and not prize),
        )
        _send([(player_group(player_id), frames_message([frame]))])

    on_commit_logged(send, what=f"player {player_id}'s elimination notice")
