"""Concurrent debits on PostgreSQL queue on the player's row lock and never overdraw; a
top-up is given once a day, and a cashier request or a staff money move (issue #22) approved
once, however many ask at once."""

from __future__ import annotations

import contextlib
import threading
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.models import Sum

from accounts.models import CashierKind, LedgerEntry, LedgerKind, Player
from accounts.services import (
    CashierRefused,
    InsufficientBalance,
    MoneyMoveRefused,
    TopUpRefused,
    cashier_approve,
    cashier_request,
    money_move_approve,
    wallet_credit,
    wallet_debit,
    wallet_staff_move,
    wallet_top_up,
)
from tests.factories import PlayerFactory, StaffFactory, funded

THREADS = 12


def run_at_once(work: list[threading.Thread]) -> None:
    for thread in work:
        thread.start()
    for thread in work:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in work)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_debits_never_overdraw() -> None:
    assert connection.vendor == "postgresql"
    player = PlayerFactory()
    funded(player, 10_000)
    start = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def buy_in() -> None:
        try:
            start.wait()
            wallet_debit(player_id=player.pk, amount=3_000, kind=LedgerKind.BUY_IN)
            outcome = "paid"
        except InsufficientBalance:
            outcome = "refused"
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    run_at_once([threading.Thread(target=buy_in) for _ in range(THREADS)])

    assert sorted(outcomes) == ["paid"] * 3 + ["refused"] * (THREADS - 3)
    player.refresh_from_db()
    assert player.balance == 1_000
    ledger = LedgerEntry.objects.filter(player=player).order_by("id")
    assert ledger.aggregate(total=Sum("amount"))["total"] == 1_000
    assert [entry.balance_after for entry in ledger] == [10_000, 7_000, 4_000, 1_000]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_credits_and_debits_leave_the_ledger_and_balance_consistent() -> None:
    assert connection.vendor == "postgresql"
    player = PlayerFactory()
    funded(player, 1_000)
    start = threading.Barrier(THREADS)

    def move(index: int) -> None:
        try:
            start.wait()
            for _ in range(5):
                if index % 2:
                    wallet_credit(player_id=player.pk, amount=700, kind=LedgerKind.CASH_OUT)
                else:
                    with contextlib.suppress(InsufficientBalance):
                        wallet_debit(player_id=player.pk, amount=900, kind=LedgerKind.BUY_IN)
        finally:
            connection.close()

    run_at_once([threading.Thread(target=move, args=(index,)) for index in range(THREADS)])

    player = Player.objects.get(pk=player.pk)
    ledger = list(LedgerEntry.objects.filter(player=player).order_by("id"))
    running = 0
    for entry in ledger:
        running += entry.amount
        assert entry.balance_after == running >= 0
    assert player.balance == running


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_top_ups_give_one_a_day() -> None:
    """Play money: many clicks at once on "Top up" queue on the player's row lock; the first
    tops up, the rest find it done today."""
    assert connection.vendor == "postgresql"
    player = PlayerFactory()
    start = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()
    now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)

    def top_up() -> None:
        try:
            start.wait()
            wallet_top_up(player_id=player.pk, now=now)
            outcome = "given"
        except TopUpRefused:
            outcome = "refused"
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    run_at_once([threading.Thread(target=top_up) for _ in range(THREADS)])

    assert sorted(outcomes) == ["given"] + ["refused"] * (THREADS - 1)
    assert Player.objects.get(pk=player.pk).balance == 100_000
    assert LedgerEntry.objects.filter(player=player).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_of_one_cashier_request_move_the_money_once(settings) -> None:
    """Two staff approve the same deposit at once: the request row's lock lets one win."""
    assert connection.vendor == "postgresql"
    settings.ROOM_MONEY = "real"
    player = PlayerFactory()
    staff = StaffFactory()
    item = cashier_request(player_id=player.pk, kind=CashierKind.DEPOSIT, amount=5_000)
    start = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()
    now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)

    def approve() -> None:
        try:
            start.wait()
            cashier_approve(request_id=item.pk, staff=staff, now=now)
            outcome = "approved"
        except CashierRefused:
            outcome = "refused"
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    run_at_once([threading.Thread(target=approve) for _ in range(THREADS)])

    assert sorted(outcomes) == ["approved"] + ["refused"] * (THREADS - 1)
    assert Player.objects.get(pk=player.pk).balance == 5_000
    assert LedgerEntry.objects.filter(player=player).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_of_one_money_move_move_the_money_once() -> None:
    """Issue #22: a staff credit to a staff account waits; several other members of staff
    approve it at once: the move's row lock lets one win, the rest are told it is decided."""
    assert connection.vendor == "postgresql"
    floor = StaffFactory()
    now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    move = wallet_staff_move(
        player_id=floor.pk,
        amount=5_000,
        debit=False,
        kind=LedgerKind.DEPOSIT,
        staff=StaffFactory(),
        reason="float",
        now=now,
    )
    approvers = [StaffFactory() for _ in range(THREADS)]
    start = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def approve(staff: Player) -> None:
        try:
            start.wait()
            money_move_approve(move_id=move.pk, staff=staff, now=now)
            outcome = "approved"
        except MoneyMoveRefused:
            outcome = "refused"
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    run_at_once([threading.Thread(target=approve, args=(staff,)) for staff in approvers])

    assert sorted(outcomes) == ["approved"] + ["refused"] * (THREADS - 1)
    assert Player.objects.get(pk=floor.pk).balance == 5_000
    assert LedgerEntry.objects.filter(player=floor).count() == 1
