"""The monthly statement an accountant signs off: a New York month's hands and rake per game
and stakes, the tournament fees, and at its foot the chip audit (audit_chips' own figures,
accounts.selectors.chip_audit) with the rake of the month reconciled to all the rake the room
holds: rake before the month + the month's + since = the audit's rake.
"""

from __future__ import annotations

import calendar
import csv
import io
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone

from accounting.report import (
    COLUMNS,
    DATE_FORMAT,
    GAME_LABELS,
    MONEY_FORMAT,
    per_hand,
    per_hand_dollars,
)
from accounting.selectors import period_takings
from accounting.xlsx_values import formula_values_store
from accounts.money import cents_format, cents_to_dollars
from accounts.selectors import ChipAudit
from pokerroom.room_day import day_bounds, room_zone
from tables.models import RakeEntry
from tournaments.audit import room_chip_audit


@dataclass(frozen=True)
class StatementLine:
    game: str
    small_bet: int
    big_bet: int
    hands_dealt: int
    hands_raked: int
    rake: int

    @property
    def game_label(self) -> str:
        return GAME_LABELS.get(self.game, self.game)

    @property
    def stakes_label(self) -> str:
        return f"{cents_format(self.small_bet)}/{cents_format(self.big_bet)}"

    @property
    def rake_per_hand(self) -> int:
        return per_hand(self.rake, self.hands_dealt)


# The audit's parts as the statement's foot names them.
HELD_LABELS = {
    "balances": "Players' balances",
    "on_tables": "Chips on the tables",
    "in_pots": "Chips in pots of hands in play",
    "rake": "Rake taken, all time",
    "tournaments": "Held by tournaments not over (buy-ins and add-ons)",
    "tournament_fees": "Tournament fees kept",
}


@dataclass(frozen=True)
class MonthlyStatement:
    first_day: date
    last_day: date
    lines: tuple[StatementLine, ...]
    tournament_fees: int
    rake_before: int  # rake of hands that ended before the month
    rake_since: int  # rake of hands that ended after it
    audit: ChipAudit
    audited_at: datetime
    # Hands dealt at tournament tables (never raked, R-RAKE-3): the Tournaments row's, never
    # a cash stake's (their limits are tournament chips, not cents).
    tournament_hands: int = 0

    @property
    def month_label(self) -> str:
        return self.first_day.strftime("%B %Y")

    @property
    def hands_dealt(self) -> int:
        return sum(line.hands_dealt for line in self.lines) + self.tournament_hands

    @property
    def hands_raked(self) -> int:
        return sum(line.hands_raked for line in self.lines)

    @property
    def rake(self) -> int:
        return sum(line.rake for line in self.lines)

    @property
    def rake_per_hand(self) -> int:
        return per_hand(self.rake, self.hands_dealt)

    @property
    def house_revenue(self) -> int:
        return self.rake + self.tournament_fees

    @property
    def rake_all_time(self) -> int:
        """Before + this month + since: equal to the audit's rake when the books agree."""
        return self.rake_before + self.rake + self.rake_since

    @property
    def rake_reconciles(self) -> bool:
        return self.rake_all_time == self.audit.held["rake"]

    @property
    def held_lines(self) -> list[tuple[str, int]]:
        return [(HELD_LABELS[name], value) for name, value in self.audit.held.items()]


def monthly_statement(*, month: date, now: datetime | None = None) -> MonthlyStatement:
    """The statement of the New York month that `month` falls in."""
    first_day = month.replace(day=1)
    last_day = month.replace(day=calendar.monthrange(month.year, month.month)[1])
    start, end = day_bounds(first_day, last_day)
    lines: dict[tuple[str, int, int], dict[str, int]] = {}

    def line(key: tuple[str, int, int]) -> dict[str, int]:
        return lines.setdefault(key, {"dealt": 0, "raked": 0, "rake": 0})

    takings = period_takings(first_day=first_day, last_day=last_day)
    ended: Any = (
        takings.cash_hands.values("table__game", "table__small_bet", "table__big_bet")
        .annotate(ended=Count("id"))
        .order_by()
    )
    for row in ended:
        key = (row["table__game"], row["table__small_bet"], row["table__big_bet"])
        line(key)["dealt"] += row["ended"]
    raked: Any = (
        takings.rake.values("table__game", "small_bet", "big_bet")
        .annotate(raked=Count("id"), rake=Sum("amount"))
        .order_by()
    )
    for row in raked:
        counts = line((row["table__game"], row["small_bet"], row["big_bet"]))
        counts["raked"] += row["raked"]
        counts["rake"] += row["rake"] or 0
    entries = RakeEntry.objects.order_by()
    before = entries.filter(hand__ended_at__lt=start).aggregate(rake=Sum("amount"))["rake"]
    since = entries.filter(hand__ended_at__gte=end).aggregate(rake=Sum("amount"))["rake"]
    return MonthlyStatement(
        first_day=first_day,
        last_day=last_day,
        lines=tuple(
            StatementLine(game, small, big, c["dealt"], c["raked"], c["rake"])
            for (game, small, big), c in sorted(lines.items(), key=lambda item: item[0])
        ),
        tournament_fees=takings.fees_kept,
        rake_before=before or 0,
        rake_since=since or 0,
        audit=room_chip_audit(),
        audited_at=timezone.now() if now is None else now,
        tournament_hands=takings.tournament_hands,
    )


