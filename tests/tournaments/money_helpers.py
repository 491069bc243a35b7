"""Tournaments for the money tests: created through the services, registered players paid
through the wallet; a tournament "in play" seated the way the draw seats it (rows of tables
and seats, as tplay's tournament_start writes them), so these tests need none of the play."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Sum
from django.utils import timezone

from accounts.models import LedgerEntry, Player
from tables.models import Seat, Table
from tests.factories import PlayerFactory, StaffFactory, funded
from tournaments.models import Tournament, TournamentStatus, TournamentTable
from tournaments.services.entries import tournament_create, tournament_register

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.get_fixed_timezone(0))


def later(minutes: float) -> datetime:
    return NOW + timedelta(minutes=minutes)


def make_tournament(**settings: Any) -> Tournament:
    preset = settings.pop("preset", "default")
    levels = settings.pop("levels", None)
    return tournament_create(
        name=settings.pop("name", "Tuesday Stud"),
        staff=StaffFactory(),
        now=NOW,
        preset=preset,
        levels=levels,
        settings=settings,
    )


def registered(tournament: Tournament, count: int, *, balance: int = 10_000) -> list[Player]:
    players = []
    for _ in range(count):
        player = PlayerFactory()
        funded(player, balance)
        tournament_register(tournament_id=tournament.pk, player=player, now=NOW)
        player.refresh_from_db()
        players.append(player)
    return players


def seated_in_play(
    tournament: Tournament, players: list[Player], *, level: int = 1, first_hand: bool = True
) -> Table:
    """The tournament running on one table, as the draw leaves it (R-TOUR-2)."""
    level_row = tournament.levels.get(number=level)
    table = Table.objects.create(
        name=f"{tournament.name} table 1 #{tournament.pk}",
        game=tournament.game,
        small_bet=level_row.small_bet,
        big_bet=level_row.big_bet,
        ante=level_row.ante,
        bring_in=level_row.bring_in,
        buy_in=0,
        seats=8,
        time_bank=0,
        heads_up_raises=3,
        is_tournament=True,
    )
    TournamentTable.objects.create(tournament=tournament, table=table, number=1, level=level)
    for number, player in enumerate(players, start=1):
        Seat.objects.create(
            table=table, number=number, player=player, stack=tournament.starting_chips
        )
    Tournament.objects.filter(pk=tournament.pk).update(
        status=TournamentStatus.RUNNING,
        started_at=NOW,
        level=level,
        first_hand_at=NOW if first_hand else None,
    )
    tournament.refresh_from_db()
    return table


def ledger_of(player: Player, tournament: Tournament) -> list[tuple[str, int]]:
    return [
        (line.kind, line.amount)
        for line in LedgerEntry.objects.filter(
            player=player, reference=tournament.reference
        ).order_by("id")
    ]


def balance_of(player: Player) -> int:
    player.refresh_from_db(fields=["balance"])
    return player.balance


def kind_total(tournament: Tournament, kind: str) -> int:
    return (
        LedgerEntry.objects.filter(reference=tournament.reference, kind=kind).aggregate(
            total=Sum("amount")
        )["total"]
        or 0
    )
