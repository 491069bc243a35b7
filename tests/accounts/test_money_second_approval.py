"""Issue #22: two people for money. A staff credit or debit of more than
MONEY_SECOND_APPROVAL_CENTS, or any to or from a staff account, waits in the admin's "Money
moves" until a second member of staff approves it; nobody approves their own request nor a
move to or from themselves; the ledger line is written on approval, once. A cashier request by
a staff member needs another member of staff, and one above the threshold two."""

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
    MoneyMove,
    MoneyMoveStatus,
    Player,
    StaffAction,
    StaffActionKind,
)
from accounts.services import (
    InsufficientBalance,
    SecondApprovalNeeded,
    WalletError,
    cashier_approve,
    cashier_request,
    money_move_approve,
    money_move_refuse,
    wallet_credit,
    wallet_debit,
    wallet_staff_move,
)
from tests.factories import PlayerFactory, StaffFactory, funded, log_in_staff

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
THRESHOLD = 100_000  # $1,000.00


@pytest.fixture(autouse=True)
def second_approval_above_1000_dollars(settings) -> None:
    settings.MONEY_SECOND_APPROVAL_CENTS = THRESHOLD


def wallet_url(player: Player) -> str:
    return reverse("admin:accounts_player_wallet", args=[player.pk])


def moves_url() -> str:
    return reverse("admin:accounts_moneymove_changelist")


def decide_url(move: MoneyMove) -> str:
    return reverse("admin:accounts_moneymove_decide", args=[move.pk])


def credit(client: Client, player: Player, amount: str, reason: str = "cash at the cage"):
    return client.post(
        wallet_url(player),
        {"amount": amount, "direction": "credit", "category": "cash", "reason": reason},
        follow=True,
    )


def balance(player: Player) -> int:
    return Player.objects.get(pk=player.pk).balance


def staff_actions() -> list[tuple[str, str]]:
    """The audit log's (who, what) lines, in the order staff acted."""
    return list(StaffAction.objects.order_by("id").values_list("staff__username", "action"))


def only_move() -> MoneyMove:
    [move] = MoneyMove.objects.all()
    return move


def cashier_staff(username: str) -> Player:
    """A member of staff who is not a superuser: the money permission and the cashier list."""
    staff = PlayerFactory(username=username, is_staff=True)
    for codename in ("move_money", "view_cashierrequest", "view_moneymove"):
        staff.user_permissions.add(Permission.objects.get(codename=codename))
    return Player.objects.get(pk=staff.pk)  # permissions cached afresh


# --- The wallet form ------------------------------------------------------------------------


def test_issue_22_staff_crediting_themselves_wait_for_a_second_member_of_staff(
    client: Client,
) -> None:
    pitboss = StaffFactory(username="pitboss")
    log_in_staff(client, pitboss)

    response = credit(client, pitboss, "50.00", reason="my wages")

    assert (
        "Deposit of $50.00 to pitboss waits for a second member of staff&#x27;s approval"
        in response.text
    )
    assert "nothing has moved yet" in response.text
    assert balance(pitboss) == 0
    assert not LedgerEntry.objects.exists()
    listing = client.get(moves_url(), {"status__exact": "pending"}).text
    assert "my wages" in listing and "$50.00" in listing and "Decide…" in listing
    move = only_move()
    assert (move.player, move.requested_by, move.amount, move.debit, move.status) == (
        pitboss,
        pitboss,
        5_000,
        False,
        MoneyMoveStatus.PENDING,
    )


def test_issue_22_the_one_who_asked_cannot_approve_their_own_money_move(client: Client) -> None:
    pitboss = StaffFactory(username="pitboss")
    ivy = PlayerFactory(username="ivy")
    log_in_staff(client, pitboss)
    credit(client, ivy, "2,000.00")
    move = only_move()

    page = client.post(decide_url(move), {"note": "", "approve": "Approve"})
    bulk = client.post(
        moves_url(), {"action": "approve_moves", "_selected_action": [move.pk]}, follow=True
    )

    message = (
        f"Money move #{move.pk}: you asked for it, so another member of staff must approve it."
    )
    assert message in page.text
    assert message in bulk.text and "0 money move(s) approved." in bulk.text
    assert balance(ivy) == 0
    assert not LedgerEntry.objects.exists()
    assert MoneyMove.objects.get(pk=move.pk).status == MoneyMoveStatus.PENDING


