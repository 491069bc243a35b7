"""Tournament rows for the pages' and consumer's tests (tests/tournaments/test_tournaments_
pages.py, test_tournaments_consumer.py): made directly, as a running tournament leaves them,
so the reading side is tested on its own; the services' own tests drive the real thing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import Player
from tables.models import Seat, Table
from tests.factories import PlayerFactory
from tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStatus,
    TournamentTable,
)

# (ante, bring_in, small_bet, big_bet, minutes, dealer_only_ante, equal_deals, break_minutes)
LEVELS = [
    (5, 5, 10, 20, 15, False, False, 0),
    (10, 10, 20, 40, 15, False, False, 0),
    (25, 10, 25, 50, 15, True, True, 0),
    (10, 15, 30, 60, 15, False, False, 0),
    (10, 25, 50, 100, 15, False, False, 10),
]


def make_tournament(**fields: Any) -> Tournament:
    values: dict[str, Any] = {"name": "Tuesday Stud", "buy_in": 4000, "fee": 400, **fields}
    tournament = Tournament.objects.create(**values)
    for number, (ante, bring_in, small, big, minutes, dealer, equal, pause) in enumerate(
        LEVELS, start=1
    ):
        TournamentLevel.objects.create(
            tournament=tournament,
            number=number,
            ante=ante,
            bring_in=bring_in,
            small_bet=small,
            big_bet=big,
            minutes=minutes,
            dealer_only_ante=dealer,
            equal_deals=equal,
            break_minutes=pause,
        )
    return tournament


def register(tournament: Tournament, players: list[Player], now: datetime) -> None:
    for offset, player in enumerate(players):
        TournamentEntry.objects.create(
            tournament=tournament, player=player, registered_at=now + timedelta(seconds=offset)
        )


def tournament_table(tournament: Tournament, number: int, stacks: dict[int, Player]) -> Table:
    """Table `number` of the tournament with `stacks`: {seat number: player}, 800 chips each."""
    table = Table.objects.create(
        name=f"{tournament.name} table {number}",
        game="stud",
        small_bet=10,
        big_bet=20,
        ante=5,
        bring_in=5,
        buy_in=0,
        is_tournament=True,
        heads_up_raises=3,
    )
    TournamentTable.objects.create(tournament=tournament, table=table, number=number, level=1)
    for seat, player in stacks.items():
        Seat.objects.create(table=table, number=seat, player=player, stack=800)
    return table


def running_tournament(players: int = 9) -> tuple[Tournament, list[Player], list[Table]]:
    """A tournament at level 1 with `players` on two tables (seats 1, 2, ...), 10 minutes left."""
    now = timezone.now()
    field = [PlayerFactory() for _ in range(players)]
    tournament = make_tournament(
        status=TournamentStatus.RUNNING,
        level=1,
        level_ends_at=now + timedelta(minutes=10),
        started_at=now,
    )
    register(tournament, field, now - timedelta(minutes=30))
    half = (players + 1) // 2
    tables = [
        tournament_table(tournament, 1, dict(enumerate(field[:half], start=1))),
        tournament_table(tournament, 2, dict(enumerate(field[half:], start=1))),
    ]
    return tournament, field, tables
