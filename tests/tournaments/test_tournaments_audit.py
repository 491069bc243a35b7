"""`manage.py audit_chips` with tournaments: money in equals balances + cash tables + pots +
rake + what tournaments not over hold (buy-ins and add-ons) + the fees the house kept;
tournament chips are not money and are never counted."""

from __future__ import annotations

import pytest
from django.core.management import execute_from_command_line
from django.db import connection

from tables import services as table_services
from tables.selectors import room_chip_totals
from tests.table_factories import make_table, seated_player
from tests.tournaments.money_helpers import (
    NOW,
    later,
    make_tournament,
    registered,
    seated_in_play,
)
from tournaments.models import Tournament, TournamentEntry
from tournaments.services.entries import (
    tournament_add_on,
    tournament_cancel,
    tournament_finish,
    tournament_unregister,
)

pytestmark = pytest.mark.django_db


def audit(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        execute_from_command_line(["manage.py", "audit_chips"])
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    else:
        status = 0
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_audit_holds_with_a_tournament_in_play_and_its_chips_are_not_money(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cash = make_table()
    seated_player(cash)
    seated_player(cash)
    tournament = make_tournament(buy_in=4000, fee=400)
    players = registered(tournament, 3)
    tournament_add_on(tournament_id=tournament.pk, player=players[0], now=NOW)
    table = seated_in_play(tournament, players, level=2)
    assert table_services.hand_start(table_id=table.pk, now=later(20)).ok
    # 2 x $20 on the cash table; the tournament's 2,800 chips are nowhere.
    assert room_chip_totals() == {"on_tables": 4000, "in_pots": 0, "rake": 0}

    status, output = audit(capsys)  # (the command closes the test's connection)

    assert status == 0, output
    assert "tournaments $135.00, tournament_fees $12.00" in output


def test_audit_holds_after_the_tournament_pays_its_prizes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tournament = make_tournament(buy_in=4000, fee=400)
    players = registered(tournament, 5)
    for place, player in enumerate(players[1:], start=2):
        TournamentEntry.objects.filter(player=player).update(place=place, eliminated_at=NOW)
    tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk), now=later(60))

    status, output = audit(capsys)

    assert status == 0, output
    assert "tournaments $0.00, tournament_fees $20.00" in output


def test_audit_holds_after_unregistering_and_cancelling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tournament = make_tournament(buy_in=4000, fee=400)
    players = registered(tournament, 3)
    tournament_unregister(tournament_id=tournament.pk, player=players[0], now=NOW)
    tournament_cancel(tournament_id=tournament.pk, staff=None, now=later(1))

    status, output = audit(capsys)

    assert status == 0, output
    assert "tournaments $0.00, tournament_fees $0.00" in output


def test_audit_names_a_tournament_whose_add_on_was_never_paid(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_tournamententry SET add_on_at = %s WHERE player_id = %s",
            [NOW, players[0].pk],
        )

    status, output = audit(capsys)

    assert status == 1
    assert (
        f"tournament Tuesday Stud (id {tournament.pk}, registering): its ledger lines hold "
        "$80.00 of buy-ins and add-ons but its entries $95.00"
    ) in output
    assert "(off by $15.00)" in output


def test_audit_names_a_finished_tournament_that_kept_part_of_its_pool(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    TournamentEntry.objects.filter(player=players[1]).update(place=2, eliminated_at=NOW)
    tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk), now=later(60))
    with connection.cursor() as cursor:  # the prize row said $70 instead of $80
        cursor.execute(
            "UPDATE tournaments_tournamententry SET prize = 7000 WHERE player_id = %s",
            [players[0].pk],
        )

    status, output = audit(capsys)

    assert status == 1
    assert "prizes paid $80.00 but its places $70.00" in output
    assert "prizes $70.00 but a prize pool of $80.00" in output
