"""Staff: the rake report (R-RAKE-2) on screen with its charts and totals, as CSV or XLSX;
the monthly statement per game and stakes, reconciled with the chip audit."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounting.access import accountant_required
from accounting.forms import RakeReportForm, StatementForm
from accounting.report import (
    CONTENT_TYPES,
    FORMATS,
    Format,
    month_to_date,
    rake_report,
    report_bytes,
    report_chart,
    report_filename,
    report_header,
)
from accounting.statement import (
    monthly_statement,
    statement_csv,
    statement_filename,
    statement_xlsx,
)


def _download(data: bytes | str, format: Format, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type=CONTENT_TYPES[format])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _requested_format(request: HttpRequest) -> Format | None:
    download = request.GET.get("format")
    return cast(Format, download) if download in FORMATS else None


@accountant_required
@require_GET
def rake_report_page(request: HttpRequest) -> HttpResponse:
    """Opens on the New York month to date, grouped by day."""
    first, last = month_to_date()
    defaults = {"first_day": first.isoformat(), "last_day": last.isoformat(), "group_by": "day"}
    form = RakeReportForm({**defaults, **request.GET.dict()})
    report = chart = None
    if form.is_valid():
        days = {
            "first_day": form.cleaned_data["first_day"],
            "last_day": form.cleaned_data["last_day"],
        }
        report = rake_report(**days, group_by=form.cleaned_data["group_by"])
        download = _requested_format(request)
        if download is not None:
            return _download(
                report_bytes(report, download), download, report_filename(report, download)
            )
        chart = report_chart(**days)
    query = urlencode({key: value for key, value in form.data.items() if key != "format"})
    return render(
        request,
        "accounting/rake_report.html",
        {
            "form": form,
            "report": report,
            "header": report_header(report) if report else [],
            "chart": chart,
            "query": query,
        },
    )


@accountant_required
@require_GET
def statement_page(request: HttpRequest) -> HttpResponse:
    """A New York month (by default the current one) per game and stakes."""
    default_month = month_to_date()[0].strftime("%Y-%m")
    form = StatementForm({"month": request.GET.get("month") or default_month})
    statement = None
    if form.is_valid():
        statement = monthly_statement(month=form.cleaned_data["month"])
        download = _requested_format(request)
        if download == "csv":
            return _download(statement_csv(statement), "csv", statement_filename(statement, "csv"))
        if download == "xlsx":
            return _download(
                statement_xlsx(statement), "xlsx", statement_filename(statement, "xlsx")
            )
    query = urlencode({"month": form.data["month"]})
    return render(
        request,
        "accounting/statement.html",
        {"form": form, "statement": statement, "query": query},
    )
