"""Reads of players and their wallets."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum

from accounts.models import (
    MONEY_IN_KINDS,
    CashierRequest,
    LedgerEntry,
    LedgerKind,
    NameKey,
    Player,
)
from accounts.names import name_keys


def player_ledger(*, player_id: int) -> QuerySet[LedgerEntry]:
    """A player's ledger, newest first, with the staff who made each staff entry."""
    return LedgerEntry.objects.filter(player_id=player_id).select_related("staff")


def name_held_by_another(name: str, *, player_id: int | None) -> bool:
    """Whether another player's username or display name looks like `name` (accounts.names)."""
    held = NameKey.objects.filter(key__in=name_keys(name))
    if player_id is not None:
        held = held.exclude(player_id=player_id)
    return held.exists()


def ledger_totals_by_kind() -> dict[str, int]:
    """The sum of signed amounts of each kind over every player, in cents (0 where none)."""
    totals = {kind.value: 0 for kind in LedgerKind}
    for row in LedgerEntry.objects.order_by().values("kind").annotate(total=Sum("amount")):
        totals[row["kind"]] = row["total"] or 0
    return totals


def money_in_total(kinds: dict[str, int]) -> int:
    """Money put into the room less money taken out: deposits less withdrawals, staff
    adjustments and play money granted (audit_chips' "money in"), from ledger_totals_by_kind."""
    return sum(kinds[kind] for kind in MONEY_IN_KINDS)


def player_cashier_requests(*, player_id: int) -> QuerySet[CashierRequest]:
    """A player's requests to the cashier, newest first."""
    return CashierRequest.objects.filter(player_id=player_id).select_related("decided_by")


def balances_total() -> int:
    return Player.objects.aggregate(total=Sum("balance"))["total"] or 0


@dataclass(frozen=True)
class PlayerWalletCheck:
    player_id: int
    username: str
    balance: int
    ledger_sum: int
    last_balance_after: int
    entries: int


def player_wallet_checks() -> list[PlayerWalletCheck]:
    """For every player: the balance column, the ledger sum and the last balance_after."""
    sums = {
        row["player_id"]: (row["total"] or 0, row["entries"])
        for row in LedgerEntry.objects.order_by()
        .values("player_id")
        .annotate(total=Sum("amount"), entries=Count("id"))
    }
    last_after = Subquery(
        LedgerEntry.objects.filter(player_id=OuterRef("pk"))
        .order_by("-id")
        .values("balance_after")[:1]
    )
    players = (
        Player.objects.order_by("id")
        .annotate(last_balance_after=last_after)
        .values_list("id", "username", "balance", "last_balance_after")
    )
    checks = []
    for player_id, username, balance, last_balance_after in players:
        ledger_sum, entries = sums.get(player_id, (0, 0))
        checks.append(
            PlayerWalletCheck(
                player_id=player_id,
                username=username,
                balance=balance,
                ledger_sum=ledger_sum,
                last_balance_after=last_balance_after or 0,
                entries=entries,
            )
        )
    return checks


def ledger_sign_errors() -> QuerySet[LedgerEntry]:
    """Rows whose sign contradicts their kind (a deposit that took money, and so on)."""
    credits = [
        LedgerKind.DEPOSIT,
        LedgerKind.CASH_OUT,
        LedgerKind.PRIZE,
        LedgerKind.PLAY_MONEY_GRANT,
        LedgerKind.PLAY_MONEY_TOP_UP,
        LedgerKind.TOURNAMENT_REFUND,
    ]
    # A tournament fee is a debit when paid and a credit when given back: either sign.
    debits = [
        LedgerKind.WITHDRAWAL,
        LedgerKind.BUY_IN,
        LedgerKind.TOURNAMENT_BUY_IN,
        LedgerKind.TOURNAMENT_ADD_ON,
    ]
    return LedgerEntry.objects.filter(kind__in=credits, amount__lte=0) | LedgerEntry.objects.filter(
        kind__in=debits, amount__gte=0
    )
