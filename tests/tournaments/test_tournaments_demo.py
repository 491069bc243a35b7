"""The demo tournaments of `make run` (tournaments/services/demo.py): a turbo sit-and-go of 10
that nine demo bots have entered, so the first player who registers starts it on two tables,
and a Razz one of 6 with five bots (issue #24); loading them again changes nothing, and once
one is over the next load opens the next one."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import LedgerEntry, LedgerKind, Player
from accounts.services import wallet_debit
from tables.models import Seat
from tests.consumer_helpers import make_player
from tests.tournaments.play_helpers import tournament_clock_sweep
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.demo import (
    DEMO_ADD_ON_PRICE,
    DEMO_BOTS,
    DEMO_BUY_IN,
    DEMO_FEE,
    DEMO_SEATS,
    DEMO_TOURNAMENT,
    RAZZ_DEMO,
    demo_tournament_load,
)
from tournaments.services.entries import tournament_cancel, tournament_register

pytestmark = pytest.mark.django_db


def test_the_demo_tournament_opens_once_with_nine_bots_registered_and_paid() -> None:
    first = demo_tournament_load()
    again = demo_tournament_load()

    assert again == first
    tournament = Tournament.objects.get(pk=first.tournament_id)
    assert tournament.name == DEMO_TOURNAMENT
    assert tournament.status == TournamentStatus.REGISTERING
    assert (tournament.start_when_registered, tournament.max_players) == (DEMO_SEATS, DEMO_SEATS)
    assert first.registered == DEMO_BOTS == 9
    # The turbo preset: 3-minute levels (R-TOUR-8).
    assert {level.minutes for level in tournament.levels.all()} == {3}
    # Each bot paid its buy-in once, though loaded twice.
    lines = LedgerEntry.objects.filter(
        reference=tournament.reference, kind=LedgerKind.TOURNAMENT_BUY_IN
    )
    assert lines.count() == DEMO_BOTS
    assert set(lines.values_list("player__username", flat=True)) == set(first.bot_usernames)


def test_r_tour_2_a_player_joining_the_bots_starts_it_on_two_tables_of_five() -> None:
    demo = demo_tournament_load()
    player = make_player()
    tournament_register(tournament_id=demo.tournament_id, player=player)

    tournament_clock_sweep(now=timezone.now())

    tournament = Tournament.objects.get(pk=demo.tournament_id)
    assert tournament.status == TournamentStatus.RUNNING
    seats = Seat.objects.filter(table__tournament_table__tournament=tournament)
    by_table: dict[int, int] = {}
    for seat in seats:
        by_table[seat.table_id] = by_table.get(seat.table_id, 0) + 1
    assert sorted(by_table.values()) == [5, 5]
    assert seats.filter(player=player).exists()
    # Loading the demo while it plays changes nothing.
    assert demo_tournament_load().tournament_id == demo.tournament_id


def test_once_the_demo_tournament_is_over_the_next_load_opens_the_next_one() -> None:
    first = demo_tournament_load()
    tournament_cancel(tournament_id=first.tournament_id, staff=None)

    out = io.StringIO()
    call_command("load_demo_tournament", "--tournament-id", stdout=out)

    second = int(out.getvalue())
    assert second != first.tournament_id
    nxt = Tournament.objects.get(pk=second)
    assert nxt.status == TournamentStatus.REGISTERING
    assert nxt.entries.count() == DEMO_BOTS


def test_a_demo_bot_that_cannot_pay_is_topped_up_before_it_registers() -> None:
    first = demo_tournament_load()
    tournament_cancel(tournament_id=first.tournament_id, staff=None)
    bot = Player.objects.get(username=first.bot_usernames[0])
    wallet_debit(
        player_id=bot.pk, amount=bot.balance, kind=LedgerKind.WITHDRAWAL, reason="test: spent"
    )

    second = demo_tournament_load()

    assert second.registered == DEMO_BOTS
    assert LedgerEntry.objects.filter(
        player=bot, kind=LedgerKind.DEPOSIT, reason="demo bot bankroll"
    ).exists()


def test_a_demo_bot_can_pay_its_add_on_after_the_buy_in() -> None:
    """Issue #21 item 9: the demo's bots buy the add-on (R-TOUR-1) over the API when short,
    so a bot that could pay only the buy-in and fee is topped up before it registers."""
    first = demo_tournament_load()
    tournament_cancel(tournament_id=first.tournament_id, staff=None)
    bot = Player.objects.get(username=first.bot_usernames[0])
    wallet_debit(
        player_id=bot.pk,
        amount=bot.balance - (DEMO_BUY_IN + DEMO_FEE),
        kind=LedgerKind.WITHDRAWAL,
        reason="test: spent",
    )

    second = demo_tournament_load()

    assert second.registered == DEMO_BOTS
    bot.refresh_from_db()
    assert bot.balance >= DEMO_ADD_ON_PRICE


def test_r_razz_1_make_run_opens_a_razz_tournament_beside_the_stud_one() -> None:
    """Issue #24: `load_demo_tournament` (run by `make run`) opens the Stud turbo and a Razz
    sit-and-go of 6 with five bots paid in, and prints where each is, as it says."""
    out = io.StringIO()
    call_command("load_demo_tournament", stdout=out)

    razz = Tournament.objects.get(name=RAZZ_DEMO.name)
    stud = Tournament.objects.get(name=DEMO_TOURNAMENT)
    assert (razz.game, razz.game_label, razz.triple_stud) == ("razz", "Razz", False)
    assert (stud.game_label, stud.game_name) == ("Stud", "Seven Card Stud")
    assert (razz.max_players, razz.start_when_registered) == (6, 6)
    assert sorted(razz.entries.values_list("player__username", flat=True)) == [
        f"rtbot{n}" for n in range(1, 6)
    ]
    printed = out.getvalue()
    assert f"turbo sit-and-go, 9 registered, registering): /tournaments/{stud.pk}/" in printed
    assert f"Razz sit-and-go, 5 registered, registering): /tournaments/{razz.pk}/" in printed
    again = io.StringIO()
    call_command("load_demo_tournament", "--razz-tournament-id", stdout=again)
    assert int(again.getvalue()) == razz.pk


def test_r_razz_2_a_player_joining_the_razz_bots_starts_it_dealing_razz() -> None:
    demo = demo_tournament_load(kind=RAZZ_DEMO)
    player = make_player()
    tournament_register(tournament_id=demo.tournament_id, player=player)

    tournament_clock_sweep(now=timezone.now())

    tournament = Tournament.objects.get(pk=demo.tournament_id)
    assert tournament.status == TournamentStatus.RUNNING
    (table,) = {
        seat.table for seat in Seat.objects.filter(table__tournament_table__tournament=tournament)
    }
    assert table.game == "razz" and table.seat_set.count() == 6


@pytest.mark.django_db(transaction=True)  # each demo's thread has its own connection
def test_the_demo_bots_play_the_stud_and_the_razz_demo_tournaments(monkeypatch) -> None:
    """`tournament_bots --demo` (run by `make run`) sends each demo tournament its bots: the
    nine tbots to the Stud one and the five rtbots to the Razz one."""
    from bots.management.commands.tournament_bots import Command

    played: dict[int, list[str]] = {}
    monkeypatch.setattr(
        Command, "_play", lambda self, tid, usernames, options: played.update({tid: usernames})
    )

    Command()._demo({}, rounds=1)

    by_name = {Tournament.objects.get(pk=tid).name: names for tid, names in played.items()}
    assert by_name == {
        DEMO_TOURNAMENT: [f"tbot{n}" for n in range(1, 10)],
        RAZZ_DEMO.name: [f"rtbot{n}" for n in range(1, 6)],
    }
