"""Staff: the room's dashboard (issue #16), a page and the JSON it polls. Thin: the figures
are accounting.dashboard's."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounting.dashboard import room_dashboard

# How often the page asks for fresh figures.
POLL_SECONDS = 5


@staff_member_required
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
    """The figures as JSON; 403 for anyone but active staff (a script polls it: no login
    redirect)."""
    if not (request.user.is_authenticated and request.user.is_active and request.user.is_staff):
        return JsonResponse({"error": "Staff only."}, status=403)
    return JsonResponse(room_dashboard())
