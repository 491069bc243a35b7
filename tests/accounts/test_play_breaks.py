"""Issue #26: a break (24 h, 7 d, 30 d) or self-exclusion (6 months, 1 y, 5 y) waits for the
hand: the player is cashed out of every table when the hand they are in ends (never folded),
at once where they are in none, leaves the tournaments not started (buy-ins back as ledger
lines), and takes no seat, registration or cashier request until it ends."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.limits import break_in_force, play_break_take
from accounts.models import LedgerEntry, LedgerKind, PlayBreakKind
from tables import services
from tables.models import Seat
from tests.factories import PlayerFactory, funded
from tests.table_factories import engine_of, make_table, play_down, running_hand, seated_player
from tests.tournaments.money_helpers import make_tournament
from tournaments.services.entries import tournament_register
from tournaments.services.refusals import TournamentRefusal, TournamentRefused

pytestmark = pytest.mark.django_db


def test_a_break_taken_mid_hand_ends_the_hand_first_then_cashes_out(
    django_capture_on_commit_callbacks,
):
    table = make_table()
    players = {n: seated_player(table, seat_number=n) for n in (1, 2)}
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    with django_capture_on_commit_callbacks(execute=True):
        play_break_take(player_id=players[1].pk, length="24h")

    assert Seat.objects.filter(table=table, player=players[1]).exists()  # still in the hand
    assert engine_of(hand).status_of(1) != "folded"
    with django_capture_on_commit_callbacks(execute=True):
        play_down(table, players)
    hand.refresh_from_db()
    assert hand.ended_at is not None
    assert not Seat.objects.filter(table=table, player=players[1]).exists()
    assert LedgerEntry.objects.filter(player=players[1], kind=LedgerKind.CASH_OUT).exists()
    call_command("audit_chips")


def test_on_a_break_no_seat_no_registration_and_unstarted_entries_come_back(
    django_capture_on_commit_callbacks,
):
    table = make_table()
    player = seated_player(table)
    tournament = make_tournament(buy_in=1000, fee=100)
    tournament_register(tournament_id=tournament.pk, player=player)
    with django_capture_on_commit_callbacks(execute=True):
        play_break_take(player_id=player.pk, length="7d")

    assert not Seat.objects.filter(player=player).exists()  # in no hand: at once
    assert tournament.entries.count() == 0
    assert LedgerEntry.objects.filter(player=player, kind=LedgerKind.TOURNAMENT_REFUND).exists()
    player.refresh_from_db()
    assert player.balance == 10_000
    refused = services.seat_take(table_id=table.pk, player=player, buy_in=table.buy_in)
    assert refused.error == "play_limit" and "on a break until" in refused.message
    with pytest.raises(TournamentRefused) as again:
        tournament_register(tournament_id=tournament.pk, player=player)
    assert again.value.code == TournamentRefusal.PLAY_LIMIT


def test_a_self_exclusion_outlasts_a_shorter_break_taken_after_it():
    player = PlayerFactory()
    funded(player, 1000)
    play_break_take(player_id=player.pk, length="5y")
    play_break_take(player_id=player.pk, length="24h")
    assert break_in_force(player.pk).kind == PlayBreakKind.SELF_EXCLUSION


def test_the_player_takes_a_break_from_the_page_and_staff_see_it_read_only(client):
    from django.test import Client

    from tests.factories import log_in_staff

    player = PlayerFactory(username="restful")
    client.force_login(player)
    client.post("/accounts/limits/break/", {"length": "6m", "confirm": "yes"})
    page = client.get("/accounts/limits/").content.decode()
    assert "You are on a self-exclusion until" in page
    staff = Client()
    log_in_staff(staff)
    listing = staff.get("/admin/accounts/playbreak/").content.decode()
    assert "restful" in listing and "Self-exclusion" in listing
    pk = break_in_force(player.pk).pk
    assert staff.post(f"/admin/accounts/playbreak/{pk}/delete/").status_code == 403
    assert break_in_force(player.pk) is not None


def test_the_limits_page_has_its_title_and_one_break_form(client):
    """The break form stands once, under the limits; the page's title is only its name."""
    client.force_login(PlayerFactory())
    page = client.get("/accounts/limits/").content.decode()
    assert "<title>My limits · Stud Room</title>" in page
    assert page.count('id="break"') == page.count('name="length"') == 1
