"""A whole tournament through the services, with a controlled clock: 16 players register
(tmoney's services, money from their wallets), some buy the add-on before the start and
while it runs, it starts when the 16th registers, plays the turbo structure on two tables
through balancing, levels, the dealer-only equal-deals level and the break, merges at 7,
and ends with one winner, every place given, the prizes paid and every chip accounted for."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import LedgerEntry, LedgerKind
from tables.models import Hand, HandEvent, Table
from tests.factories import PlayerFactory, StaffFactory, funded
from tests.tournaments.play_helpers import (
    T0,
    aggressive,
    deal,
    hand_in_play,
    open_tables,
    play_out,
    tasks_recorded,
    tournament_clock_sweep,
)
from tournaments.models import TournamentEntry, TournamentStatus, TournamentTable
from tournaments.selectors import tournament_snapshot
from tournaments.services.entries import (
    tournament_add_on,
    tournament_create,
    tournament_register,
)
from tournaments.services.refusals import TournamentRefused

pytestmark = pytest.mark.django_db

STEP = timedelta(seconds=5)


@pytest.fixture
def tasks_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    return tasks_recorded(monkeypatch)


@pytest.mark.timeout(1200)  # a few minutes quiet; over ten on a 2-core machine at load 15
def test_r_tour_1_to_9_sixteen_players_play_a_turbo_tournament_to_one_winner(tasks_sent):
    tournament = tournament_create(
        name="Sixteen",
        staff=StaffFactory(),
        now=T0,
        preset="turbo",
        settings={"start_when_registered": 16, "time_bank": 0},
    )
    players = []
    for _ in range(16):
        player = PlayerFactory()
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player, now=T0)
        players.append(player)
    for player in players[:3]:  # R-TOUR-1: the add-on bought before the draw
        tournament_add_on(tournament_id=tournament.pk, player=player, now=T0)

    clock = T0
    assert tournament_clock_sweep(now=clock) == 1  # the 16th is in: it starts
    tables = open_tables(tournament)
    assert [len(table.seat_set.all()) for table in tables] == [8, 8]
    stacks = sorted(s.stack for table in tables for s in table.seat_set.all())
    assert stacks == [800] * 13 + [1200] * 3

    rng = random.Random(2026)
    added_on_in_play = False
    merged_at_players = None
    for _ in range(3000):
        clock += STEP
        tournament_clock_sweep(now=clock)
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            break
        for table in open_tables(tournament):
            if hand_in_play(table) is None:
                table.refresh_from_db()
                if table.next_hand_at is None or table.next_hand_at > clock:
                    continue
                deck = list(range(52))
                rng.shuffle(deck)
                deal(table, clock, deck)
            if not added_on_in_play and tournament.level == 2:
                # an add-on bought while the player's hand is in play: chips after it
                seated = table.seat_set.filter(stack__gt=0).first()
                if seated is not None:
                    try:
                        tournament_add_on(
                            tournament_id=tournament.pk, player=seated.player, now=clock
                        )
                        added_on_in_play = True
                    except TournamentRefused:
                        pass
            play_out(table, clock, aggressive, rng)
            if (
                merged_at_players is None
                and TournamentTable.objects.filter(tournament=tournament, number=3).exists()
            ):
                merged_at_players = TournamentEntry.objects.filter(
                    tournament=tournament, eliminated_at__isnull=True
                ).count()
            tournament.refresh_from_db()
            if tournament.status == TournamentStatus.FINISHED:
                break
        if tournament.status == TournamentStatus.FINISHED:
            break

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    places = Counter(entry.place for entry in entries)
    assert places[1] == 1
    # places 1..16 each given once, a tie (R-TOUR-7) sharing the best of its places
    place = 1
    while place <= 16:
        assert places[place] >= 1, f"place {place} missing: {sorted(places.items())}"
        place += places[place]
    assert sum(places.values()) == 16
    # R-TOUR-7: the snapshot names the table where each player played their last hand (the
    # table page tells them their place there again after a reload): the winner's is the
    # final table, everyone else's the table of the hand that knocked them out.
    final_table = (
        Hand.objects.filter(table__tournament_table__tournament=tournament).latest("id").table_id
    )
    standings = tournament_snapshot(tournament)["standings"]
    finished_at = {line["player_id"]: line["finished_table_id"] for line in standings}
    for entry in entries:
        expected = final_table if entry.place == 1 else entry.eliminated_in_hand.table_id
        assert finished_at[entry.player_id] == expected
    # R-TOUR-9: 16 entrants, 4 paid; the prizes are the pool (buy-ins and add-ons)
    add_ons = sum(1 for entry in entries if entry.add_on_at is not None)
    assert add_ons >= 3
    assert sum(entry.prize for entry in entries) == 16 * 4000 + add_ons * 1500
    assert LedgerEntry.objects.filter(kind=LedgerKind.PRIZE).count() >= 1
    # R-TOUR-4: two tables merged at 7 left onto a third
    assert merged_at_players is not None and merged_at_players <= 7
    # every table closed, no hand stuck, the levels moved on
    assert not Table.objects.filter(is_tournament=True, is_open=True).exists()
    assert not Hand.objects.filter(ended_at__isnull=True).exists()
    assert tournament.level > 1
    # R-ANTE-3: a dealer-only level was played with one ante a hand
    level_3 = [
        event
        for event in HandEvent.objects.filter(kind="hand_start")
        if event.payload["ante"] == 25 and event.payload["small_bet"] == 25
    ]
    if level_3:
        antes = HandEvent.objects.get(hand=level_3[0].hand, kind="antes")
        assert len(antes.payload["posts"]) == 1
    call_command("audit_chips")  # raises on any chip or cent unaccounted for
