"""What the house took in a period, read once for the rake report and the monthly statement,
so the two always count the same hands, rake and fees."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet, Sum

from accounts.models import LedgerEntry, LedgerKind
from pokerroom.room_day import day_bounds
from tables.models import Hand, RakeEntry


@dataclass(frozen=True)
class Takings:
    """The rows of a period of New York days: the hands that ended in it (a hand, and its
    rake, belong to the moment it ended), their rake, and the tournament fee lines (by the
    moment of their ledger line)."""

    hands: QuerySet[Hand]
    rake: QuerySet[RakeEntry]
    fee_lines: QuerySet[LedgerEntry]

    @property
    def cash_hands(self) -> QuerySet[Hand]:
        """A tournament table's limits are chips, not cents: its hands are never a cash
        table's, stakes', game's or schedule's (issue #21, 4)."""
        return self.hands.filter(table__is_tournament=False)

    @property
    def tournament_hands(self) -> int:
        return self.hands.filter(table__is_tournament=True).count()

    @property
    def fees_kept(self) -> int:
        """The fees the house kept, in cents: a fee given back is a credit, so the fee lines
        sum to minus what it kept."""
        return -(self.fee_lines.aggregate(paid=Sum("amount"))["paid"] or 0)


def period_takings(*, first_day: date, last_day: date) -> Takings:
    """What the New York days first_day..last_day (included) took."""
    start, end = day_bounds(first_day, last_day)
    return Takings(
        hands=Hand.objects.filter(ended_at__gte=start, ended_at__lt=end),
        rake=RakeEntry.objects.filter(hand__ended_at__gte=start, hand__ended_at__lt=end),
        fee_lines=LedgerEntry.objects.filter(
            kind=LedgerKind.TOURNAMENT_FEE, created_at__gte=start, created_at__lt=end
        ),
    )