def test_issue_22_nobody_approves_a_move_to_or_from_their_own_account(client: Client) -> None:
    pitboss = StaffFactory(username="pitboss")
    floor = StaffFactory(username="floor")
    log_in_staff(client, pitboss)
    credit(client, floor, "25.00", reason="float")  # to a staff account: waits
    move = only_move()

    log_in_staff(client, floor)
    page = client.post(decide_url(move), {"note": "", "approve": "Approve"})

    assert (
        f"Money move #{move.pk} is to your own account: another member of staff must approve it."
        in page.text
    )
    assert balance(floor) == 0
    assert not LedgerEntry.objects.exists()


def test_issue_22_a_second_member_of_staff_approves_and_the_money_moves_once(
    client: Client,
) -> None:
    pitboss = StaffFactory(username="pitboss")
    ivy = PlayerFactory(username="ivy")
    log_in_staff(client, pitboss)
    credit(client, ivy, "2,000.00", reason="wire received")
    move = only_move()
    cashier = cashier_staff("cashier")

    log_in_staff(client, cashier)
    page = client.get(decide_url(move)).text
    assert "<strong>pitboss</strong> asks for a <strong>deposit</strong> of" in page
    approved = client.post(
        decide_url(move), {"note": "bank statement seen", "approve": "Approve"}, follow=True
    )
    again = client.post(
        moves_url(), {"action": "approve_moves", "_selected_action": [move.pk]}, follow=True
    )

    assert f"Money move #{move.pk} approved." in approved.text
    assert f"Money move #{move.pk} was already approved." in again.text
    assert balance(ivy) == 200_000
    entry = LedgerEntry.objects.get(player=ivy)
    assert (entry.kind, entry.amount, entry.staff, entry.reason, entry.reference) == (
        LedgerKind.DEPOSIT,
        200_000,
        pitboss,
        "wire received",
        f"money_move:{move.pk}",
    )
    move.refresh_from_db()
    assert (move.status, move.decided_by, move.ledger_entry) == (
        MoneyMoveStatus.APPROVED,
        cashier,
        entry,
    )
    assert staff_actions() == [
        ("pitboss", StaffActionKind.MONEY_MOVE_ASK),
        ("cashier", StaffActionKind.MONEY_MOVE_APPROVE),
    ]
    client.force_login(ivy)
    account = client.get(reverse("account")).text
    assert 'data-testid="balance">$2,000.00<' in account and "wire received" in account


def test_issue_22_a_refused_money_move_leaves_the_balances_as_they_were(client: Client) -> None:
    pitboss = StaffFactory(username="pitboss")
    ivy = PlayerFactory(username="ivy")
    funded(ivy, 300_000)
    log_in_staff(client, pitboss)
    client.post(
        wallet_url(ivy),
        {"amount": "1,500.00", "direction": "debit", "category": "cash", "reason": "cash out"},
    )
    move = only_move()
    assert balance(ivy) == 300_000  # nothing taken while it waits

    log_in_staff(client, StaffFactory(username="cashier"))
    refused = client.post(
        decide_url(move), {"note": "no signature", "refuse": "Refuse"}, follow=True
    )
    late = client.post(decide_url(move), {"note": "", "approve": "Approve"})

    assert f"Money move #{move.pk} refused." in refused.text
    assert f"Money move #{move.pk} was already refused." in late.text
    assert balance(ivy) == 300_000
    assert LedgerEntry.objects.filter(player=ivy).count() == 1  # the deposit that funded her
    assert StaffAction.objects.filter(action=StaffActionKind.MONEY_MOVE_REFUSE).count() == 1


