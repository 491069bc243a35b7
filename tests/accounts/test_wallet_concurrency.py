"""Concurrent debits on PostgreSQL queue on the player's row lock and never overdraw."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection
from django.db.models import Sum

from accounts.models import LedgerEntry, LedgerKind, Player
from accounts.services import InsufficientBalance, wallet_credit, wallet_debit
from tests.factories import PlayerFactory, funded

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
