"""The rake report for accounting (R-RAKE-2): every RakeEntry in a range of New York days,
grouped by day, table, stakes or schedule, with totals; written as CSV or XLSX, and mailed
daily to settings.ACCOUNTING_EMAIL.

A hand belongs to the New York day on which it ended (the moment its rake was taken).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal, get_args

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Count, Sum
from django.db.models.functions import TruncDate

from accounts.money import cents_format
from pokerroom.room_day import day_bounds, room_day, room_zone
from tables.models import RakeEntry

GroupBy = Literal["day", "table", "stakes", "schedule"]
GROUP_BY_CHOICES: tuple[str, ...] = get_args(GroupBy)
Format = Literal["csv", "xlsx"]
FORMATS: tuple[str, ...] = get_args(Format)


@dataclass(frozen=True)
class RakeRow:
    key: str  # machine key: "2025-01-31", table id, "100/200", schedule id or ""
    label: str  # what a person reads: the day, the table's name, "$1/$2", the schedule
    hands: int
    rake: int  # cents


@dataclass(frozen=True)
class RakeReport:
    first_day: date
    last_day: date
    group_by: GroupBy
    rows: tuple[RakeRow, ...]

    @property
    def hands(self) -> int:
        return sum(row.hands for row in self.rows)

    @property
    def rake(self) -> int:
        return sum(row.rake for row in self.rows)


def _stakes_label(small_bet: int, big_bet: int) -> str:
    return f"{cents_format(small_bet)}/{cents_format(big_bet)}"


def rake_report(*, first_day: date, last_day: date, group_by: GroupBy = "day") -> RakeReport:
    """Rake taken from hands that ended on New York days first_day..last_day (included)."""
    if group_by not in GROUP_BY_CHOICES:
        raise ValueError(f"group_by must be one of {', '.join(GROUP_BY_CHOICES)}")
    if last_day < first_day:
        raise ValueError("the last day comes before the first")
    start, end = day_bounds(first_day, last_day)
    entries = RakeEntry.objects.filter(hand__ended_at__gte=start, hand__ended_at__lt=end).order_by()
    rows: list[RakeRow] = []
    if group_by == "day":
        by_day = (
            entries.annotate(day=TruncDate("hand__ended_at", tzinfo=room_zone()))
            .values("day")
            .annotate(hands=Count("id"), rake=Sum("amount"))
            .order_by("day")
        )
        rows = [
            RakeRow(str(row["day"]), str(row["day"]), row["hands"], row["rake"] or 0)
            for row in by_day
        ]
    elif group_by == "table":
        by_table = (
            entries.values("table_id", "table__name")
            .annotate(hands=Count("id"), rake=Sum("amount"))
            .order_by("table__name")
        )
        rows = [
            RakeRow(str(row["table_id"]), row["table__name"], row["hands"], row["rake"] or 0)
            for row in by_table
        ]
    elif group_by == "stakes":
        by_stakes = (
            entries.values("small_bet", "big_bet")
            .annotate(hands=Count("id"), rake=Sum("amount"))
            .order_by("small_bet", "big_bet")
        )
        rows = [
            RakeRow(
                f"{row['small_bet']}/{row['big_bet']}",
                _stakes_label(row["small_bet"], row["big_bet"]),
                row["hands"],
                row["rake"] or 0,
            )
            for row in by_stakes
        ]
    else:
        by_schedule = (
            entries.values("schedule_id", "schedule__name")
            .annotate(hands=Count("id"), rake=Sum("amount"))
            .order_by("schedule__name")
        )
        rows = [
            RakeRow(
                "" if row["schedule_id"] is None else str(row["schedule_id"]),
                row["schedule__name"] or "(no schedule)",
                row["hands"],
                row["rake"] or 0,
            )
            for row in by_schedule
        ]
    return RakeReport(first_day, last_day, group_by, tuple(rows))


def room_yesterday(now: datetime | None = None) -> date:
    return room_day(now) - timedelta(days=1)


# --- writers ----------------------------------------------------------------------------------

HEADER = ["group_by", "key", "label", "hands", "rake_cents", "rake"]


def _table_rows(report: RakeReport) -> list[list[str | int]]:
    rows: list[list[str | int]] = [
        [report.group_by, row.key, row.label, row.hands, row.rake, cents_format(row.rake)]
        for row in report.rows
    ]
    rows.append(
        [
            "total",
            f"{report.first_day}..{report.last_day}",
            "Total",
            report.hands,
            report.rake,
            cents_format(report.rake),
        ]
    )
    return rows


def report_csv(report: RakeReport) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(_table_rows(report))
    return buffer.getvalue()


def report_xlsx(report: RakeReport) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Rake"
    sheet.append(HEADER)
    for row in _table_rows(report):
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


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
    """One day's report by table, as CSV, to accounting."""
    report = rake_report(first_day=day, last_day=day, group_by="table")
    message = EmailMessage(
        subject=f"Rake report {day}: {cents_format(report.rake)} from {report.hands} hand(s)",
        body=(
            f"Rake taken on {day} (New York day), by table.\n"
            f"Total: {cents_format(report.rake)} from {report.hands} hand(s).\n"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
    )
    message.attach(report_filename(report, "csv"), report_csv(report), "text/csv")
    message.send()


def mail_rake_report_for_yesterday(now: datetime | None = None) -> str:
    """The beat job: "skipped" when no ACCOUNTING_EMAIL is set, else "sent"."""
    to = getattr(settings, "ACCOUNTING_EMAIL", "")
    if not to:
        return "skipped"
    mail_rake_report(day=room_yesterday(now), to=to)
    return "sent"
