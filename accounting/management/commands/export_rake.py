"""`manage.py export_rake --from 2025-01-01 --to 2025-01-31 --group-by day --format csv`:
the rake report (R-RAKE-2) for New York days, to stdout or to --output, with the columns of
the staff page (hands dealt, hands raked, rake, rake per hand, tournament fees, house
revenue) and a totals row (formulas in the XLSX)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounting.report import FORMATS, GROUP_BY_CHOICES, rake_report, report_bytes, room_yesterday


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f"{text!r} is not a date like 2025-01-31") from error


class Command(BaseCommand):
    help = "Export the rake report for a range of New York days as CSV or XLSX."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="first", help="First day (default: yesterday)")
        parser.add_argument("--to", dest="last", help="Last day, included (default: --from)")
        parser.add_argument("--group-by", default="day", choices=GROUP_BY_CHOICES)
        parser.add_argument("--format", default="csv", choices=FORMATS)
        parser.add_argument("--output", help="File to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        first = _day(options["first"]) if options["first"] else room_yesterday()
        last = _day(options["last"]) if options["last"] else first
        if last < first:
            raise CommandError("--to comes before --from")
        report = rake_report(first_day=first, last_day=last, group_by=options["group_by"])
        data = report_bytes(report, options["format"])
        if options["output"]:
            Path(options["output"]).write_bytes(data)
        elif options["format"] == "csv":
            self.stdout.write(data.decode(), ending="")
        else:
            if sys.stdout.isatty():
                raise CommandError("XLSX is binary: give --output FILE")
            sys.stdout.buffer.write(data)
