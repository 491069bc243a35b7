"""One room with real content for the checks that look at the pages (tests/browser/
test_pages_as_seen.py, docs/browser.md): every piece is played in the test process with
stacked decks and a fixed shuffle, broadcasts off and the clock held (the server's sweep holds
every table of the scene), so each run draws the same room.

- "Eight Handed", $1/$2, raked: eight players with long names, two of them short-stacked.
  Seat 8 bets every street, the rest call: seats 1 and 2 are all in early (side pots), and
  the hand stops at the river's last call, which the page of the player to act makes (the
  showdown of eight is drawn on that page).
- Two raked hands on "Aces" a few days ago (the rake report's and the statement's rows).
- "Evening Stud", a tournament of eight drawn onto its table (its page, its table, the TV
  clock), and "Sunday Stud", open for registration (the lobby's Tournaments tab).
- Empty tables in the lobby; "floorboss", staff and accountant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection

from accounts.models import Player
from stud import Action, ActionKind
from tables import services
from tables.models import Hand, RakeSchedule, RakeTier, Table
from tests.browser.sweep_hold import SweepHold
from tests.factories import PlayerFactory, funded
from tests.history_hands import bettor, hold_scheduling, raked_hand
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    passive_action,
    running_hand,
    seated_player,
)
from tournaments.models import Tournament, TournamentTable
from tournaments.services.entries import tournament_create, tournament_register
from tournaments.services.play import tournament_start

# Long names, as players choose them: the name boxes must hold them.
NAMES = ["alexandra", "bartholomew", "christabel", "demetrius", "evangeline", "fitzgerald",
         "gwendolyn", "hieronymus"]  # fmt: skip
# Seats 1 and 2 buy in short: all in before the river, under the side pots.
BUY_INS = {1: 300, 2: 700}
BETTOR_SEAT = 8
# The raked hands' days: fixed, so the rake report and the statement opened on their month
# (REPORT_MONTH) draw the same rows and charts whatever the day of the run.
RAKED_DAYS = (
    datetime(2026, 3, 3, 20, tzinfo=UTC),
    datetime(2026, 3, 5, 21, tzinfo=UTC),
    datetime(2026, 3, 12, 19, tzinfo=UTC),
)
REPORT_MONTH = "2026-03"
# When "Evening Stud" started, as its pages say ("Started Sat 07:00 PM"): fixed like the rest.
TOURNAMENT_STARTED = datetime(2026, 3, 14, 19, tzinfo=UTC)


def fixed_salts(count: int = 52) -> list[str]:
    """The deck's salts, the same on every run (the scene's hands are not secret)."""
    return [f"{position:064x}" for position in range(count)]


@dataclass
class Scene:
    table: Table
    players: dict[int, Player]
    to_act: Player  # the player whose turn it is on the river
    watcher: Player  # another player at the table (the desktop's view)
    tournament: Tournament
    tournament_table: Table
    tournament_player: Player
    staff: Player
    extra: dict[str, Any] = field(default_factory=dict)


def ids_from(model: Any, first: int) -> None:
    """The scene's rows of `model` get the same ids on every run, whatever ran before it in
    the process and on either database: the pages show them (the hand list's "#1001", a
    tournament table's name "Evening Stud #501 table 1"). Django's `reset_sequences` would do
    it for every table, but on PostgreSQL it restarts sequences under the rows the
    migrations seeded (the rake schedules)."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)", [table, first]
            )
        else:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            cursor.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, first - 1]
            )


def room_scene(monkeypatch: pytest.MonkeyPatch, sweep_hold: SweepHold) -> Scene:
    hold_scheduling(monkeypatch)
    ids_from(Hand, 1001)
    ids_from(Tournament, 501)
    monkeypatch.setattr("tables.services.scheduling.task_send", lambda *args, **kwargs: None)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    monkeypatch.setattr("tournaments.broadcast._send", lambda messages: None)
    # The salts fix the commitment, and so R-DEAL-5's reshuffle seed: the same river (the
    # community card of the eight-handed showdown) on every run.
    monkeypatch.setattr("tables.services.hands.new_salts", fixed_salts)
    schedule = RakeSchedule.objects.create(name="Scene $1/$2", min_small_bet=50, max_small_bet=100)
    RakeTier.objects.create(schedule=schedule, min_players=2, amount=25, every=500, cap=100)
    for name in ("Gold Coast", "Harbour Lights"):
        sweep_hold.tables(make_table(name=name))
    aces = make_table(name="Aces", rake_schedule=schedule)
    sweep_hold.tables(aces)
    played = None
    for day in RAKED_DAYS:
        played = raked_hand(table=aces, now=day, players=None if played is None else played.players)
    table, players = eight_on_the_river(sweep_hold, schedule)
    seat_to_act = engine_of(running_hand(table)).to_act
    assert seat_to_act is not None
    to_act = players[seat_to_act]
    watcher = next(p for seat, p in players.items() if seat not in (seat_to_act, 1))
    tournament, tournament_table, tournament_player = tournament_drawn(sweep_hold)
    tournament_create(name="Sunday Stud", staff=None, preset="default")
    staff = PlayerFactory(username="floorboss", is_staff=True, is_superuser=True)
    return Scene(
        table=table,
        players=players,
        to_act=to_act,
        watcher=watcher,
        tournament=tournament,
        tournament_table=tournament_table,
        tournament_player=tournament_player,
        staff=staff,
    )


def eight_on_the_river(sweep_hold: SweepHold, schedule: RakeSchedule) -> tuple[Table, dict]:
    """The river's last call is left to the page: every other action is made here."""
    table = make_table(name="Eight Handed", action_clock=30, buy_in=300, rake_schedule=schedule)
    sweep_hold.tables(table)
    players = {
        seat: seated_player(
            table,
            seat_number=seat,
            username=name,
            auto_muck=False,
            buy_in=BUY_INS.get(seat, 3000),
        )
        for seat, name in enumerate(NAMES, start=1)
    }
    deck = list(range(52))
    random.Random(21).shuffle(deck)
    assert services.hand_start(table_id=table.pk, deck=deck).ok
    for _ in range(300):
        hand = running_hand(table)
        engine = engine_of(hand)
        seat = engine.to_act
        assert seat is not None
        if seat == BETTOR_SEAT:
            kind, amount = bettor(table, players[seat], engine, seat)
        else:
            kind, amount = passive_action(table, players[seat])
        after, _ = engine.apply(Action(seat, ActionKind(kind), amount))
        if after.is_over:
            assert engine.street == 7, "the hand ended before the river"
            return table, players
        assert act(table, players[seat], kind, amount).ok
    raise AssertionError("the hand did not reach the river")


def tournament_drawn(sweep_hold: SweepHold) -> tuple[Tournament, Table, Player]:
    tournament = tournament_create(
        name="Evening Stud", staff=None, preset="turbo", settings={"starting_chips": 400}
    )
    field = []
    for n in range(1, 9):
        player = PlayerFactory(username=f"entrant{n}")
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player)
        field.append(player)
    tournament_start(tournament_id=tournament.pk, rng=random.Random(21))
    Tournament.objects.filter(pk=tournament.pk).update(started_at=TOURNAMENT_STARTED)
    tables = [t.table for t in TournamentTable.objects.filter(tournament=tournament)]
    sweep_hold.tables(*tables)
    table = tables[0]
    player = next(p for p in field if table.seat_set.filter(player=p).exists())
    tournament.refresh_from_db()
    return tournament, table, player
