"""Staff move money from the back office; the player sees it on their account page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import LedgerEntry, LedgerKind, Player
from tests.factories import PlayerFactory, StaffFactory, funded, log_in_staff

pytestmark = pytest.mark.django_db


def wallet_url(player: Player) -> str:
    return reverse("admin:accounts_player_wallet", args=[player.pk])


def test_staff_credit_fifty_dollars_and_the_player_sees_it(client: Client) -> None:
    player = PlayerFactory(username="ivy")
    staff = StaffFactory(username="pitboss")
    log_in_staff(client, staff)

    response = client.post(
        wallet_url(player),
        {"amount": "50.00", "direction": "credit", "category": "cash", "reason": "Cash at cage"},
        follow=True,
    )
    assert "Deposit of $50.00 to ivy: balance now $50.00." in response.text

    client.force_login(player)
    page = client.get(reverse("account")).text
    assert 'data-testid="balance">$50.00<' in page
    entry = LedgerEntry.objects.get(player=player)
    assert (entry.kind, entry.amount, entry.staff, entry.reason) == (
        LedgerKind.DEPOSIT,
        5000,
        staff,
        "Cash at cage",
    )
    assert page.count("<tr>") == 2  # the header and one ledger line
    assert "Cash at cage" in page
    assert "pitboss (staff)" in page


def test_staff_debit_larger_than_the_balance_is_refused_with_a_clear_error(
    client: Client,
) -> None:
    player = PlayerFactory()
    funded(player, 2000)
    log_in_staff(client, StaffFactory())

    response = client.post(
        wallet_url(player),
        {"amount": "20.01", "direction": "debit", "category": "cash", "reason": "Cash out"},
    )

    assert response.status_code == 200
    assert "Insufficient balance: $20.01 asked for, only $20.00 available." in response.text
    player.refresh_from_db()
    assert player.balance == 2000
    assert LedgerEntry.objects.filter(player=player).count() == 1


def test_staff_adjustment_debit_writes_a_negative_adjustment(client: Client) -> None:
    player = PlayerFactory()
    funded(player, 2000)
    log_in_staff(client, StaffFactory())

    client.post(
        wallet_url(player),
        {"amount": "5", "direction": "debit", "category": "adjustment", "reason": "Double credit"},
    )

    entry = LedgerEntry.objects.filter(player=player).first()
    assert entry is not None
    assert (entry.kind, entry.amount, entry.balance_after) == (LedgerKind.ADJUSTMENT, -500, 1500)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"amount": "50.00", "direction": "credit", "category": "cash", "reason": " "}, "required"),
        (
            {"amount": "5.001", "direction": "credit", "category": "cash", "reason": "x"},
            "5.001 has a fraction of a cent",
        ),
        ({"amount": "0.00", "direction": "credit", "category": "cash", "reason": "x"}, "more than"),
    ],
)
def test_the_wallet_form_refuses_bad_input(
    client: Client, data: dict[str, str], error: str
) -> None:
    player = PlayerFactory()
    log_in_staff(client, StaffFactory())

    response = client.post(wallet_url(player), data)

    assert response.status_code == 200
    assert error in response.text
    assert not LedgerEntry.objects.exists()


def test_a_player_cannot_reach_the_wallet_form(client: Client) -> None:
    player = PlayerFactory()
    client.force_login(player)

    response = client.post(
        wallet_url(player),
        {"amount": "50.00", "direction": "credit", "category": "cash", "reason": "me"},
    )

    assert response.status_code == 302  # to the admin login
    assert not LedgerEntry.objects.exists()


def test_staff_without_the_money_permission_cannot_move_money(client: Client) -> None:
    player = PlayerFactory()
    clerk = PlayerFactory(is_staff=True)
    log_in_staff(client, clerk)

    response = client.post(
        wallet_url(player),
        {"amount": "50.00", "direction": "credit", "category": "cash", "reason": "me"},
    )

    assert response.status_code == 403
    assert not LedgerEntry.objects.exists()


def test_the_ledger_admin_refuses_add_change_and_delete(client: Client) -> None:
    entry = funded(PlayerFactory(), 5000)
    log_in_staff(client, StaffFactory())

    assert client.get(reverse("admin:accounts_ledgerentry_changelist")).status_code == 200
    assert client.get(reverse("admin:accounts_ledgerentry_add")).status_code == 403
    change = reverse("admin:accounts_ledgerentry_change", args=[entry.pk])
    assert client.post(change, {"amount": "1", "kind": "deposit"}).status_code == 403
    delete = reverse("admin:accounts_ledgerentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    bulk = client.post(
        reverse("admin:accounts_ledgerentry_changelist"),
        {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 5000


def test_the_player_admin_shows_the_ledger_read_only_and_keeps_the_balance(
    client: Client,
) -> None:
    player = PlayerFactory(username="jack")
    funded(player, 5000, reason="opening deposit")
    log_in_staff(client, StaffFactory())
    change = reverse("admin:accounts_player_change", args=[player.pk])

    page = client.get(change).text
    assert "opening deposit" in page
    assert "$50.00" in page
    assert 'name="all_in_allowance"' in page
    assert 'name="ledger_entries-0-amount"' not in page
    full_ledger = client.get(
        reverse("admin:accounts_ledgerentry_changelist"), {"player__id__exact": player.pk}
    )
    assert full_ledger.status_code == 200
    assert "opening deposit" in full_ledger.text

    response = client.post(
        change,
        {
            "username": "jack",
            "email": "jack@example.com",
            "all_in_allowance": "3",
            "all_ins_used": "0",
            "is_active": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "ledger_entries-TOTAL_FORMS": "0",
            "ledger_entries-INITIAL_FORMS": "0",
            # the support page's read-only inlines (issue #16): staff actions, hands
            "staff_actions_received-TOTAL_FORMS": "0",
            "staff_actions_received-INITIAL_FORMS": "0",
            "hands_dealt-TOTAL_FORMS": "0",
            "hands_dealt-INITIAL_FORMS": "0",
            "seats-TOTAL_FORMS": "0",
            "seats-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.text
    player.refresh_from_db()
    assert (player.all_in_allowance, player.balance) == (3, 5000)


def test_the_player_admin_searches_and_filters(client: Client) -> None:
    PlayerFactory(username="kelly", display_name="Kelly K")
    PlayerFactory(username="liam")
    log_in_staff(client, StaffFactory())
    changelist = reverse("admin:accounts_player_changelist")

    page = client.get(changelist, {"q": "Kelly K"}).text
    assert "kelly" in page and "liam" not in page
    assert client.get(changelist, {"is_staff__exact": "0"}).status_code == 200


def test_staff_reset_all_in_protection_from_the_player_list(client: Client) -> None:
    player = PlayerFactory(all_ins_used=2)
    log_in_staff(client, StaffFactory())

    client.post(
        reverse("admin:accounts_player_changelist"),
        {"action": "reset_all_in_protection", "_selected_action": [player.pk]},
    )

    player.refresh_from_db()
    assert player.all_ins_used == 0


def test_the_wallet_form_shows_the_balance(client: Client) -> None:
    player = PlayerFactory(username="mia")
    funded(player, 1234)
    log_in_staff(client, StaffFactory())

    page = client.get(wallet_url(player)).text

    assert "Balance of <strong>mia</strong>: <strong>$12.34</strong>" in page
    assert 'name="reason"' in page


def test_staff_add_a_player_who_is_not_staff(client: Client) -> None:
    log_in_staff(client, StaffFactory())

    response = client.post(
        reverse("admin:accounts_player_add"),
        {
            "username": "nora",
            "email": "nora@example.com",
            "usable_password": "true",
            "password1": "seven-card-stud-42",
            "password2": "seven-card-stud-42",
        },
    )

    assert response.status_code == 302, response.text
    nora = Player.objects.get(username="nora")
    assert not nora.is_staff and nora.balance == 0
