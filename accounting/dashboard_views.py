"""Staff: the room's dashboard (issue #16), a page and the JSON it polls. Thin: the figures
are accounting.dashboard's."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounting.access import accountant_required, is_accountant
from accounting.dashboard import room_dashboard

# How often the page asks for fresh figures.
POLL_SECONDS = 5


@accountant_required
@require_GET
def staff_dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounting/dashboard.html",
        {"figures": room_dashboard(), "poll_ms": POLL_SECONDS * 1000},
    )


@never_cache
@require_GET
def staff_dashboard_data(request: HttpRequest) -> HttpResponse:
    """The figures as JSON; 403 for anyone but an accountant (active staff with the
    permission; a script polls it: no login redirect)."""
    if not is_accountant(request.user):
        return JsonResponse({"error": "Accountants only."}, status=403)
    return JsonResponse(room_dashboard())