def test_issue_22_the_one_who_asked_may_withdraw_their_move_by_refusing_it() -> None:
    pitboss = StaffFactory()
    move = wallet_staff_move(
        player_id=pitboss.pk,
        amount=100,
        debit=False,
        kind=LedgerKind.ADJUSTMENT,
        staff=pitboss,
        reason="typo",
        now=NOW,
    )

    money_move_refuse(move_id=move.pk, staff=pitboss, now=NOW, note="asked by mistake")

    move.refresh_from_db()
    assert (move.status, move.decided_by, move.decision_note) == (
        MoneyMoveStatus.REFUSED,
        pitboss,
        "asked by mistake",
    )
    assert balance(pitboss) == 0 and not LedgerEntry.objects.exists()


def test_issue_22_below_the_threshold_an_ordinary_players_credit_is_immediate(
    client: Client,
) -> None:
    ivy = PlayerFactory(username="ivy")
    log_in_staff(client, StaffFactory(username="pitboss"))

    at_threshold = credit(client, ivy, "1,000.00")
    above = credit(client, ivy, "1,000.01")

    assert "Deposit of $1,000.00 to ivy: balance now $1,000.00." in at_threshold.text
    assert "Deposit of $1,000.01 to ivy waits for a second member of staff" in above.text
    assert balance(ivy) == 100_000
    assert LedgerEntry.objects.filter(player=ivy).count() == 1
    assert only_move().amount == 100_001


def test_issue_22_a_debit_the_balance_no_longer_covers_stays_waiting() -> None:
    pitboss = StaffFactory()
    ivy = PlayerFactory()
    funded(ivy, 200_000)
    move = wallet_staff_move(
        player_id=ivy.pk,
        amount=150_000,
        debit=True,
        kind=LedgerKind.WITHDRAWAL,
        staff=pitboss,
        reason="cash out",
        now=NOW,
    )
    wallet_debit(player_id=ivy.pk, amount=100_000, kind=LedgerKind.BUY_IN)  # she sat down

    with pytest.raises(InsufficientBalance):
        money_move_approve(move_id=move.pk, staff=StaffFactory(), now=NOW)

    assert MoneyMove.objects.get(pk=move.pk).status == MoneyMoveStatus.PENDING
    assert balance(ivy) == 100_000


def test_issue_22_no_code_path_moves_a_staff_accounts_money_on_one_persons_say() -> None:
    pitboss = StaffFactory()
    ivy = PlayerFactory()

    with pytest.raises(SecondApprovalNeeded):
        wallet_credit(
            player_id=pitboss.pk, amount=100, kind=LedgerKind.DEPOSIT, staff=pitboss, reason="me"
        )
    with pytest.raises(SecondApprovalNeeded):
        wallet_credit(
            player_id=ivy.pk,
            amount=THRESHOLD + 1,
            kind=LedgerKind.DEPOSIT,
            staff=pitboss,
            reason="x",
        )
    assert not LedgerEntry.objects.exists()


def test_issue_22_staff_without_the_money_permission_cannot_approve(client: Client) -> None:
    pitboss = StaffFactory()
    ivy = PlayerFactory()
    move = wallet_staff_move(
        player_id=ivy.pk,
        amount=THRESHOLD + 1,
        debit=False,
        kind=LedgerKind.DEPOSIT,
        staff=pitboss,
        reason="wire",
        now=NOW,
    )
    clerk = PlayerFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_moneymove"))
    log_in_staff(client, clerk)

    assert client.post(decide_url(move), {"approve": "Approve"}).status_code == 403
    assert "Approve the selected money moves" not in client.get(moves_url()).text
    with pytest.raises(WalletError, match="permission to move money"):
        money_move_approve(move_id=move.pk, staff=clerk, now=NOW)
    assert balance(ivy) == 0


