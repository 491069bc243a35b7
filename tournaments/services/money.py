"""A tournament's money as wallet ledger lines (accounts.services), all in integer cents and
all with the reference "tournament:<id>" (`Tournament.reference`):

- registering: a TOURNAMENT_BUY_IN debit (the prize pool) and a TOURNAMENT_FEE debit (the
  house's, R-TOUR-9; none when the fee is 0);
- an add-on: a TOURNAMENT_ADD_ON debit (the prize pool);
- unregistering and cancellation: a TOURNAMENT_REFUND credit of every buy-in and add-on the
  player paid and a TOURNAMENT_FEE credit of the fee, read from the player's own lines, so
  they get back exactly what they paid;
- the end: a PRIZE credit for each player with a prize.

The sum of a tournament's TOURNAMENT_FEE lines is the fee the house kept (the "Tournament
fees" column of the accounting reports); the pool it holds is -(buy-ins + add-ons + refunds
+ prizes), which is 0 once it is over. These functions run inside the caller's transaction,
after the tournament row is locked; each wallet move locks its player's row (the lock
order: the tournament, its tables, then players by primary key).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q, Sum

from accounts.models import LedgerEntry, LedgerKind
from accounts.services import wallet_credit, wallet_debit
from tournaments.models import Tournament, TournamentEntry

_POOL_KINDS = (
    LedgerKind.TOURNAMENT_BUY_IN,
    LedgerKind.TOURNAMENT_ADD_ON,
    LedgerKind.TOURNAMENT_REFUND,
)


# One ledger line of a tournament's: (cents, LedgerKind, the reason's words before its name).
_Line = tuple[int, str, str]


def _lines_move(
    move: Callable[..., LedgerEntry], *, tournament: Tournament, player_id: int, lines: list[_Line]
) -> None:
    """Each line with a positive amount, in order, as one wallet move (`wallet_debit` or
    `wallet_credit`) with the tournament's reference."""
    for amount, kind, label in lines:
        if amount > 0:
            move(
                player_id=player_id,
                amount=amount,
                kind=kind,
                reason=f"{label}: {tournament.name}"[:200],
                reference=tournament.reference,
            )


def entry_pay(*, tournament: Tournament, player_id: int) -> None:
    """The buy-in and the fee leave the wallet; InsufficientBalance (from the first debit the
    wallet cannot pay) rolls the caller's transaction back, so nothing is taken."""
    _lines_move(
        wallet_debit,
        tournament=tournament,
        player_id=player_id,
        lines=[
            (tournament.buy_in, LedgerKind.TOURNAMENT_BUY_IN, "buy-in"),
            (tournament.fee, LedgerKind.TOURNAMENT_FEE, "entry fee"),
        ],
    )


def add_on_pay(*, tournament: Tournament, player_id: int) -> None:
    wallet_debit(
        player_id=player_id,
        amount=tournament.add_on_price,
        kind=LedgerKind.TOURNAMENT_ADD_ON,
        reason=f"add-on: {tournament.name}"[:200],
        reference=tournament.reference,
    )


def paid_by(*, tournament: Tournament, player_id: int) -> tuple[int, int]:
    """(prize-pool money, fee) the player has paid into the tournament and not had back."""
    lines = LedgerEntry.objects.filter(player_id=player_id, reference=tournament.reference)
    totals = lines.aggregate(
        pool=Sum("amount", filter=Q(kind__in=_POOL_KINDS)),
        fee=Sum("amount", filter=Q(kind=LedgerKind.TOURNAMENT_FEE)),
    )
    return -(totals["pool"] or 0), -(totals["fee"] or 0)


def entry_refund(*, tournament: Tournament, player_id: int, why: str) -> int:
    """Give the player back every buy-in, add-on and fee they paid into the tournament;
    returns the cents given back."""
    pool, fee = paid_by(tournament=tournament, player_id=player_id)
    _lines_move(
        wallet_credit,
        tournament=tournament,
        player_id=player_id,
        lines=[
            (pool, LedgerKind.TOURNAMENT_REFUND, why),
            (fee, LedgerKind.TOURNAMENT_FEE, f"fee back, {why}"),
        ],
    )
    return max(pool, 0) + max(fee, 0)


def prize_pool_of(tournament: Tournament) -> int:
    """Every buy-in and add-on (R-TOUR-9), from the entries: what the prizes add up to."""
    entries = TournamentEntry.objects.filter(tournament=tournament)
    add_ons = entries.filter(add_on_at__isnull=False).count()
    return tournament.buy_in * entries.count() + tournament.add_on_price * add_ons


def prizes_pay(*, tournament: Tournament, prizes: dict[int, int]) -> None:
    """Credit each player's prize (player id -> cents), in ascending player id (the lock
    order), as a PRIZE line."""
    for player_id in sorted(prizes):
        if prizes[player_id] > 0:
            wallet_credit(
                player_id=player_id,
                amount=prizes[player_id],
                kind=LedgerKind.PRIZE,
                reason=f"prize: {tournament.name}"[:200],
                reference=tournament.reference,
            )
