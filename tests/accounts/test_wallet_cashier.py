"""The cashier of a real-money room (issue #14, item 3): a player asks for a deposit or a
withdrawal; only staff approval moves money, as one ledger line naming them; a withdrawal
never exceeds the balance off the tables; a request is decided once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import (
    CashierKind,
    CashierRequest,
    CashierStatus,
    LedgerEntry,
    LedgerKind,
    Player,
)
from accounts.services import (
    CashierRefused,
    InsufficientBalance,
    cashier_approve,
    cashier_refuse,
    cashier_request,
    wallet_debit,
)
from tests.factories import PlayerFactory, StaffFactory, funded, log_in_staff

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def real_money_room(settings) -> None:
    settings.ROOM_MONEY = "real"


def changelist() -> str:
    return reverse("admin:accounts_cashierrequest_changelist")


def decide_url(item: CashierRequest) -> str:
    return reverse("admin:accounts_cashierrequest_decide", args=[item.pk])


def test_a_player_asks_for_a_deposit_and_nothing_moves_until_staff_approve(
    client: Client,
) -> None:
    player = PlayerFactory(username="ivy")
    client.force_login(player)

    response = client.post(reverse("cashier"), {"kind": "deposit", "amount": "$1.50"}, follow=True)

    assert "Your deposit request of $1.50 is with the cashier." in response.text
    assert "Pending" in response.text
    item = CashierRequest.objects.get(player=player)
    assert (item.kind, item.amount, item.status) == (
        CashierKind.DEPOSIT,
        150,
        CashierStatus.PENDING,
    )
    assert Player.objects.get(pk=player.pk).balance == 0
    assert not LedgerEntry.objects.exists()


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("-5", "An amount cannot be negative."),
        ("1.005", "Money is counted in whole cents: 1.005 has a fraction of a cent."),
        ("lots", "Enter an amount in dollars and cents, like 1.50 or $1,000.00."),
        ("0.00", "The amount must be more than $0.00."),
        ("", "This field is required."),
    ],
)
def test_bad_amounts_are_refused_clearly_and_nothing_is_asked(
    client: Client, amount: str, message: str
) -> None:
    client.force_login(PlayerFactory())

    response = client.post(reverse("cashier"), {"kind": "deposit", "amount": amount})

    assert response.status_code == 200
    assert message in response.text
    assert not CashierRequest.objects.exists()


def test_a_withdrawal_above_the_balance_off_the_tables_is_refused_at_request(
    client: Client,
) -> None:
    player = PlayerFactory()
    funded(player, 5_000)
    client.force_login(player)
    first = client.post(reverse("cashier"), {"kind": "withdrawal", "amount": "30"})
    assert first.status_code == 302

    response = client.post(reverse("cashier"), {"kind": "withdrawal", "amount": "20.01"})

    # $50.00 in the wallet, $30.00 already waiting: at most $20.00 more.
    assert "You can withdraw at most $20.00" in response.text
    assert CashierRequest.objects.filter(player=player).count() == 1
    assert Player.objects.get(pk=player.pk).balance == 5_000


def test_staff_approve_a_deposit_in_the_admin_and_the_ledger_names_them(client: Client) -> None:
    player = PlayerFactory(username="ivy")
    staff = StaffFactory(username="pitboss")
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    log_in_staff(client, staff)

    listing = client.get(changelist()).text
    assert "Approve the selected requests" in listing and "$50.00" in listing

    response = client.post(
        decide_url(item), {"note": "cash at the cage", "approve": "Approve"}, follow=True
    )

    assert f"Request #{item.pk} approved." in response.text
    item.refresh_from_db()
    assert (item.status, item.decided_by, item.staff_note) == (
        CashierStatus.APPROVED,
        staff,
        "cash at the cage",
    )
    entry = LedgerEntry.objects.get(player=player)
    assert (entry.kind, entry.amount, entry.staff, entry.reference) == (
        LedgerKind.DEPOSIT,
        5_000,
        staff,
        f"cashier:{item.pk}",
    )
    assert entry.reason == f"cashier request #{item.pk}: cash at the cage"
    assert item.ledger_entry == entry
    client.force_login(player)
    page = client.get(reverse("account")).text
    assert 'data-testid="balance">$50.00<' in page and "pitboss (staff)" in page


def test_staff_refuse_a_request_and_nothing_moves(client: Client) -> None:
    player = PlayerFactory()
    staff = StaffFactory()
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    log_in_staff(client, staff)

    client.post(decide_url(item), {"note": "no funds received", "refuse": "Refuse"})

    item.refresh_from_db()
    assert (item.status, item.decided_by, item.staff_note) == (
        CashierStatus.REFUSED,
        staff,
        "no funds received",
    )
    assert not LedgerEntry.objects.exists()
    client.force_login(player)
    page = client.get(reverse("cashier")).text
    assert "Refused" in page and "no funds received" in page


def test_the_changelist_actions_approve_and_refuse(client: Client) -> None:
    player = PlayerFactory()
    funded(player, 10_000)
    staff = StaffFactory()
    deposit = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=2_000)
    withdrawal = cashier_request(player_id=player.pk, kind=CashierKind.WITHDRAWAL, amount=3_000)
    log_in_staff(client, staff)

    response = client.post(
        changelist(),
        {"action": "approve_requests", "_selected_action": [deposit.pk, withdrawal.pk]},
        follow=True,
    )

    assert "2 request(s) approved." in response.text
    assert Player.objects.get(pk=player.pk).balance == 10_000 + 2_000 - 3_000
    assert list(
        LedgerEntry.objects.filter(staff=staff).order_by("id").values_list("kind", "amount")
    ) == [(LedgerKind.DEPOSIT, 2_000), (LedgerKind.WITHDRAWAL, -3_000)]

    # Approving again (or refusing a decided request) changes nothing.
    again = client.post(
        changelist(),
        {"action": "refuse_requests", "_selected_action": [deposit.pk]},
        follow=True,
    )
    assert f"Request #{deposit.pk}: Request #{deposit.pk} was already approved." in again.text
    assert CashierRequest.objects.get(pk=deposit.pk).status == CashierStatus.APPROVED
    assert LedgerEntry.objects.filter(staff=staff).count() == 2


def test_a_request_is_approved_once_only() -> None:
    player = PlayerFactory()
    staff = StaffFactory()
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    cashier_approve(request_id=item.pk, staff=staff, now=NOW)

    with pytest.raises(CashierRefused, match="already approved"):
        cashier_approve(request_id=item.pk, staff=staff, now=NOW)
    with pytest.raises(CashierRefused, match="already approved"):
        cashier_refuse(request_id=item.pk, staff=staff, now=NOW)

    assert Player.objects.get(pk=player.pk).balance == 5_000
    assert LedgerEntry.objects.count() == 1


def test_a_withdrawal_larger_than_the_balance_at_approval_is_refused_and_stays_pending(
    client: Client,
) -> None:
    """The chips went to a table after the request: the wallet no longer covers it."""
    player = PlayerFactory()
    funded(player, 5_000)
    staff = StaffFactory()
    item = cashier_request(player_id=player.pk, kind=CashierKind.WITHDRAWAL, amount=4_000)
    wallet_debit(player_id=player.pk, amount=3_000, kind=LedgerKind.BUY_IN)

    with pytest.raises(InsufficientBalance):
        cashier_approve(request_id=item.pk, staff=staff, now=NOW)
    log_in_staff(client, staff)
    response = client.post(decide_url(item), {"note": "", "approve": "Approve"})

    assert "Insufficient balance: $40.00 asked for, only $20.00 available." in response.text
    item.refresh_from_db()
    assert item.status == CashierStatus.PENDING and item.decided_by is None
    assert Player.objects.get(pk=player.pk).balance == 2_000


def test_staff_without_the_money_permission_cannot_decide(client: Client) -> None:
    player = PlayerFactory()
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    clerk = PlayerFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_cashierrequest"))
    log_in_staff(client, clerk)

    assert client.post(decide_url(item), {"approve": "Approve"}).status_code == 403
    listing = client.get(changelist()).text
    assert "Approve the selected requests" not in listing
    assert CashierRequest.objects.get(pk=item.pk).status == CashierStatus.PENDING
    assert not LedgerEntry.objects.exists()


def test_the_cashier_takes_no_request_in_a_play_money_room(client: Client, settings) -> None:
    settings.ROOM_MONEY = "play"
    player = PlayerFactory()
    client.force_login(player)

    page = client.get(reverse("cashier"))  # says the room plays for play money (issue #21)
    assert page.status_code == 200 and "Send my request" not in page.text
    assert client.post(reverse("cashier"), {"kind": "deposit", "amount": "5.00"}).status_code == 200
    with pytest.raises(CashierRefused, match="play money"):
        cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=100)
    assert not CashierRequest.objects.exists()


def test_the_account_page_links_the_cashier_in_a_real_money_room(client: Client) -> None:
    client.force_login(PlayerFactory())

    page = client.get(reverse("account")).text

    assert reverse("cashier") in page
    assert "Top up" not in page
