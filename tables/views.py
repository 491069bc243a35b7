"""The browser room's pages: the lobby and a table. Thin: they call selectors and render;
the table itself lives on the WebSocket (docs/protocol.md), drawn by static/js/table.js."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tables import selectors

# How often the lobby page asks for fresh figures, in milliseconds.
LOBBY_REFRESH_MS = 3000


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tables/lobby.html",
        {"tables": selectors.lobby_rows(), "refresh_ms": LOBBY_REFRESH_MS},
    )


@require_GET
def lobby_data(request: HttpRequest) -> JsonResponse:
    """The lobby's rows as JSON, polled by static/js/lobby.js."""
    return JsonResponse({"tables": selectors.lobby_rows()})


@require_GET
def table_preview(request: HttpRequest, table_id: int) -> JsonResponse:
    """The lobby's preview of a table on hover or tap: public facts only."""
    preview = selectors.table_preview(table_id)
    if preview is None:
        raise Http404("No such table")
    return JsonResponse(preview)


@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    snapshot = selectors.table_snapshot(table_id, None)
    if snapshot is None:
        raise Http404("No such table")
    user = request.user
    player = user if user.is_authenticated else None
    page = {
        "table_id": table_id,
        "table": snapshot["table"],
        "player_id": None if player is None else player.pk,
        "name": None if player is None else player.table_name,
        "balance": None if player is None else player.balance,
        "four_colour_deck": bool(player is not None and player.four_colour_deck),
        # A tournament's table: chips, not dollars; its clock comes over the tournament's
        # socket (static/js/tournament/table_panel.js).
        "is_tournament": bool(snapshot["table"]["is_tournament"]),
        "confirm_free_fold": bool(player is None or player.confirm_free_fold),
    }
    return render(request, "tables/table.html", {"table": snapshot["table"], "page": page})


@require_GET
def balance(request: HttpRequest) -> JsonResponse:
    """The player's wallet balance in cents, for the buy-in dialog's limit."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "login_required"}, status=403)
    request.user.refresh_from_db(fields=["balance"])
    return JsonResponse({"balance": request.user.balance})
