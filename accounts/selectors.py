"""Reads of players and their wallets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum

from accounts.models import (
    MONEY_IN_KINDS,
    TOURNAMENT_KINDS,
    CashierRequest,
    ChatMute,
    LedgerEntry,
    LedgerKind,
    MoneyMove,
    MoneyMoveStatus,
    NameKey,
    Player,
    PlayerSession,
)
from accounts.money import cents_format
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


def email_confirmed_by_another(email: str, *, player_id: int | None) -> Player | None:
    """The account, not `player_id`, that has confirmed `email` (any case), if one has: one
    confirmed account per address (issue #22)."""
    held = Player.objects.filter(email__iexact=email, email_confirmed=True)
    if player_id is not None:
        held = held.exclude(pk=player_id)
    return held.first()


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


# What the room holds, in the order audit_chips and the monthly statement show it.
HELD_PARTS = ("balances", "on_tables", "in_pots", "rake", "tournaments", "tournament_fees")


@dataclass(frozen=True)
class ChipAudit:
    """audit_chips' figures (DESIGN.md "Money"): the money put in, what holds it, and every
    mismatch found, in words. `held` is keyed by HELD_PARTS."""

    money_in: int
    held: dict[str, int]
    mismatches: tuple[str, ...]

    @property
    def money_held(self) -> int:
        return sum(self.held.values())

    @property
    def conserved(self) -> bool:
        return not self.mismatches


def chip_audit(
    *,
    room_chips: Mapping[str, int],
    tournaments_held: int = 0,
    tournament_fees: int = 0,
    tournament_mismatches: Sequence[str] = (),
) -> ChipAudit:
    """Are the room's chips conserved, and does every balance match its ledger?

    `room_chips` is what the cash tables hold (tables.selectors.room_chip_totals: on_tables,
    in_pots, rake); `tournaments_held`, `tournament_fees` and `tournament_mismatches` what
    the tournaments hold, keep as fees and find wrong in their own rows (tournaments.audit);
    passed in so that accounts reads nothing of the apps built on it. Use
    `tournaments.audit.room_chip_audit()`, which gathers them: `manage.py audit_chips` and
    the monthly statement do."""
    mismatches: list[str] = []

    for check in player_wallet_checks():
        who = f"player {check.username} (id {check.player_id})"
        if check.balance != check.ledger_sum:
            mismatches.append(
                f"{who}: balance {cents_format(check.balance)} != "
                f"ledger sum {cents_format(check.ledger_sum)}"
            )
        if check.balance != check.last_balance_after:
            mismatches.append(
                f"{who}: balance {cents_format(check.balance)} != last ledger "
                f"balance_after {cents_format(check.last_balance_after)}"
            )

    for entry in ledger_sign_errors().select_related("player"):
        mismatches.append(
            f"ledger row {entry.pk} ({entry.kind} for {entry.player.username}) has the "
            f"wrong sign: {cents_format(entry.amount)}"
        )

    kinds = ledger_totals_by_kind()
    # Withdrawals are stored negative, so adding them subtracts.
    money_in = money_in_total(kinds)
    held = {
        "balances": balances_total(),
        "on_tables": room_chips.get("on_tables", 0),
        "in_pots": room_chips.get("in_pots", 0),
        "rake": room_chips.get("rake", 0),
        "tournaments": tournaments_held,
        "tournament_fees": tournament_fees,
    }
    money_held = sum(held.values())
    if money_in != money_held:
        parts = " + ".join(f"{name} {cents_format(value)}" for name, value in held.items())
        mismatches.append(
            f"conservation: deposits - withdrawals + adjustments + play money = "
            f"{cents_format(money_in)}"
            f" but {parts} = {cents_format(money_held)}"
            f" (off by {cents_format(money_held - money_in)})"
        )

    # Chips that left balances for the tables / tournaments must be held there.
    at_tables = -(kinds[LedgerKind.BUY_IN] + kinds[LedgerKind.CASH_OUT])
    table_held = held["on_tables"] + held["in_pots"] + held["rake"]
    if at_tables != table_held:
        mismatches.append(
            f"tables: buy-ins - cash-outs = {cents_format(at_tables)} but on_tables + "
            f"in_pots + rake = {cents_format(table_held)}"
        )
    # Money that left balances for tournaments must be held by them or kept as fees.
    to_tournaments = -sum(kinds[kind] for kind in TOURNAMENT_KINDS)
    tournament_held = held["tournaments"] + held["tournament_fees"]
    if to_tournaments != tournament_held:
        mismatches.append(
            f"tournaments: buy-ins + add-ons + fees - refunds - prizes = "
            f"{cents_format(to_tournaments)} but tournaments + tournament_fees = "
            f"{cents_format(tournament_held)}"
        )
    mismatches.extend(tournament_mismatches)
    return ChipAudit(money_in=money_in, held=held, mismatches=tuple(mismatches))


def chat_muted_ids(player_id: int) -> list[int]:
    """The players whose chat `player_id` has muted, in the order muted."""
    return list(
        ChatMute.objects.filter(player_id=player_id)
        .order_by("created_at", "id")
        .values_list("muted_id", flat=True)
    )


def chat_muted_players(player_id: int) -> list[Player]:
    """The same players, for the settings page (names shown as at the table)."""
    return [
        mute.muted
        for mute in ChatMute.objects.filter(player_id=player_id)
        .select_related("muted")
        .order_by("created_at", "id")
    ]


def money_moves_waiting(*, player_id: int) -> int:
    """How many staff moves of this player's money wait for a second approval (issue #22)."""
    return MoneyMove.objects.filter(player_id=player_id, status=MoneyMoveStatus.PENDING).count()


def session_store(session_key: str) -> Any:
    """The session store's entry of one key (whatever the engine)."""
    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore(session_key=session_key)


def player_sessions(*, player_id: int) -> QuerySet[PlayerSession]:
    """The player's sessions still open, the most recently seen first (a session that expired
    in the store is left out)."""
    return PlayerSession.objects.filter(player_id=player_id).order_by("-last_seen")


def sessions_open(sessions: QuerySet[PlayerSession]) -> list[PlayerSession]:
    return [
        session
        for session in sessions
        if session_store(session.session_key).exists(session.session_key)
    ]
