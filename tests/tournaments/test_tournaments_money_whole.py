"""A whole tournament through the services, money and all: nine players register and pay
(three buy the add-on), the play runs it to one winner, and then every place is given, the
prizes add up to the pool (R-TOUR-9), the fees stay with the house and `audit_chips` holds."""

from __future__ import annotations

from datetime import timedelta
from random import Random

import pytest
from django.core.management import execute_from_command_line

from accounts.models import LedgerKind
from stud.tournament import LevelSpec
from tables.services import hand_start
from tests.tournaments.money_helpers import (
    NOW,
    balance_of,
    kind_total,
    make_tournament,
    registered,
)
from tests.tournaments.play_helpers import aggressive, hand_in_play, open_tables, play_out
from tournaments.models import TournamentEntry, TournamentStatus
from tournaments.services.clock import tournament_clock_tick
from tournaments.services.entries import tournament_add_on
from tournaments.services.play import tournament_start, tournament_table_between_hands

pytestmark = pytest.mark.django_db


def test_r_tour_9_a_whole_tournament_pays_out_its_pool_and_audit_chips_holds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Steep levels so that the field is knocked out in a few dozen hands.
    levels = [
        LevelSpec(1, ante=50, bring_in=50, small_bet=100, big_bet=200, minutes=3),
        LevelSpec(2, ante=100, bring_in=100, small_bet=200, big_bet=400, minutes=3),
    ]
    tournament = make_tournament(levels=levels, buy_in=4000, fee=400, add_on_price=1500)
    players = registered(tournament, 9)
    for player in players[:3]:
        tournament_add_on(tournament_id=tournament.pk, player=player, now=NOW)
    tournament_start(tournament_id=tournament.pk, now=NOW, rng=Random(3))

    now, rng = NOW, Random(5)
    for _ in range(2_000):
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            break
        now += timedelta(seconds=20)
        tournament_clock_tick(tournament_id=tournament.pk, now=now)
        for table in open_tables(tournament):
            table.refresh_from_db()
            if hand_in_play(table) is None and table.next_hand_at and table.next_hand_at <= now:
                assert hand_start(table_id=table.pk, now=now, only_when_due=True).ok
                if hand_in_play(table) is None:  # everyone all-in from the antes: over at once
                    tournament_table_between_hands(table_id=table.pk, now=now, rng=rng)
            if hand_in_play(table) is not None:
                play_out(table, now, aggressive, rng)
    assert tournament.status == TournamentStatus.FINISHED

    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    places = sorted(entry.place or 0 for entry in entries)
    assert places[0] == 1 and places.count(1) == 1 and 0 not in places
    pool = 9 * 4000 + 3 * 1500
    assert sum(entry.prize for entry in entries) == pool
    assert kind_total(tournament, LedgerKind.PRIZE) == pool
    assert kind_total(tournament, LedgerKind.TOURNAMENT_FEE) == -9 * 400
    winner = next(entry for entry in entries if entry.place == 1)
    paid_in = 4000 + 400 + (1500 if winner.player in players[:3] else 0)
    assert balance_of(winner.player) == 10_000 - paid_in + winner.prize

    try:
        execute_from_command_line(["manage.py", "audit_chips"])
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    else:
        status = 0
    output = capsys.readouterr()
    assert status == 0, output.err
    assert "tournaments $0.00, tournament_fees $36.00" in output.out
