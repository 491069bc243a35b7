"""The `make run` demo tournament (issue #13): a turbo sit-and-go for ten, nine of them bots
(`manage.py run_tournament_bots`), that starts when a player joins: two tables of five, the
levels on the clock, balancing, the merge at seven and a winner in minutes."""

from __future__ import annotations

from datetime import datetime

from accounts.models import Player
from tables.services.demo import DEMO_BOT_PASSWORD, demo_bot_account
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.entries import tournament_create

DEMO_SIT_AND_GO = "Demo turbo sit-and-go"
DEMO_SIT_AND_GO_PLAYERS = 10
DEMO_TOURNAMENT_BOTS = tuple(f"tbot{number}" for number in range(1, DEMO_SIT_AND_GO_PLAYERS))


def demo_sit_and_go(*, now: datetime | None = None) -> Tournament:
    """The demo sit-and-go still taking registrations, or a new one (turbo preset, starts
    when ten are in); run again, it changes nothing."""
    waiting = (
        Tournament.objects.filter(name=DEMO_SIT_AND_GO, status=TournamentStatus.REGISTERING)
        .order_by("-id")
        .first()
    )
    if waiting is not None:
        return waiting
    return tournament_create(
        name=DEMO_SIT_AND_GO,
        staff=None,
        now=now,
        preset="turbo",
        settings={
            "start_when_registered": DEMO_SIT_AND_GO_PLAYERS,
            "max_players": DEMO_SIT_AND_GO_PLAYERS,
        },
    )


def demo_tournament_bots(password: str = DEMO_BOT_PASSWORD) -> list[Player]:
    """The nine bots' accounts, made and funded the first time (they register themselves,
    through the API, when `run_tournament_bots` starts)."""
    return [demo_bot_account(username, password) for username in DEMO_TOURNAMENT_BOTS]
