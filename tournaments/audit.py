"""What the tournaments hold of the room's money, for `manage.py audit_chips` (read-only).

Counted from the tournaments' own rows, then checked against their ledger lines
(tournaments/services/money.py), so a lost or doubled line shows:

- held: every buy-in and add-on of the entries of tournaments not over (their prize pool,
  paid out as prizes at the end, refunded on cancellation);
- fees: every entry's fee in tournaments not cancelled: the house's revenue (R-TOUR-9),
  kept like the rake.

Tournament chips are not money: they sit on tournament tables (`Table.is_tournament`), which
`tables.selectors.room_chip_totals` leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, Sum

from accounts.models import LedgerEntry, LedgerKind
from accounts.money import cents_format
from tournaments.models import OVER, Tournament, TournamentStatus

_POOL_KINDS = (
    LedgerKind.TOURNAMENT_BUY_IN,
    LedgerKind.TOURNAMENT_ADD_ON,
    LedgerKind.TOURNAMENT_REFUND,
    LedgerKind.PRIZE,
)


@dataclass
class TournamentMoney:
    """Cents held by tournaments not over, fees kept, and each tournament whose ledger lines
    disagree with its rows."""

    held: int = 0
    fees: int = 0
    mismatches: list[str] = field(default_factory=list)


def tournament_money() -> TournamentMoney:
    money = TournamentMoney()
    lines: dict[str, dict[str, Any]] = {
        row["reference"]: dict(row)
        for row in LedgerEntry.objects.filter(reference__startswith="tournament:")
        .order_by()
        .values("reference")
        .annotate(
            pool=Sum("amount", filter=Q(kind__in=_POOL_KINDS)),
            fees=Sum("amount", filter=Q(kind=LedgerKind.TOURNAMENT_FEE)),
            prizes=Sum("amount", filter=Q(kind=LedgerKind.PRIZE)),
        )
    }
    tournaments = Tournament.objects.order_by("id").annotate(
        entrants=Count("entries"),
        add_ons=Count("entries", filter=Q(entries__add_on_at__isnull=False)),
        prizes=Sum("entries__prize"),
    )
    seen = set()
    for tournament in tournaments:
        reference = tournament.reference
        seen.add(reference)
        row: dict[str, Any] = lines.get(reference, {})
        pool = (
            tournament.buy_in * tournament.entrants + tournament.add_on_price * tournament.add_ons
        )
        held = 0 if tournament.status in OVER else pool
        fees = (
            0
            if tournament.status == TournamentStatus.CANCELLED
            else tournament.fee * tournament.entrants
        )
        prizes = (tournament.prizes or 0) if tournament.status == TournamentStatus.FINISHED else 0
        money.held += held
        money.fees += fees
        name = f"tournament {tournament.name} (id {tournament.pk}, {tournament.status})"
        if -(row.get("pool") or 0) != held:
            money.mismatches.append(
                f"{name}: its ledger lines hold {cents_format(-(row.get('pool') or 0))} of "
                f"buy-ins and add-ons but its entries {cents_format(held)}"
            )
        if -(row.get("fees") or 0) != fees:
            money.mismatches.append(
                f"{name}: its fee lines keep {cents_format(-(row.get('fees') or 0))} but its "
                f"entries {cents_format(fees)}"
            )
        if (row.get("prizes") or 0) != prizes:
            money.mismatches.append(
                f"{name}: prizes paid {cents_format(row.get('prizes') or 0)} but its places "
                f"{cents_format(prizes)}"
            )
        if tournament.status == TournamentStatus.FINISHED and prizes != pool:
            money.mismatches.append(
                f"{name}: prizes {cents_format(prizes)} but a prize pool of {cents_format(pool)}"
            )
    for reference in sorted(set(lines) - seen):
        money.mismatches.append(f"ledger lines name {reference}, which does not exist")
    return money
