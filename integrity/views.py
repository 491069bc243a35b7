"""Pages of the integrity app: the public fairness chain (anyone), and the staff's Integrity
review (staff with the integrity permission). Thin: selectors read, services write."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from integrity.chain_selectors import chain_entries, chain_head

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
