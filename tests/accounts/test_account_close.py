"""Issue #26 item 4: a player closes their account from the account page, confirming with
their password. The ledger and hand records the room must keep are kept; the personal fields
are blanked, logins disabled, every session ended; the player leaves each table when the hand
they are in ends (never folded) and the tournaments not started give their buy-ins back."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import (
    CashierKind,
    CashierRequest,
    CashierStatus,
    LedgerEntry,
    LedgerKind,
    Player,
)
from accounts.money import cents_format
from accounts.services import (
    cashier_approve,
    cashier_request,
    closed_account_payout_request,
    player_account_close,
)
from integrity.models import PairReview
from integrity.services import case_decide, case_open
from tables import services
from tables.models import Hand, Seat
from tests.factories import PASSWORD, PlayerFactory, StaffFactory, funded
from tests.table_factories import engine_of, make_table, play_down, running_hand, seated_player
from tests.tournaments.money_helpers import make_tournament
from tournaments.services.entries import tournament_register

pytestmark = pytest.mark.django_db


def _logged_in(username: str) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def test_issue_26_a_wrong_password_closes_nothing():
    player = PlayerFactory(username="lena", email="lena@example.com")
    client = _logged_in("lena")
    assert "Close my account" in client.get(reverse("account")).content.decode()

    response = client.post(reverse("account_close"), {"password": "not-mine", "confirm": "on"})

    assert "That is not your password." in response.content.decode()
    player.refresh_from_db()
    assert player.closed_at is None and player.is_active and player.username == "lena"
    assert client.get(reverse("account")).status_code == 200


def test_issue_26_closing_keeps_ledger_and_hands_and_removes_the_rest(
    django_capture_on_commit_callbacks,
):
    table = make_table()
    player = seated_player(
        table, seat_number=1, username="mona", email="mona@example.com", display_name="MonaLisa"
    )
    other = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk).ok
    with django_capture_on_commit_callbacks(execute=True):
        play_down(table, {1: player, 2: other})
    hand = Hand.objects.get(table=table)
    assert hand.ended_at is not None
    ledger_before = list(LedgerEntry.objects.filter(player=player).values_list("pk", "amount"))
    phone, laptop = _logged_in("mona"), _logged_in("mona")

    with django_capture_on_commit_callbacks(execute=True):
        response = laptop.post(
            reverse("account_close"), {"password": PASSWORD, "confirm": "on"}, follow=True
        )

    assert "Your account is closed." in response.content.decode()
    for client in (phone, laptop):  # every session ended
        assert client.get(reverse("account")).url.startswith(reverse("login"))
    again = Client().post(reverse("login"), {"username": "mona", "password": PASSWORD})
    assert again.status_code == 200 and "_auth_user_id" not in again.client.session
    closed = Player.objects.get(pk=player.pk)
    assert closed.username == f"closed-{player.pk}" and not closed.is_active
    assert closed.email == "" and closed.display_name == ""
    assert not closed.has_usable_password()
    # Kept: the ledger (a cash-out line added: the seat came back) and the hand.
    ledger_after = LedgerEntry.objects.filter(player=player)
    assert set(ledger_before) <= set(ledger_after.values_list("pk", "amount"))
    assert ledger_after.filter(kind=LedgerKind.CASH_OUT).exists()
    assert not Seat.objects.filter(player=player).exists()
    assert player.pk in Hand.objects.get(pk=hand.pk).players.values()
    other_client = Client()
    other_client.force_login(other)
    assert other_client.get(reverse("hand_detail", kwargs={"hand_id": hand.pk})).status_code == 200
    call_command("audit_chips")


def test_issue_26_closing_mid_hand_ends_the_hand_first_and_unregisters(
    django_capture_on_commit_callbacks,
):
    table = make_table()
    players = {n: seated_player(table, seat_number=n) for n in (1, 2)}
    tournament = make_tournament(buy_in=1000, fee=100)
    tournament_register(tournament_id=tournament.pk, player=players[1])
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)

    with django_capture_on_commit_callbacks(execute=True):
        player_account_close(player_id=players[1].pk)

    assert Seat.objects.filter(table=table, player=players[1]).exists()  # still in the hand
    assert engine_of(hand).status_of(1) != "folded"
    assert tournament.entries.count() == 0
    assert LedgerEntry.objects.filter(player=players[1], kind=LedgerKind.TOURNAMENT_REFUND).exists()
    with django_capture_on_commit_callbacks(execute=True):
        play_down(table, players)
    hand.refresh_from_db()
    assert hand.ended_at is not None
    assert not Seat.objects.filter(table=table, player=players[1]).exists()
    assert LedgerEntry.objects.filter(player=players[1], kind=LedgerKind.CASH_OUT).exists()
    call_command("audit_chips")


@pytest.fixture
def real_money_room(settings) -> None:
    settings.ROOM_MONEY = "real"


def test_issue_26_a_closed_real_money_account_is_paid_out_its_wallet_and_then_its_seat(
    real_money_room, django_capture_on_commit_callbacks
):
    """Closing in a real-money room: the page says the money is paid out; the cashier gets a
    withdrawal for the wallet at once (less the withdrawal already waiting), and, when the
    hand the player is in ends and the table cashes the seat out, one for those chips. A
    member of staff approves them as any other withdrawal; the balance ends at $0.00."""
    table = make_table()
    players = {n: seated_player(table, seat_number=n) for n in (1, 2)}
    nina = players[1]
    funded(nina, 50_000)
    cashier_request(player_id=nina.pk, kind=CashierKind.WITHDRAWAL, amount=10_000)
    nina.refresh_from_db()
    wallet = nina.balance
    page = _logged_in(nina.username).get(reverse("account_close")).content.decode()
    assert "Your money is paid out" in page and cents_format(wallet) in page
    assert services.hand_start(table_id=table.pk).ok

    with django_capture_on_commit_callbacks(execute=True):
        player_account_close(player_id=nina.pk)

    waiting = CashierRequest.objects.filter(player=nina, status=CashierStatus.PENDING)
    assert sorted(waiting.values_list("amount", flat=True)) == [10_000, wallet - 10_000]
    with django_capture_on_commit_callbacks(execute=True):
        play_down(table, players)
    seat_back = LedgerEntry.objects.get(player=nina, kind=LedgerKind.CASH_OUT).amount
    assert sorted(waiting.values_list("amount", flat=True)) == sorted(
        [10_000, wallet - 10_000, seat_back]
    )
    cashier = StaffFactory(username="cage")
    for item in waiting.order_by("id"):
        cashier_approve(request_id=item.pk, staff=cashier, now=timezone.now())
    nina.refresh_from_db()
    assert nina.balance == 0
    call_command("audit_chips")


def test_issue_26_play_money_and_a_suspended_wallet_are_not_paid_out(
    settings, django_capture_on_commit_callbacks
):
    """Play chips are never paid out; a suspended account's wallet stays held for review."""
    kim = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        player_account_close(player_id=kim.pk)
    assert closed_account_payout_request(player_id=kim.pk) is None
    settings.ROOM_MONEY = "real"
    held = PlayerFactory()
    funded(held, 20_000)
    staff = StaffFactory(username="integrity")
    review = PairReview.objects.create(player_low=held, player_high=PlayerFactory())
    case = case_open(pair_id=review.pk, staff=staff)
    case_decide(case_id=case.pk, staff=staff, decision="suspended", suspend=[held.pk])
    with django_capture_on_commit_callbacks(execute=True):
        player_account_close(player_id=held.pk)
    assert not CashierRequest.objects.exists()