# --- writers ----------------------------------------------------------------------------------

STATEMENT_COLUMNS = ("Game", "Stakes", *COLUMNS)  # then the rake report's own


def _line_values(line: StatementLine) -> list[Any]:
    return [
        line.game_label,
        line.stakes_label,
        line.hands_dealt,
        line.hands_raked,
        cents_to_dollars(line.rake),
        per_hand_dollars(line.rake, line.hands_dealt),
        Decimal("0.00"),
        cents_to_dollars(line.rake),
    ]


def _fees_values(statement: MonthlyStatement) -> list[Any]:
    fees = cents_to_dollars(statement.tournament_fees)
    hands = statement.tournament_hands
    return ["Tournaments", "", hands, 0, Decimal("0.00"), Decimal("0.00"), fees, fees]


def _total_values(statement: MonthlyStatement) -> list[Any]:
    return [
        "Total",
        "",
        statement.hands_dealt,
        statement.hands_raked,
        cents_to_dollars(statement.rake),
        per_hand_dollars(statement.rake, statement.hands_dealt),
        cents_to_dollars(statement.tournament_fees),
        cents_to_dollars(statement.house_revenue),
    ]


def _foot(statement: MonthlyStatement) -> list[tuple[str, Any]]:
    """The reconciliation under the table: label, value (money in dollars, or text)."""
    audit = statement.audit
    return [
        ("Chip audit at (New York time)", statement.audited_at.astimezone(room_zone())),
        ("Money put in (deposits - withdrawals + adjustments + play money)", audit.money_in),
        *statement.held_lines,
        ("Money held (the sum of the above)", audit.money_held),
        ("Chips conserved", "yes" if audit.conserved else f"NO: {len(audit.mismatches)}"),
        ("Rake before the month", statement.rake_before),
        ("Rake of the month", statement.rake),
        ("Rake since the month", statement.rake_since),
        ("Rake, all time (must equal the audit's)", statement.rake_all_time),
        ("Rake reconciles with the audit", "yes" if statement.rake_reconciles else "NO"),
    ]


def statement_filename(statement: MonthlyStatement, format: str) -> str:
    return f"statement-{statement.first_day:%Y-%m}.{format}"


def statement_csv(statement: MonthlyStatement) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(STATEMENT_COLUMNS)
    for line in statement.lines:
        writer.writerow(_line_values(line))
    writer.writerow(_fees_values(statement))
    writer.writerow(_total_values(statement))
    writer.writerow([])
    for label, value in _foot(statement):
        if isinstance(value, int):
            value = cents_to_dollars(value)
        elif isinstance(value, datetime):
            value = value.isoformat(timespec="seconds")
        writer.writerow([label, value])
    return buffer.getvalue()


def statement_xlsx(statement: MonthlyStatement) -> bytes:
    """Sheet "Statement": one row per game and stakes, the tournament fees, a totals row of
    SUM formulas; under it the chip audit and the reconciliation of the rake, and a line to
    sign."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Statement"
    sheet.append([f"Statement for {statement.month_label} (New York days)"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append(["From", statement.first_day, "To", statement.last_day])
    sheet["B2"].number_format = sheet["D2"].number_format = DATE_FORMAT
    sheet.append(list(STATEMENT_COLUMNS))
    for cell in sheet[3]:
        cell.font = Font(bold=True)
    for line in statement.lines:
        sheet.append(_line_values(line))
    sheet.append(_fees_values(statement))
    first, last = 4, 3 + len(statement.lines) + 1
    total = last + 1

    def total_of(column: str) -> str:
        return f"=SUM({column}{first}:{column}{last})"

    sheet.append(
        [
            "Total",
            "",
            total_of("C"),
            total_of("D"),
            total_of("E"),
            f"=IF(C{total}>0,ROUND(E{total}/C{total},2),0)",
            total_of("G"),
            total_of("H"),
        ]
    )
    for cell in sheet[total]:
        cell.font = Font(bold=True)
    for number in range(first, total + 1):
        for column in "EFGH":
            sheet[f"{column}{number}"].number_format = MONEY_FORMAT
    sheet.append([])
    sheet.append(["Reconciliation with the ledger"])
    sheet.cell(row=sheet.max_row, column=1).font = Font(bold=True)
    for label, value in _foot(statement):
        if isinstance(value, int):
            sheet.append([label, cents_to_dollars(value)])
            sheet.cell(row=sheet.max_row, column=2).number_format = MONEY_FORMAT
        elif isinstance(value, datetime):
            sheet.append([label, value.replace(tzinfo=None)])
            sheet.cell(row=sheet.max_row, column=2).number_format = "yyyy-mm-dd hh:mm"
        else:
            sheet.append([label, value])
    sheet.append([])
    sheet.append(["Signed off by", "", "Date", ""])
    sheet.column_dimensions["A"].width = 44
    for column in "BCDEFGH":
        sheet.column_dimensions[column].width = 16
    buffer = io.BytesIO()
    workbook.save(buffer)
    totals = _total_values(statement)[2:]
    return formula_values_store(
        buffer.getvalue(),
        {f"{column}{total}": value for column, value in zip("CDEFGH", totals, strict=True)},
    )
