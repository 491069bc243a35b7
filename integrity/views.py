"""Pages of the integrity app: the public fairness chain (anyone), and the staff's Integrity
review (staff with the integrity permission). Thin: selectors read, services write."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.http import PlayerRequest
from accounts.services import staff_action_record
from integrity import selectors, services
from integrity.chain_selectors import chain_entries, chain_head
from integrity.forms import CaseDecideForm, CaseNoteForm, SharedAddressForm
from integrity.models import IntegrityCase, IntegrityScan, PairReview

CHAIN_PAGE_SIZE = 50


@require_GET
def fairness_chain(request: HttpRequest) -> HttpResponse:
    """The public chain: its head, and its entries newest first, paged; `?from=<index>` opens
    on the page holding that entry (a hand's page links here)."""
    head = chain_head()
    entries = chain_entries().order_by("-index")
    paginator = Paginator(entries, CHAIN_PAGE_SIZE)
    number = request.GET.get("page")
    start = request.GET.get("from", "")
    if start.isdigit() and head.length:
        number = str((head.length - 1 - min(int(start), head.length - 1)) // CHAIN_PAGE_SIZE + 1)
    page = paginator.get_page(number)
    return render(
        request,
        "integrity/fairness_chain.html",
        {"head": head, "page": page, "marked": int(start) if start.isdigit() else None},
    )


# --- staff: the Integrity review -------------------------------------------------------------

REVIEW_PERMISSION = "integrity.review_integrity"


def integrity_staff(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Staff with the integrity permission only (a 403 for other staff)."""
    return staff_member_required(permission_required(REVIEW_PERMISSION, raise_exception=True)(view))


@integrity_staff
@require_GET
def integrity_home(request: PlayerRequest) -> HttpResponse:
    show_all = request.GET.get("all") == "1"
    pairs = [
        {"review": review, "signals": selectors.signal_rows(review)}
        for review in selectors.pairs_ranked(flagged_only=not show_all)
    ]
    scan = IntegrityScan.objects.filter(pk=1).first()
    return render(
        request,
        "integrity/integrity_home.html",
        {"pairs": pairs, "show_all": show_all, "scan": scan},
    )


@integrity_staff
@require_POST
def integrity_scan_now(request: PlayerRequest) -> HttpResponse:
    result = services.integrity_scan()
    staff_action_record(
        staff=request.user,
        action="integrity_scan",
        target="integrity:scan",
        detail=f"{result.hands_read} new hands read, {result.flagged} pairs flagged",
    )
    messages.success(
        request, f"Read {result.hands_read} new hands; {result.flagged} pairs flagged."
    )
    return redirect("integrity_home")


@integrity_staff
@require_GET
def integrity_pair(request: PlayerRequest, pair_id: int) -> HttpResponse:
    page = selectors.pair_page(pair_id=pair_id)
    if page is None:
        raise Http404("No such pair.")
    return render(
        request,
        "integrity/integrity_pair.html",
        {
            "page": page,
            "review": page.review,
            "signals": selectors.signal_rows(page.review),
            "note_form": CaseNoteForm(),
            "decide_form": CaseDecideForm(),
            "allow_form": SharedAddressForm(),
        },
    )


@integrity_staff
@require_POST
def integrity_case_open(request: PlayerRequest, pair_id: int) -> HttpResponse:
    get_object_or_404(PairReview, pk=pair_id)
    services.case_open(pair_id=pair_id, staff=request.user)
    return redirect("integrity_pair", pair_id=pair_id)


@integrity_staff
@require_POST
def integrity_case_note(request: PlayerRequest, case_id: int) -> HttpResponse:
    case = get_object_or_404(IntegrityCase, pk=case_id)
    form = CaseNoteForm(request.POST)
    if form.is_valid():
        try:
            services.case_note_add(
                case_id=case.pk, staff=request.user, text=form.cleaned_data["text"]
            )
        except services.CaseRefused as refused:
            messages.error(request, str(refused))
    else:
        messages.error(request, "A note needs some text.")
    return redirect("integrity_pair", pair_id=case.pair_id)


@integrity_staff
@require_POST
def integrity_case_decide(request: PlayerRequest, case_id: int) -> HttpResponse:
    case = get_object_or_404(IntegrityCase, pk=case_id)
    form = CaseDecideForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose cleared, warned or suspended.")
        return redirect("integrity_pair", pair_id=case.pair_id)
    try:
        services.case_decide(
            case_id=case.pk,
            staff=request.user,
            decision=form.cleaned_data["decision"],
            note=form.cleaned_data["note"],
        )
        messages.success(request, f"Case #{case.pk}: {form.cleaned_data['decision']}.")
    except services.CaseRefused as refused:
        messages.error(request, str(refused))
    return redirect("integrity_pair", pair_id=case.pair_id)


@integrity_staff
@require_POST
def integrity_shared_address_allow(request: PlayerRequest, pair_id: int) -> HttpResponse:
    review = get_object_or_404(PairReview, pk=pair_id)
    form = SharedAddressForm(request.POST)
    if form.is_valid():
        services.shared_address_allow(
            player_a=review.player_low_id,
            player_b=review.player_high_id,
            reason=form.cleaned_data["reason"],
            staff=request.user,
        )
        messages.success(request, "These two may now sit at one table from one address.")
    else:
        messages.error(request, "Say why these two may share an address.")
    return redirect("integrity_pair", pair_id=pair_id)


@integrity_staff
@require_GET
def integrity_hand(request: PlayerRequest, hand_id: int) -> HttpResponse:
    """A hand with every card face up, folded ones included: staff only, and each viewing
    is written to the staff audit log."""
    face_up = selectors.hand_face_up(hand_id=hand_id)
    if face_up is None:
        raise Http404("No such finished hand.")
    staff_action_record(
        staff=request.user,
        action="integrity_hand_face_up",
        target=f"hand:{hand_id}",
        detail="viewed with every card face up",
    )
    return render(
        request,
        "integrity/integrity_hand.html",
        {
            "face_up": face_up,
            "hand": face_up.hand,
            "streets": [(selectors.street_title(s), actions) for s, actions in face_up.streets],
            "pair_id": request.GET.get("pair", ""),
        },
    )
