"""Staff: the rake report (R-RAKE-2) on screen with totals, and as CSV or XLSX."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounting.forms import RakeReportForm
from accounting.report import (
    CONTENT_TYPES,
    FORMATS,
    Format,
    rake_report,
    report_bytes,
    report_filename,
    room_yesterday,
)


@staff_member_required
@require_GET
def rake_report_page(request: HttpRequest) -> HttpResponse:
    yesterday = room_yesterday()
    form = RakeReportForm(
        request.GET
        or {
            "first_day": yesterday.isoformat(),
            "last_day": yesterday.isoformat(),
            "group_by": "day",
        }
    )
    report = None
    if form.is_valid():
        report = rake_report(
            first_day=form.cleaned_data["first_day"],
            last_day=form.cleaned_data["last_day"],
            group_by=form.cleaned_data["group_by"],
        )
        download = request.GET.get("format")
        if download in FORMATS:
            download = cast(Format, download)
            response = HttpResponse(
                report_bytes(report, download), content_type=CONTENT_TYPES[download]
            )
            response["Content-Disposition"] = (
                f'attachment; filename="{report_filename(report, download)}"'
            )
            return response
    query = urlencode({key: value for key, value in form.data.items() if key != "format"})
    return render(
        request, "accounting/rake_report.html", {"form": form, "report": report, "query": query}
    )