def test_issue_22_the_player_page_says_a_money_move_waits(client: Client) -> None:
    pitboss = StaffFactory()
    ivy = PlayerFactory(username="ivy")
    log_in_staff(client, pitboss)
    credit(client, ivy, "5,000.00")

    page = client.get(reverse("admin:accounts_player_change", args=[ivy.pk])).text

    assert "1 money move(s) waiting for a second approval" in page


# --- The cashier ----------------------------------------------------------------------------


@pytest.fixture
def real_money_room(settings) -> None:
    settings.ROOM_MONEY = "real"


def cashier_decide_url(item: CashierRequest) -> str:
    return reverse("admin:accounts_cashierrequest_decide", args=[item.pk])


@pytest.mark.usefixtures("real_money_room")
def test_issue_22_a_staff_member_cannot_approve_their_own_cashier_deposit(client: Client) -> None:
    """The red team's case: $50,000 asked for and approved by the same staff member."""
    pitboss = StaffFactory(username="pitboss")
    item = cashier_request(player_id=pitboss.pk, kind=CashierKind.DEPOSIT, amount=5_000_000)
    log_in_staff(client, pitboss)

    page = client.post(cashier_decide_url(item), {"note": "", "approve": "Approve"})
    bulk = client.post(
        reverse("admin:accounts_cashierrequest_changelist"),
        {"action": "approve_requests", "_selected_action": [item.pk]},
        follow=True,
    )

    message = f"Request #{item.pk} is your own: another member of staff must approve it."
    assert message in page.text
    assert message in bulk.text and "0 request(s) approved." in bulk.text
    assert balance(pitboss) == 0
    assert CashierRequest.objects.get(pk=item.pk).status == CashierStatus.PENDING
    assert not LedgerEntry.objects.exists()


@pytest.mark.usefixtures("real_money_room")
def test_issue_22_another_member_of_staff_approves_a_staff_members_request_once() -> None:
    pitboss = StaffFactory(username="pitboss")
    item = cashier_request(player_id=pitboss.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    cashier = cashier_staff("cashier")

    approved = cashier_approve(request_id=item.pk, staff=cashier, now=NOW)

    assert (approved.status, approved.decided_by) == (CashierStatus.APPROVED, cashier)
    assert balance(pitboss) == 5_000
    assert LedgerEntry.objects.get(player=pitboss).staff == cashier


@pytest.mark.usefixtures("real_money_room")
def test_issue_22_a_cashier_request_above_the_threshold_needs_two_members_of_staff(
    client: Client,
) -> None:
    ivy = PlayerFactory(username="ivy")
    item = cashier_request(player_id=ivy.pk, kind=CashierKind.DEPOSIT, amount=500_000)
    first, second = StaffFactory(username="first"), StaffFactory(username="second")

    log_in_staff(client, first)
    once = client.post(cashier_decide_url(item), {"note": "", "approve": "Approve"}, follow=True)
    twice = client.post(cashier_decide_url(item), {"note": "", "approve": "Approve"})

    assert f"Request #{item.pk}: your approval is the first of two" in once.text
    assert (
        f"Request #{item.pk}: you approved it already; a second member of staff must approve "
        f"it too." in twice.text
    )
    assert balance(ivy) == 0 and not LedgerEntry.objects.exists()
    page = client.get(cashier_decide_url(item)).text
    assert "First approved by <strong>first</strong>" in page

    log_in_staff(client, second)
    done = client.post(cashier_decide_url(item), {"note": "", "approve": "Approve"}, follow=True)

    assert f"Request #{item.pk} approved." in done.text
    assert balance(ivy) == 500_000
    entry = LedgerEntry.objects.get(player=ivy)
    assert (entry.amount, entry.staff, entry.reference) == (500_000, second, f"cashier:{item.pk}")
    item.refresh_from_db()
    assert (item.status, item.first_approved_by, item.decided_by) == (
        CashierStatus.APPROVED,
        first,
        second,
    )
    assert staff_actions() == [
        ("first", StaffActionKind.CASHIER_FIRST_APPROVE),
        ("second", StaffActionKind.CASHIER_APPROVE),
    ]
