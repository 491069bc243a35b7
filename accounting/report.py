"""The rake report for accounting (R-RAKE-2): the house's takings in a range of New York days,
grouped by day, table, stakes, game or rake schedule, with totals; written as CSV or XLSX, and
mailed daily to settings.ACCOUNTING_EMAIL.

Each row counts the hands dealt (every tables.Hand that ended in the period), the hands raked
(those with a RakeEntry), the rake, the rake per hand dealt, the tournament fees (ledger lines of
kind "tournament_fee", written by tournaments with reference "tournament:<id>") and the house's
revenue, rake plus fees. A hand belongs to the New York day on which it ended (the moment its
rake was taken); a fee to the New York day of its ledger line. Fees belong to no table: by day
they sit on their day's row, otherwise on a row of their own, "Tournaments", with the hands
dealt at tournament tables (never under a cash stake: their limits are chips).

Rake by stakes goes by the stakes recorded with the rake (RakeEntry), hands dealt by the
table's stakes and game.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal, get_args

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import TruncDate

from accounting.selectors import period_takings
from accounting.xlsx_values import formula_values_store
from accounts.money import cents_format, cents_to_dollars
from pokerroom.room_day import room_day, room_zone
from stud.variant import VARIANTS

GroupBy = Literal["day", "table", "stakes", "game", "schedule"]
GROUP_BY_CHOICES: tuple[str, ...] = get_args(GroupBy)
Format = Literal["csv", "xlsx"]
FORMATS: tuple[str, ...] = get_args(Format)

GAME_LABELS = {variant.game.value: variant.name for variant in VARIANTS.values()}
TOURNAMENT_FEES_KEY = "tournaments"
NO_SCHEDULE = "(no schedule)"


@dataclass(frozen=True)
class RakeRow:
    key: str  # machine key: "2025-01-31", table id, "100/200", "stud", schedule id or ""
    label: str  # what a person reads: the day, the table's name, "$1.00/$2.00", the game
    hands_dealt: int
    hands_raked: int
    rake: int  # cents
    tournament_fees: int = 0  # cents, the house's
    day: date | None = None  # grouped by day: the day itself

    @property
    def rake_per_hand(self) -> int:
        """Rake per hand dealt, in whole cents (0 with no hand)."""
        return per_hand(self.rake, self.hands_dealt)

    @property
    def house_revenue(self) -> int:
        return self.rake + self.tournament_fees


def per_hand(rake: int, hands: int) -> int:
    """Rake per hand dealt, in whole cents (half a cent rounds up; 0 with no hand)."""
    if not hands:
        return 0
    return int((Decimal(rake) / hands).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def per_hand_dollars(rake: int, hands: int) -> Decimal:
    """Rake per hand in dollars, to the cent: what the screen, the CSV and the XLSX show."""
    return cents_to_dollars(per_hand(rake, hands))


@dataclass(frozen=True)
class RakeReport:
    first_day: date
    last_day: date
    group_by: GroupBy
    rows: tuple[RakeRow, ...]

    @property
    def hands_dealt(self) -> int:
        return sum(row.hands_dealt for row in self.rows)

    @property
    def hands_raked(self) -> int:
        return sum(row.hands_raked for row in self.rows)

    @property
    def rake(self) -> int:
        return sum(row.rake for row in self.rows)

    @property
    def tournament_fees(self) -> int:
        return sum(row.tournament_fees for row in self.rows)

    @property
    def house_revenue(self) -> int:
        return self.rake + self.tournament_fees

    @property
    def rake_per_hand(self) -> int:
        return per_hand(self.rake, self.hands_dealt)

    @property
    def group_label(self) -> str:
        return self.group_by.capitalize()


def month_to_date(now: datetime | None = None) -> tuple[date, date]:
    """The first of the current New York month and today (the report's default period)."""
    today = room_day(now)
    return today.replace(day=1), today


def room_yesterday(now: datetime | None = None) -> date:
    return room_day(now) - timedelta(days=1)


def _stakes_label(small_bet: int, big_bet: int) -> str:
    return f"{cents_format(small_bet)}/{cents_format(big_bet)}"


@dataclass
class _Group:
    """One row as it is gathered: its sort key, label and counts."""

    sort: tuple[Any, ...]
    label: str
    day: date | None = None
    counts: dict[str, int] = field(
        default_factory=lambda: {"hands_dealt": 0, "hands_raked": 0, "rake": 0, "fees": 0}
    )


# For each grouping: the fields of Hand and of RakeEntry that name a row, and how a row's
# values become its key, sort order and label.
_HAND_FIELDS: dict[str, tuple[str, ...]] = {
    "table": ("table_id", "table__name"),
    "stakes": ("table__small_bet", "table__big_bet"),
    "game": ("table__game",),
    "schedule": ("table__rake_schedule_id", "table__rake_schedule__name"),
}
_RAKE_FIELDS: dict[str, tuple[str, ...]] = {
    "table": ("table_id", "table__name"),
    "stakes": ("small_bet", "big_bet"),
    "game": ("table__game",),
    "schedule": ("schedule_id", "schedule__name"),
}


def _group_of(group_by: str, values: tuple[Any, ...]) -> tuple[str, tuple[Any, ...], str]:
    """(key, sort, label) of a row from the values of its grouping fields."""
    if group_by == "day":
        (day,) = values
        return day.isoformat(), (day,), day.isoformat()
    if group_by == "table":
        table_id, name = values
        return str(table_id), (name, table_id), name
    if group_by == "stakes":
        small, big = values
        return f"{small}/{big}", (small, big), _stakes_label(small, big)
    if group_by == "game":
        (game,) = values
        return game, (game,), GAME_LABELS.get(game, game)
    schedule_id, name = values
    key = "" if schedule_id is None else str(schedule_id)
    return key, (name is None, name or ""), name or NO_SCHEDULE


def _grouped(
    queryset: QuerySet[Any], group_by: str, fields: tuple[str, ...], day_field: str, **sums: Any
) -> Iterable[tuple[tuple[Any, ...], dict[str, Any]]]:
    if group_by == "day":
        queryset = queryset.annotate(day=TruncDate(day_field, tzinfo=room_zone()))
        fields = ("day",)
    for row in queryset.values(*fields).annotate(**sums).order_by():
        yield tuple(row[name] for name in fields), row


def rake_report(*, first_day: date, last_day: date, group_by: GroupBy = "day") -> RakeReport:
    """Hands, rake and tournament fees of New York days first_day..last_day (included)."""
    if group_by not in GROUP_BY_CHOICES:
        raise ValueError(f"group_by must be one of {', '.join(GROUP_BY_CHOICES)}")
    if last_day < first_day:
        raise ValueError("the last day comes before the first")
    groups: dict[str, _Group] = {}

    def group(values: tuple[Any, ...]) -> _Group:
        key, sort, label = _group_of(group_by, values)
        if key not in groups:
            groups[key] = _Group(sort, label, values[0] if group_by == "day" else None)
        return groups[key]

    takings = period_takings(first_day=first_day, last_day=last_day)
    hands = takings.hands
    tournament_hands = 0
    if group_by != "day":  # a tournament table's hands are the Tournaments row's
        tournament_hands = takings.tournament_hands
        hands = takings.cash_hands
    for values, row in _grouped(
        hands, group_by, _HAND_FIELDS.get(group_by, ()), "ended_at", ended=Count("id")
    ):
        group(values).counts["hands_dealt"] += row["ended"]
    for values, row in _grouped(
        takings.rake,
        group_by,
        _RAKE_FIELDS.get(group_by, ()),
        "hand__ended_at",
        raked=Count("id"),
        rake=Sum("amount"),
    ):
        counts = group(values).counts
        counts["hands_raked"] += row["raked"]
        counts["rake"] += row["rake"] or 0
    if group_by == "day":
        fees = takings.fee_lines
        for values, row in _grouped(fees, "day", (), "created_at", paid=Sum("amount")):
            group(values).counts["fees"] += -(row["paid"] or 0)
    else:
        paid = takings.fees_kept
        if paid or tournament_hands:
            groups[TOURNAMENT_FEES_KEY] = _Group(
                (),
                "Tournaments",
                counts={"fees": paid, "hands_dealt": tournament_hands},
            )
    ordered = sorted(
        groups.items(), key=lambda item: (item[0] == TOURNAMENT_FEES_KEY, item[1].sort)
    )
    rows = tuple(
        RakeRow(
            key=key,
            label=g.label,
            hands_dealt=g.counts.get("hands_dealt", 0),
            hands_raked=g.counts.get("hands_raked", 0),
            rake=g.counts.get("rake", 0),
            tournament_fees=g.counts.get("fees", 0),
            day=g.day,
        )
        for key, g in ordered
    )
    return RakeReport(first_day, last_day, group_by, rows)


# --- the charts -------------------------------------------------------------------------------

# The report page draws at most this many days in its chart of rake per day.
CHART_MAX_DAYS = 400


def report_chart(*, first_day: date, last_day: date) -> dict[str, Any]:
    """The page's charts, as data for static/js/rake_report.js (a json_script block): rake
    and tournament fees per day (every day of the period, zero where nothing was taken, when
    the period has CHART_MAX_DAYS days at most), rake per stakes and per game. In dollars."""
    by_day = {row.day: row for row in rake_report(first_day=first_day, last_day=last_day).rows}
    days: list[date] = []
    if (last_day - first_day).days < CHART_MAX_DAYS:
        days = [first_day + timedelta(days=n) for n in range((last_day - first_day).days + 1)]
    else:
        days = sorted(day for day in by_day if day is not None)

    def dollars(cents: int) -> float:
        return float(cents_to_dollars(cents))

    def series(group_by: GroupBy) -> dict[str, list[Any]]:
        report = rake_report(first_day=first_day, last_day=last_day, group_by=group_by)
        rows = [row for row in report.rows if row.key != TOURNAMENT_FEES_KEY]
        return {
            "labels": [row.label for row in rows],
            "rake": [dollars(row.rake) for row in rows],
            "hands": [row.hands_dealt for row in rows],
        }

    empty = RakeRow("", "", 0, 0, 0)
    return {
        "days": {
            "labels": [day.isoformat() for day in days],
            "rake": [dollars(by_day.get(day, empty).rake) for day in days],
            "fees": [dollars(by_day.get(day, empty).tournament_fees) for day in days],
        },
        "stakes": series("stakes"),
        "games": series("game"),
    }


# --- writers ----------------------------------------------------------------------------------

COLUMNS = (
    "Hands dealt",
    "Hands raked",
    "Rake",
    "Rake per hand",
    "Tournament fees",
    "House revenue",
)
MONEY_FORMAT = "$#,##0.00"
DATE_FORMAT = "yyyy-mm-dd"


def report_header(report: RakeReport) -> list[str]:
    """The columns of the screen, of the CSV and of the XLSX."""
    return [report.group_label, *COLUMNS]


def _row_values(row: RakeRow) -> list[Any]:
    return [
        row.day if row.day is not None else row.label,
        row.hands_dealt,
        row.hands_raked,
        cents_to_dollars(row.rake),
        per_hand_dollars(row.rake, row.hands_dealt),
        cents_to_dollars(row.tournament_fees),
        cents_to_dollars(row.house_revenue),
    ]


def _total_values(report: RakeReport) -> list[Any]:
    return [
        "Total",
        report.hands_dealt,
        report.hands_raked,
        cents_to_dollars(report.rake),
        per_hand_dollars(report.rake, report.hands_dealt),
        cents_to_dollars(report.tournament_fees),
        cents_to_dollars(report.house_revenue),
    ]


def report_csv(report: RakeReport) -> str:
    """Dates as 2025-03-14, counts as integers, money as dollars with two decimals (12.50)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(report_header(report))
    for row in report.rows:
        writer.writerow(_row_values(row))
    writer.writerow(_total_values(report))
    return buffer.getvalue()


# Column letters of the XLSX: the group, then COLUMNS in order.
_HANDS_DEALT, _HANDS_RAKED, _RAKE, _PER_HAND, _FEES, _REVENUE = "BCDEFG"


def report_xlsx(report: RakeReport) -> bytes:
    """One sheet, "Rake": the screen's columns; dates as date cells, counts as numbers, money
    as dollars in '$#,##0.00', and a totals row of formulas (SUM; rake per hand divides) with
    their values stored too (read by openpyxl's data_only and pandas)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Rake"
    sheet.append(report_header(report))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in report.rows:
        sheet.append(_row_values(row))
    first, last = 2, 1 + len(report.rows)
    total = last + 1
    if report.rows:
        per_hand_formula = (
            f"=IF({_HANDS_DEALT}{total}>0,ROUND({_RAKE}{total}/{_HANDS_DEALT}{total},2),0)"
        )
        sheet.append(
            [
                "Total",
                *(
                    f"=SUM({column}{first}:{column}{last})"
                    for column in (_HANDS_DEALT, _HANDS_RAKED, _RAKE)
                ),
                per_hand_formula,
                *(f"=SUM({column}{first}:{column}{last})" for column in (_FEES, _REVENUE)),
            ]
        )
    else:
        sheet.append(_total_values(report))
    for cell in sheet[total]:
        cell.font = Font(bold=True)
    for number in range(first, total + 1):
        if report.group_by == "day" and number < total:
            sheet[f"A{number}"].number_format = DATE_FORMAT
        for column in (_RAKE, _PER_HAND, _FEES, _REVENUE):
            sheet[f"{column}{number}"].number_format = MONEY_FORMAT
    sheet.column_dimensions["A"].width = 24
    for column in "BCDEFG":
        sheet.column_dimensions[column].width = 16
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    if not report.rows:
        return buffer.getvalue()
    totals = _total_values(report)[1:]
    return formula_values_store(
        buffer.getvalue(),
        {f"{column}{total}": value for column, value in zip("BCDEFG", totals, strict=True)},
    )


def report_filename(report: RakeReport, format: Format) -> str:
    return f"rake-{report.first_day}-{report.last_day}-by-{report.group_by}.{format}"


def report_bytes(report: RakeReport, format: Format) -> bytes:
    return report_csv(report).encode() if format == "csv" else report_xlsx(report)


CONTENT_TYPES = {
    "csv": "text/csv",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


# --- the daily mail ---------------------------------------------------------------------------


def mail_rake_report(*, day: date, to: str) -> None:
    """One day's report by table, as XLSX (and the same as CSV), to accounting."""
    report = rake_report(first_day=day, last_day=day, group_by="table")
    message = EmailMessage(
        subject=f"Rake report {day}: {cents_format(report.rake)} from "
        f"{report.hands_dealt} hand(s) dealt",
        body=(
            f"Rake taken on {day} (New York day), by table.\n"
            f"Hands dealt: {report.hands_dealt}; hands raked: {report.hands_raked}.\n"
            f"Rake: {cents_format(report.rake)}; tournament fees: "
            f"{cents_format(report.tournament_fees)}; house revenue: "
            f"{cents_format(report.house_revenue)}.\n"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
    )
    message.attach(report_filename(report, "xlsx"), report_xlsx(report), CONTENT_TYPES["xlsx"])
    message.attach(report_filename(report, "csv"), report_csv(report), "text/csv")
    message.send()


def mail_rake_report_for_yesterday(now: datetime | None = None) -> str:
    """The beat job: "skipped" when no ACCOUNTING_EMAIL is set, else "sent"."""
    to = getattr(settings, "ACCOUNTING_EMAIL", "")
    if not to:
        return "skipped"
    mail_rake_report(day=room_yesterday(now), to=to)
    return "sent"
