"""The hand-history pages of a player (R-HIST-1..3): the list with filters, a hand, its
downloads (PokerStars text, JSON, a zip of a date range) and "Email me these hands".

Thin: forms validate, histories.selectors reads (only hands the player was dealt into,
with the cards R-HIST-2 lets them see), histories.services writes.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.http import PlayerRequest
from histories.forms import HandFilterForm, HandsEmailForm
from histories.player_data import player_data_zip
from histories.selectors import (
    PlayedHand,
    email_requests,
    fairness,
    hand_filename,
    hand_json,
    hand_phh,
    hand_text,
    hands_zip,
    played_hand,
    played_hands,
)
from histories.services import history_email_request
from integrity.chain_selectors import hand_chain_path
from tables.selectors import hand_replay

HANDS_PER_PAGE = 50
MAX_HANDS_PER_ZIP = 5000


def _played_or_404(request: PlayerRequest, hand_id: int) -> PlayedHand:
    played = played_hand(hand_id=hand_id, player_id=request.user.pk)
    if played is None:
        raise Http404("No hand of yours with that number.")
    return played


@login_required
@require_GET
def hand_list(request: PlayerRequest) -> HttpResponse:
    form = HandFilterForm(request.GET or None)
    filters = form.filters() if form.is_bound and form.is_valid() else {}
    hands = played_hands(player_id=request.user.pk, **filters) if not form.errors else []
    page = Paginator(hands, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "histories/hand_list.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "email_requests": email_requests(player_id=request.user.pk),
        },
    )


@login_required
@require_GET
def hand_detail(request: PlayerRequest, hand_id: int) -> HttpResponse:
    played = _played_or_404(request, hand_id)
    return render(
        request,
        "histories/hand_detail.html",
        {
            "played": played,
            "hand": played.hand,
            "text": hand_text(played),
            "fairness": fairness(played),
            "replay_history": hand_replay(played.hand.pk, request.user),
            "chain_path": hand_chain_path(hand_id=played.hand.pk),
        },
    )


@staff_member_required
@require_GET
def hand_detail_for_staff(request: PlayerRequest, hand_id: int, player_id: int) -> HttpResponse:
    """Player support (issue #16): a hand's history as one of its players sees it (R-HIST-2:
    their own down cards, others' only where shown), for staff answering that player."""
    played = played_hand(hand_id=hand_id, player_id=player_id)
    if played is None:
        raise Http404("That player was not dealt into that hand.")
    return render(
        request,
        "histories/hand_detail_staff.html",
        {
            "played": played,
            "played_player_id": player_id,
            "hand": played.hand,
            "text": hand_text(played),
        },
    )


@login_required
@require_GET
def hand_download_text(request: PlayerRequest, hand_id: int) -> HttpResponse:
    played = _played_or_404(request, hand_id)
    response = HttpResponse(hand_text(played), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{hand_filename(played)}"'
    return response


@login_required
@require_GET
def hand_download_json(request: PlayerRequest, hand_id: int) -> HttpResponse:
    played = _played_or_404(request, hand_id)
    response = HttpResponse(
        json.dumps(hand_json(played), indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="hand-{played.hand.pk}.json"'
    return response


@login_required
@require_GET
def hand_download_phh(request: PlayerRequest, hand_id: int) -> HttpResponse:
    """The hand as PHH (uoftcprg/phh-std), the open format PokerKit and trackers read."""
    played = _played_or_404(request, hand_id)
    response = HttpResponse(hand_phh(played), content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="hand-{played.hand.pk}.phh"'
    return response


@login_required
@require_GET
def hands_download_zip(request: PlayerRequest) -> HttpResponse:
    """The hands the list's filters choose (a date range, a table...), one file each."""
    form = HandFilterForm(request.GET)
    if not form.is_valid():
        return HttpResponseBadRequest("Choose valid days.")
    hands = played_hands(player_id=request.user.pk, limit=MAX_HANDS_PER_ZIP, **form.filters())
    filters = form.filters()
    name = "hands"
    if filters["first_day"] or filters["last_day"]:
        name += f"-{filters['first_day'] or 'start'}-{filters['last_day'] or 'now'}"
    response = HttpResponse(hands_zip(hands), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}.zip"'
    return response


@login_required
@require_GET
def player_data_download(request: PlayerRequest) -> HttpResponse:
    """The account page's "Download my data" (issue #26): account, ledger and every hand the
    player played, their copy, in one zip."""
    response = HttpResponse(player_data_zip(player=request.user), content_type="application/zip")
    filename = f"stud-room-{request.user.username}-data.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
def hands_email(request: PlayerRequest) -> HttpResponse:
    form = HandsEmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the hands to email.")
        return redirect("hand_list")
    result = history_email_request(player=request.user, hand_ids=form.cleaned_data["hand_ids"])
    if result.ok:
        messages.success(request, result.message)
    else:
        messages.error(request, result.message)
    return redirect("hand_list")
