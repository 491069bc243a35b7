"""The hand-history pages of a player (R-HIST-1..3): the list with filters, a hand, its
downloads (PokerStars text, JSON, a zip of a date range) and "Email me these hands"; and a
player's own history files (issue #24 item 5): opened, replayed, kept or deleted.

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
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import PlayerRequest
from histories.forms import HandFilterForm, HandImportForm, HandKeepForm, HandsEmailForm
from histories.imported import ImportedFile, imported_file, imported_hand, imported_hands
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
from histories.services import history_email_request, imported_hand_delete, imported_hands_keep
from integrity.chain_selectors import hand_chain_path
from stud.read_hand import HistoryRefused
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
            "imported": imported_hands(player_id=request.user.pk),
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


def _attachment(body: str | bytes, content_type: str, filename: str) -> HttpResponse:
    """A file the browser saves under ``filename`` rather than shows."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def hand_download_text(request: PlayerRequest, hand_id: int) -> HttpResponse:
    played = _played_or_404(request, hand_id)
    return _attachment(hand_text(played), "text/plain; charset=utf-8", hand_filename(played))


@login_required
@require_GET
def hand_download_json(request: PlayerRequest, hand_id: int) -> HttpResponse:
    played = _played_or_404(request, hand_id)
    return _attachment(
        json.dumps(hand_json(played), indent=2), "application/json", f"hand-{played.hand.pk}.json"
    )


@login_required
@require_GET
def hand_download_phh(request: PlayerRequest, hand_id: int) -> HttpResponse:
    """The hand as PHH (uoftcprg/phh-std), the open format PokerKit and trackers read."""
    played = _played_or_404(request, hand_id)
    return _attachment(
        hand_phh(played), "application/toml; charset=utf-8", f"hand-{played.hand.pk}.phh"
    )


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
    return _attachment(hands_zip(hands), "application/zip", f"{name}.zip")


@login_required
@require_GET
def player_data_download(request: PlayerRequest) -> HttpResponse:
    """The account page's "Download my data" (issue #26): account, ledger and every hand the
    player played, their copy, in one zip."""
    return _attachment(
        player_data_zip(player=request.user),
        "application/zip",
        f"stud-room-{request.user.username}-data.zip",
    )


@login_required
@require_POST
def hands_email(request: PlayerRequest) -> HttpResponse:
    form = HandsEmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the hands to email.")
        return redirect("hand_list")
    result = history_email_request(player=request.user, hand_ids=form.cleaned_data["hand_ids"])
    (messages.success if result.ok else messages.error)(request, result.message)
    return redirect("hand_list")


# --- a player's own hand histories (issue #24 item 5) -------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def hands_import(request: PlayerRequest) -> HttpResponse:
    """Open a PHH file or PokerStars text: every hand read, checked and shown in the
    replayer from this request alone; nothing is stored (see ``hands_import_keep``)."""
    form = HandImportForm(request.POST, request.FILES) if request.method == "POST" else None
    opened: ImportedFile | None = None
    text = ""
    if form is not None and form.is_valid():
        text = form.cleaned_data["text"]
        try:
            opened = imported_file(text)
        except HistoryRefused as refused:
            form.add_error(None, str(refused))
    return render(
        request,
        "histories/hand_import.html",
        {
            "form": form or HandImportForm(),
            "opened": opened,
            "text": text,
            "replays": [row.replay for row in opened.rows] if opened else [],
        },
        status=400 if form is not None and form.errors else 200,
    )


@login_required
@require_POST
def hands_import_keep(request: PlayerRequest) -> HttpResponse:
    form = HandKeepForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing to keep: open the file again.")
        return redirect("hands_import")
    result = imported_hands_keep(player=request.user, text=form.cleaned_data["text"])
    if not result.ok:
        messages.error(request, result.message)
        return redirect("hands_import")
    messages.success(request, result.message)
    if len(result.kept_ids) == 1:
        return redirect("imported_hand_detail", imported_id=result.kept_ids[0])
    return redirect(f"{reverse('hand_list')}#imported")


@login_required
@require_GET
def imported_hand_detail(request: PlayerRequest, imported_id: int) -> HttpResponse:
    kept = imported_hand(player_id=request.user.pk, imported_id=imported_id)
    if kept is None:
        raise Http404("No imported hand of yours with that number.")
    return render(
        request,
        "histories/imported_hand.html",
        {
            "kept": kept,
            "row": kept.row,
            "replay_history": kept.row.replay if kept.row else None,
        },
    )


@login_required
@require_GET
def imported_hand_download(request: PlayerRequest, imported_id: int) -> HttpResponse:
    """The kept hand's text, as the player's file gave it."""
    kept = imported_hand(player_id=request.user.pk, imported_id=imported_id)
    if kept is None:
        raise Http404("No imported hand of yours with that number.")
    suffix = "phh" if kept.kept.format == "phh" else "txt"
    return _attachment(
        kept.kept.source, "text/plain; charset=utf-8", f"imported-{imported_id}.{suffix}"
    )


@login_required
@require_POST
def imported_hand_remove(request: PlayerRequest, imported_id: int) -> HttpResponse:
    if imported_hand_delete(player=request.user, imported_id=imported_id):
        messages.success(request, "The imported hand was deleted.")
    else:
        messages.error(request, "No imported hand of yours with that number.")
    return redirect(f"{reverse('hand_list')}#imported")
