"""What waits in the back office for a decision of staff: a player's cashier request, a money
move that needs a second member of staff (issue #22). Staff with "Can credit and debit a
player's wallet" approve or refuse many at once (the list's actions) or one at a time with a
note (its "Decide…" page); each admin says what it decides and how, this module the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst

from accounts.forms import CashierDecisionForm
from accounts.http import PlayerRequest
from accounts.models import Player
from accounts.money import cents_format
from accounts.services import WalletError
from pokerroom.admin_read_only import ReadOnlyAdminMixin

DecisionAction = Callable[["DecisionAdmin", PlayerRequest, QuerySet[Any]], None]


def decision_action(*, approve: bool, description: str) -> DecisionAction:
    """The list's action that approves (or refuses) the selected rows, for staff who move
    money."""

    @admin.action(description=description, permissions=["move_money"])
    def decide_selected(
        model_admin: DecisionAdmin, request: PlayerRequest, queryset: QuerySet[Any]
    ) -> None:
        model_admin.decide_each(request, queryset, approve=approve)

    return decide_selected


class DecisionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The admin of rows (with a player, an amount and a status) that wait, pending, for staff
    to approve or refuse them; a row is decided once.

    A subclass names the row (`noun`, in the messages and the page's title), its pending
    status, the page's template and what it loads with the row, and makes the decision
    (`decide`)."""

    noun: str
    pending_status: str
    decide_template: str
    decide_related: tuple[str, ...] = ("player",)
    note_help_text: str | None = None

    def decide(
        self, pk: int, *, approve: bool, staff: Player, now: datetime, note: str = ""
    ) -> Any:
        """Approve or refuse row `pk` (WalletError when the room refuses); the row after."""
        raise NotImplementedError

    def error_line(self, pk: int, error: WalletError) -> str:
        """What staff read when the room refuses their decision on row `pk` in a batch."""
        return str(error)

    def still_waiting_line(self, item: Any) -> str | None:
        """What staff read when their approval leaves the row waiting still, or None."""
        return None

    def has_move_money_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.move_money")

    @admin.display(description="amount", ordering="amount")
    def amount_display(self, item: Any) -> str:
        return cents_format(item.amount)

    def _url_name(self, page: str) -> str:
        return f"{self.opts.app_label}_{self.opts.model_name}_{page}"

    @admin.display(description="")
    def decide_link(self, item: Any) -> str:
        if item.status != self.pending_status:
            return ""
        url = reverse(f"admin:{self._url_name('decide')}", args=[item.pk])
        return format_html('<a class="button" href="{}">Decide…</a>', url)

    def decide_each(
        self, request: PlayerRequest, queryset: QuerySet[Any], *, approve: bool
    ) -> None:
        """Decide the selected rows one by one, in the order they were made."""
        done = 0
        for pk in queryset.order_by("id").values_list("pk", flat=True):
            try:
                item = self.decide(pk, approve=approve, staff=request.user, now=timezone.now())
            except WalletError as error:
                self.message_user(request, self.error_line(pk, error), messages.ERROR)
            else:
                waiting = self.still_waiting_line(item)
                if waiting is not None:
                    self.message_user(request, waiting, messages.WARNING)
                else:
                    done += 1
        verb = "approved" if approve else "refused"
        self.message_user(request, f"{done} {self.noun}(s) {verb}.", messages.SUCCESS)

    def get_urls(self) -> list[URLPattern]:
        decide = path(
            "<path:object_id>/decide/",
            self.admin_site.admin_view(self.decide_view),
            name=self._url_name("decide"),
        )
        return [decide, *super().get_urls()]

    def decide_view(self, request: PlayerRequest, object_id: str) -> HttpResponse:
        """Approve or refuse one row, with a note."""
        if not request.user.has_perm("accounts.move_money"):
            raise PermissionDenied
        item = get_object_or_404(
            self.model._default_manager.select_related(*self.decide_related), pk=object_id
        )
        form = CashierDecisionForm(request.POST or None)
        if self.note_help_text is not None:
            form.fields["note"].help_text = self.note_help_text
        approve = "approve" in request.POST
        if request.method == "POST" and not approve and "refuse" not in request.POST:
            form.add_error(None, f"Approve or refuse the {self.noun}.")
        elif request.method == "POST" and form.is_valid():
            try:
                decided = self.decide(
                    item.pk,
                    approve=approve,
                    staff=request.user,
                    now=timezone.now(),
                    note=form.cleaned_data["note"],
                )
            except WalletError as error:
                form.add_error(None, str(error))
            else:
                waiting = self.still_waiting_line(decided)
                if waiting is not None:
                    self.message_user(request, waiting, messages.WARNING)
                else:
                    self.message_user(
                        request,
                        f"{capfirst(self.noun)} #{item.pk} {'approved' if approve else 'refused'}.",
                        messages.SUCCESS,
                    )
                return HttpResponseRedirect(reverse(f"admin:{self._url_name('changelist')}"))
            item.refresh_from_db()
        item.player.refresh_from_db(fields=["balance"])
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Decide {self.noun} #{item.pk}",
            "item": item,
            "amount": cents_format(item.amount),
            "balance": cents_format(item.player.balance),
            "form": form,
            "original": item,
            "has_view_permission": True,
        }
        return TemplateResponse(request, self.decide_template, context)
