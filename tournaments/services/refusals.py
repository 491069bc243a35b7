"""Why a tournament service said no: a code and a message fit to show the player or staff.

A refused call changes nothing (its transaction is rolled back). Views and the API catch
`TournamentRefused` and show `str(refusal)`; `refusal.code` names the case.
"""

from __future__ import annotations

from enum import StrEnum


class TournamentRefusal(StrEnum):
    NOT_FOUND = "not_found"  # no such tournament
    NOT_OPEN = "not_open"  # registration is not open (announced, started, over)
    FULL = "full"  # max_players registered
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    INSUFFICIENT_BALANCE = "insufficient_balance"  # the wallet cannot pay
    PLAY_LIMIT = "play_limit"  # over a limit the player set (issue #26)
    NO_ADD_ON = "no_add_on"  # this tournament offers none
    ALREADY_ADDED_ON = "already_added_on"  # one add-on per player (R-TOUR-1)
    TOO_LATE = "too_late"  # the add-on closed (R-TOUR-1); unregistering after the start
    ELIMINATED = "eliminated"
    ALL_IN = "all_in"  # an add-on while all-in in the hand in play
    OVER = "over"  # finished or cancelled: nothing changes any more
    NOT_EDITABLE = "not_editable"  # the first hand was dealt (seed 004)
    BAD_SETTINGS = "bad_settings"  # staff's settings or levels do not hold together
    # The play's (tplay: tournaments/services/play.py): start, pause, resume, redraw.
    STARTED = "started"  # it has started already
    NOT_STARTED = "not_started"  # a pause or a redraw before the start
    TOO_FEW = "too_few"  # fewer than the minimum registered to start
    PAUSED = "paused"  # paused already
    NOT_PAUSED = "not_paused"  # resume when not paused


class TournamentRefused(Exception):
    """A tournament service refused; nothing was written."""

    def __init__(self, code: TournamentRefusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
