"""Issue #16: every staff action (credits, debits, all-in resets, cashier decisions, table
open/close) is written to an audit log nobody can edit, and a player's admin page shows their
ledger, hands, all-in protection and its reset, log-ins and every staff action on them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from axes.models import AccessLog
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import (
    CashierKind,
    LedgerKind,
    Player,
    StaffAction,
    StaffActionIsPermanent,
    StaffActionKind,
)
from accounts.money import cents_format
from accounts.services import (
    all_in_protection_take,
    cashier_request,
    staff_action_record,
    wallet_credit,
)
from tables.models import Seat, Table
from tests.factories import PlayerFactory, StaffFactory, funded, log_in_staff
from tests.history_hands import hold_scheduling, three_handed_hand
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db


def player_page(player: Player) -> str:
    return reverse("admin:accounts_player_change", args=[player.pk])


def only_action(**filters: object) -> StaffAction:
    rows = list(StaffAction.objects.filter(**filters))
    assert len(rows) == 1, rows
    return rows[0]


# --- Each staff action writes one row -------------------------------------------------------


def test_a_staff_credit_in_the_admin_writes_one_staff_action(client: Client) -> None:
    player = PlayerFactory(username="ivy")
    staff = StaffFactory(username="pitboss")
    log_in_staff(client, staff)

    client.post(
        reverse("admin:accounts_player_wallet", args=[player.pk]),
        {"amount": "50.00", "direction": "credit", "category": "cash", "reason": "Cash at cage"},
    )

    action = only_action()
    assert (action.staff, action.action, action.target_player, action.target) == (
        staff,
        StaffActionKind.WALLET_CREDIT,
        player,
        f"player:{player.pk}",
    )
    assert action.detail == "Deposit of $50.00: Cash at cage"


def test_a_staff_debit_writes_one_staff_action_and_a_refused_one_none(client: Client) -> None:
    player = PlayerFactory()
    funded(player, 2_000)
    log_in_staff(client, StaffFactory())
    wallet = reverse("admin:accounts_player_wallet", args=[player.pk])

    client.post(
        wallet, {"amount": "20.01", "direction": "debit", "category": "cash", "reason": "Out"}
    )
    assert not StaffAction.objects.exists()  # refused: nothing moved, nothing recorded

    client.post(
        wallet, {"amount": "5.00", "direction": "debit", "category": "adjustment", "reason": "Fix"}
    )
    action = only_action()
    assert action.action == StaffActionKind.WALLET_DEBIT
    assert action.detail == "Adjustment of $5.00: Fix"


def test_money_the_room_moves_by_itself_is_no_staff_action() -> None:
    player = PlayerFactory()
    wallet_credit(player_id=player.pk, amount=500, kind=LedgerKind.DEPOSIT, reason="grant")
    assert not StaffAction.objects.exists()


def test_a_cashier_approval_writes_one_staff_action_not_a_credit_too(
    client: Client, settings
) -> None:
    settings.ROOM_MONEY = "real"
    player = PlayerFactory(username="ann")
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    staff = StaffFactory()
    log_in_staff(client, staff)

    client.post(
        reverse("admin:accounts_cashierrequest_decide", args=[item.pk]),
        {"note": "wire received", "approve": "1"},
    )

    action = only_action()
    assert (action.staff, action.action, action.target_player) == (
        staff,
        StaffActionKind.CASHIER_APPROVE,
        player,
    )
    assert action.detail == f"Deposit request #{item.pk} of $50.00: wire received"


def test_a_cashier_refusal_writes_one_staff_action(client: Client, settings) -> None:
    settings.ROOM_MONEY = "real"
    player = PlayerFactory()
    funded(player, 5_000)
    item = cashier_request(player_id=player.pk, kind=CashierKind.WITHDRAWAL, amount=1_000)
    log_in_staff(client, StaffFactory())

    client.post(
        reverse("admin:accounts_cashierrequest_decide", args=[item.pk]),
        {"note": "ID missing", "refuse": "1"},
    )

    action = only_action()
    assert action.action == StaffActionKind.CASHIER_REFUSE
    assert action.detail == f"Withdrawal request #{item.pk} of $10.00: ID missing"


def test_r_time_2_an_all_in_reset_from_the_list_writes_one_row_per_player(
    client: Client,
) -> None:
    ann, bea = PlayerFactory(username="ann"), PlayerFactory(username="bea")
    all_in_protection_take(player_id=ann.pk, now=timezone.now())
    staff = StaffFactory()
    log_in_staff(client, staff)

    client.post(
        reverse("admin:accounts_player_changelist"),
        {"action": "reset_all_in_protection", "_selected_action": [ann.pk, bea.pk]},
    )

    rows = StaffAction.objects.filter(action=StaffActionKind.ALL_IN_RESET).order_by("target")
    assert [(row.target_player, row.staff, row.detail) for row in rows] == [
        (ann, staff, "1 of 2 used today given back"),
        (bea, staff, "0 of 2 used today given back"),
    ]


def test_r_time_2_the_reset_page_of_a_player_gives_the_allowance_back_and_records_it(
    client: Client,
) -> None:
    player = PlayerFactory(username="cid")
    for _ in range(2):
        all_in_protection_take(player_id=player.pk, now=timezone.now())
    staff = StaffFactory()
    log_in_staff(client, staff)
    assert '<span data-testid="all-in-today">2 used, 0 left of 2</span>' in (
        client.get(player_page(player)).text
    )
    reset = reverse("admin:accounts_player_all_in_reset", args=[player.pk])
    assert "has 0 of 2 all-in protection(s) left today" in client.get(reset).text

    response = client.post(reset, follow=True)

    assert "All-in protection reset for cid." in response.text
    assert '<span data-testid="all-in-today">0 used, 2 left of 2</span>' in response.text
    assert only_action().action == StaffActionKind.ALL_IN_RESET


def test_staff_closing_and_opening_a_table_write_one_row_each(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold_scheduling(monkeypatch)
    table = make_table(name="Aces")
    staff = StaffFactory()
    log_in_staff(client, staff)
    changelist = reverse("admin:tables_table_changelist")

    client.post(changelist, {"action": "close_tables", "_selected_action": [table.pk]})
    close = only_action()
    assert (close.action, close.target, close.detail, close.target_player) == (
        StaffActionKind.TABLE_CLOSE,
        f"table:{table.pk}",
        "Aces",
        None,
    )
    assert not Table.objects.get(pk=table.pk).is_open

    client.post(changelist, {"action": "open_tables", "_selected_action": [table.pk]})
    assert only_action(action=StaffActionKind.TABLE_OPEN).staff == staff
    assert StaffAction.objects.count() == 2


def test_another_app_records_its_own_action_with_a_reference() -> None:
    """The tournaments app may reuse the log: any action string, any reference."""
    staff = StaffFactory()
    moment = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    action = staff_action_record(
        staff=staff, action="tournament_pause", target="tournament:7", detail="break", now=moment
    )
    assert (action.action_label, action.target, action.target_player, action.at) == (
        "tournament_pause",
        "tournament:7",
        None,
        moment,
    )


# --- Nobody can edit the log ----------------------------------------------------------------


def test_a_staff_action_cannot_be_changed_or_deleted() -> None:
    action = staff_action_record(
        staff=StaffFactory(), action=StaffActionKind.TABLE_CLOSE, target="table:1"
    )
    action.detail = "rewritten"
    with pytest.raises(StaffActionIsPermanent):
        action.save()
    with pytest.raises(StaffActionIsPermanent):
        action.delete()
    with pytest.raises(StaffActionIsPermanent):
        StaffAction.objects.filter(pk=action.pk).update(detail="rewritten")
    with pytest.raises(StaffActionIsPermanent):
        StaffAction.objects.filter(pk=action.pk).delete()
    assert StaffAction.objects.get(pk=action.pk).detail == ""


def test_the_admin_shows_the_log_read_only(client: Client) -> None:
    staff = StaffFactory(username="boss")
    action = staff_action_record(staff=staff, action=StaffActionKind.TABLE_OPEN, target="table:9")
    log_in_staff(client, staff)

    listing = client.get(reverse("admin:accounts_staffaction_changelist"))
    assert listing.status_code == 200
    assert "Table opened" in listing.text and "table:9" in listing.text
    assert client.get(reverse("admin:accounts_staffaction_add")).status_code == 403
    assert client.get(
        reverse("admin:accounts_staffaction_delete", args=[action.pk])
    ).status_code in (
        403,
        302,
    )
    page = client.get(reverse("admin:accounts_staffaction_change", args=[action.pk])).text
    assert 'name="_save"' not in page
    assert StaffAction.objects.get(pk=action.pk).detail == ""


# --- The player's support page ------------------------------------------------------------


def test_the_player_page_shows_ledger_hands_staff_actions_and_log_ins(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold_scheduling(monkeypatch)
    played = three_handed_hand(name="Aces")
    alice = played.players[1]
    staff = StaffFactory(username="pitboss")
    wallet_credit(
        player_id=alice.pk,
        amount=1_234,
        kind=LedgerKind.ADJUSTMENT,
        staff=staff,
        reason="goodwill",
    )
    AccessLog.objects.create(
        username=alice.username,
        ip_address="203.0.113.9",
        user_agent="Firefox",
        attempt_time=timezone.now(),
    )
    log_in_staff(client, staff)

    page = client.get(player_page(alice)).text

    # the ledger: the test deposit, the buy-in, and the staff adjustment
    assert "goodwill" in page and "$12.34" in page and "Buy-in" in page
    # the hand, linked to its history as alice sees it and to its full log
    history = reverse("hand_detail_for_staff", args=[played.hand.pk, alice.pk])
    assert f'href="{history}"' in page
    assert reverse("admin:tables_hand_change", args=[played.hand.pk]) in page
    # every staff action on the account
    assert "Staff actions on this account" in page
    assert "Wallet credit" in page and "Adjustment of $12.34: goodwill" in page
    # where alice sits now
    stack = cents_format(Seat.objects.get(player=alice).stack)
    assert "Seated now (table sessions)" in page
    assert re.search(rf'field-stack_display">\s*<p>{re.escape(stack)}</p>', page)
    # log-ins and the last login
    assert "203.0.113.9" in page and "Firefox" in page
    assert "Last login" in page

    hand_page = client.get(history)
    assert hand_page.status_code == 200
    assert 'data-testid="history-text"' in hand_page.text
    assert "PokerStars" in hand_page.text


def test_a_player_cannot_open_the_staff_view_of_a_hand(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold_scheduling(monkeypatch)
    played = three_handed_hand()
    alice, bob = played.players[1], played.players[2]
    client.force_login(bob)
    response = client.get(reverse("hand_detail_for_staff", args=[played.hand.pk, alice.pk]))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
