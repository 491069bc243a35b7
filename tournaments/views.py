"""The tournament pages: the lobby's Tournaments tab, a tournament's page, its results, the
"tournament clock" for a television, and the player's register / unregister / add-on forms.
Thin: selectors to read, tmoney's services (tournaments.services.entries) to change; the pages
stay live over WebSocket (tournaments/realtime.py, docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services import entries
from tournaments.services.refusals import TournamentRefused

# How often the pages ask for fresh figures when their socket is down, in milliseconds.
REFRESH_MS = 5000


def _tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def _viewer_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    # Who is looking, for the Register column: a visitor is asked to log in first.
    viewer = {
        "logged_in": request.user.is_authenticated,
        "registered": selectors.registered_tournament_ids(_viewer_id(request)),
        "login_url": f"{reverse('login')}?next={reverse('tournament_lobby')}",
        "back": reverse("tournament_lobby"),
    }
    return render(
        request,
        "tournaments/lobby.html",
        {"tournaments": selectors.lobby_rows(), "refresh_ms": REFRESH_MS, "viewer": viewer},
    )


@require_GET
def lobby_data(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"tournaments": selectors.lobby_rows()})


def _page(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    tournament = _tournament(tournament_id)
    snapshot = selectors.tournament_snapshot(tournament, viewer_id=_viewer_id(request))
    page = {
        "tournament_id": tournament.pk,
        "player_id": _viewer_id(request),
        "tournament": snapshot,
        "refresh_ms": REFRESH_MS,
    }
    return {"t": snapshot, "page": page}


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "tournaments/tournament.html", _page(request, tournament_id))


@require_GET
def results(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "tournaments/results.html", _page(request, tournament_id))


@require_GET
def clock(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "tournaments/clock.html", _page(request, tournament_id))


@require_GET
def tournament_data(request: HttpRequest, tournament_id: int) -> JsonResponse:
    tournament = _tournament(tournament_id)
    return JsonResponse(
        {"tournament": selectors.tournament_snapshot(tournament, viewer_id=_viewer_id(request))}
    )


def _back(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    """Back to the page the form was on (a tournament table's page, or the tournament's)."""
    target = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("tournament", args=[tournament_id])
    return HttpResponseRedirect(target or reverse("tournament", args=[tournament_id]))


EntryService = Callable[..., object]


def _entry_action(
    request: HttpRequest, tournament_id: int, service: EntryService, done: str
) -> HttpResponseRedirect:
    """Call one of tmoney's entry services for the session's player; a refusal is shown as
    the page's message, and nothing changed."""
    _tournament(tournament_id)
    try:
        service(tournament_id=tournament_id, player=request.user, now=timezone.now())
    except TournamentRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, done)
    return _back(request, tournament_id)


@require_POST
@login_required
def register(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _entry_action(request, tournament_id, entries.tournament_register, "You are registered.")


@require_POST
@login_required
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _entry_action(
        request,
        tournament_id,
        entries.tournament_unregister,
        "You are unregistered; the buy-in is back in your wallet.",
    )


@require_POST
@login_required
def add_on(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _entry_action(request, tournament_id, entries.tournament_add_on, "Add-on bought.")
