"""Back office for players and their wallets.

The ledger is read-only here: no one adds, changes or deletes a row through the admin. Staff
move money only through the wallet form on a player and by approving cashier requests (a
real-money room), both of which call accounts.services. A move that needs two people (issue
#22: a staff account's money, or more than MONEY_SECOND_APPROVAL_CENTS) waits in "Money
moves" for a second member of staff.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts.admin_decisions import DecisionAdmin, decision_action
from accounts.admin_support import PlayerSupportMixin, StaffActionInline, player_admin_inlines
from accounts.forms import EMAIL_TAKEN_MESSAGE, NAME_TAKEN_MESSAGE, WalletMovementForm
from accounts.http import PlayerRequest
from accounts.models import (
    CashierRequest,
    CashierStatus,
    LedgerEntry,
    LedgerKind,
    MoneyMove,
    MoneyMoveStatus,
    PlayBreak,
    Player,
    PlayLimit,
)
from accounts.money import cents_format
from accounts.selectors import (
    email_confirmed_by_another,
    money_moves_waiting,
    name_held_by_another,
)
from accounts.services import (
    WalletError,
    all_in_protection_reset,
    cashier_approve,
    cashier_refuse,
    money_move_approve,
    money_move_refuse,
    wallet_staff_move,
)
from pokerroom.admin_read_only import ReadOnlyAdminMixin


def _name_not_held(name: str, *, player_id: int | None) -> str:
    """Staff may use the reserved words, but not another player's name (issue #11)."""
    if name and name_held_by_another(name, player_id=player_id):
        raise forms.ValidationError(NAME_TAKEN_MESSAGE, code="taken")
    return name


def _email_not_confirmed_by_another(email: str, *, player_id: int | None) -> str:
    """An account staff make or edit has a confirmed address (issue #22), so it may not be
    one another account has confirmed. The model's constraint says the same, but a form
    without the `email_confirmed` field skips it (Django cannot evaluate its condition), so
    without this the save would fail. Staff are told; sign-up never is."""
    if email and email_confirmed_by_another(email, player_id=player_id):
        raise forms.ValidationError(EMAIL_TAKEN_MESSAGE, code="taken")
    return email


class PlayerCreationForm(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = Player
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username")
        if username:
            _name_not_held(username, player_id=None)
        return super().clean_username()

    def clean_email(self) -> str:
        return _email_not_confirmed_by_another(self.cleaned_data["email"], player_id=None)


class PlayerChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = Player

    def clean_username(self) -> str:
        return _name_not_held(self.cleaned_data["username"], player_id=self.instance.pk)

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"]
        if not self.instance.email_confirmed:
            return email  # an unconfirmed address holds nothing
        return _email_not_confirmed_by_another(email, player_id=self.instance.pk)

    def clean_display_name(self) -> str:
        display_name: str = self.cleaned_data["display_name"].strip()
        return _name_not_held(display_name, player_id=self.instance.pk)


LEDGER_INLINE_ROWS = 50


class LedgerAmounts:
    """A ledger row's amount and the balance after it, in dollars (the ledger's columns)."""

    @admin.display(description="amount", ordering="amount")
    def amount_display(self, entry: LedgerEntry) -> str:
        return cents_format(entry.amount)

    @admin.display(description="balance after", ordering="balance_after")
    def balance_after_display(self, entry: LedgerEntry) -> str:
        return cents_format(entry.balance_after)


class RecentLedgerFormSet(BaseInlineFormSet):
    """The player page shows the latest rows; the ledger list has them all."""

    def get_queryset(self) -> QuerySet[LedgerEntry]:
        return super().get_queryset()[:LEDGER_INLINE_ROWS]


class LedgerInline(LedgerAmounts, ReadOnlyAdminMixin, admin.TabularInline):
    model = LedgerEntry
    formset = RecentLedgerFormSet
    fk_name = "player"
    fields = (
        "created_at",
        "kind",
        "amount_display",
        "balance_after_display",
        "staff",
        "reason",
        "reference",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ("-id",)
    verbose_name_plural = f"ledger (latest {LEDGER_INLINE_ROWS}, newest first)"


@admin.register(Player)
class PlayerAdmin(PlayerSupportMixin, UserAdmin):
    add_form = PlayerCreationForm
    form = PlayerChangeForm
    inlines = [LedgerInline]
    list_display = (
        "username",
        "display_name",
        "email",
        "balance_display",
        "all_ins_used",
        "all_in_allowance",
        "is_staff",
        "is_active",
        "date_joined",
    )
    list_filter = (
        "is_staff",
        "is_superuser",
        "is_active",
        "auto_ante",
        "auto_muck",
        "date_joined",
        "closed_at",
    )
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    readonly_fields = (
        "email_confirmed",  # the player's own link confirms it (issue #22)
        "wallet",
        "play_money_top_up_day",
        "last_login",
        "date_joined",
        "all_in_today",
        "sessions",
    )
    actions = ["reset_all_in_protection"]
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (
            "Identity",
            {"fields": ("display_name", "email", "email_confirmed", "first_name", "last_name")},
        ),
        ("Wallet", {"fields": ("wallet", "play_money_top_up_day")}),
        (
            "All-in protection (R-TIME-2)",
            {
                "fields": ("all_in_today", "all_in_allowance", "all_ins_used", "all_ins_day"),
                "description": "All-ins allowed per New York day; a count from an earlier day "
                "counts as 0.",
            },
        ),
        (
            "Table preferences",
            {"fields": ("auto_ante", "auto_muck", "confirm_free_fold", "four_colour_deck")},
        ),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates and log-ins", {"fields": ("last_login", "date_joined", "sessions")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "password1", "password2")}),
    )

    def get_inlines(
        self, request: HttpRequest, obj: Player | None
    ) -> list[type[InlineModelAdmin[Any, Any]]]:
        if obj is None:
            return []
        # The player's support page: ledger, staff actions, and what other apps add (hands).
        return [LedgerInline, StaffActionInline, *player_admin_inlines()]

    @admin.display(description="balance", ordering="balance")
    def balance_display(self, player: Player) -> str:
        return cents_format(player.balance)

    @admin.display(description="balance")
    def wallet(self, player: Player) -> str:
        if player.pk is None:
            return cents_format(0)
        wallet_url = reverse("admin:accounts_player_wallet", args=[player.pk])
        ledger_url = reverse("admin:accounts_ledgerentry_changelist")
        line = format_html(
            '{} &nbsp; <a class="button" href="{}">Credit or debit…</a> &nbsp; '
            '<a href="{}?player__id__exact={}">Full ledger</a>',
            cents_format(player.balance),
            wallet_url,
            ledger_url,
            player.pk,
        )
        waiting = money_moves_waiting(player_id=player.pk)
        if not waiting:
            return line
        moves_url = reverse("admin:accounts_moneymove_changelist")
        return format_html(
            '{}<div><a href="{}?player__id__exact={}&amp;status__exact=pending">{} money '
            "move(s) waiting for a second approval</a></div>",
            line,
            moves_url,
            player.pk,
            waiting,
        )

    @admin.action(description="Reset all-in protection (full allowance for today)")
    def reset_all_in_protection(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        count = all_in_protection_reset(
            player_ids=list(queryset.values_list("pk", flat=True)),
            now=timezone.now(),
            staff=request.user,  # type: ignore[arg-type]
        )
        self.message_user(request, f"All-in protection reset for {count} player(s).")

    def get_urls(self) -> list[URLPattern]:
        wallet = path(
            "<path:object_id>/wallet/",
            self.admin_site.admin_view(self.wallet_view),
            name="accounts_player_wallet",
        )
        return [wallet, *super().get_urls()]

    def wallet_view(self, request: PlayerRequest, object_id: str) -> HttpResponse:
        """Staff credit or debit a player: one ledger row naming them and the reason, or,
        when it needs two people, a money move waiting for a second member of staff."""
        if not request.user.has_perm("accounts.move_money"):
            raise PermissionDenied
        player = get_object_or_404(Player, pk=object_id)
        form = WalletMovementForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            credit = data["direction"] == "credit"
            if data["category"] == "adjustment":
                kind = LedgerKind.ADJUSTMENT
            else:
                kind = LedgerKind.DEPOSIT if credit else LedgerKind.WITHDRAWAL
            try:
                done = wallet_staff_move(
                    player_id=player.pk,
                    amount=data["amount"],
                    debit=not credit,
                    kind=kind,
                    staff=request.user,
                    reason=data["reason"],
                    now=timezone.now(),
                )
            except WalletError as error:
                form.add_error(None, str(error))
            else:
                if isinstance(done, MoneyMove):
                    self.message_user(
                        request,
                        f"{done.get_kind_display()} of {cents_format(done.amount)} "
                        f"{'to' if credit else 'from'} {player.username} waits for a second "
                        f"member of staff's approval (Money moves, #{done.pk}): nothing has "
                        f"moved yet.",
                        messages.WARNING,
                    )
                else:
                    self.message_user(
                        request,
                        f"{done.get_kind_display()} of {cents_format(abs(done.amount))} "
                        f"{'to' if credit else 'from'} {player.username}: balance now "
                        f"{cents_format(done.balance_after)}.",
                        messages.SUCCESS,
                    )
                return HttpResponseRedirect(
                    reverse("admin:accounts_player_change", args=[player.pk])
                )
            player.refresh_from_db(fields=["balance"])
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Credit or debit {player.username}",
            "player": player,
            "balance": cents_format(player.balance),
            "second_approval_above": cents_format(settings.MONEY_SECOND_APPROVAL_CENTS),
            "form": form,
            "original": player,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/accounts/player/wallet.html", context)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(LedgerAmounts, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "created_at",
        "player",
        "kind",
        "amount_display",
        "balance_after_display",
        "staff",
        "reason",
        "reference",
    )
    list_filter = ("kind", "created_at", ("staff", admin.RelatedOnlyFieldListFilter))
    search_fields = ("player__username", "player__display_name", "reason", "reference")
    list_select_related = ("player", "staff")
    date_hierarchy = "created_at"


@admin.register(CashierRequest)
class CashierRequestAdmin(DecisionAdmin):
    """Players' deposit and withdrawal requests (settings.ROOM_MONEY = "real").

    Staff with "Can credit and debit a player's wallet" approve or refuse them, with the
    actions on the list or one at a time with a note ("Decide…"); approval writes the ledger
    row, refusal writes nothing. A request is decided once.
    """

    list_display = (
        "created_at",
        "player",
        "kind",
        "amount_display",
        "status",
        "first_approved_by",
        "decided_by",
        "decided_at",
        "staff_note",
        "decide_link",
    )
    list_filter = ("status", "kind", "created_at")
    search_fields = ("player__username", "player__display_name", "staff_note")
    list_select_related = ("player", "decided_by", "first_approved_by")
    actions = ["approve_requests", "refuse_requests"]
    noun = "request"
    pending_status = CashierStatus.PENDING
    decide_template = "admin/accounts/cashierrequest/decide.html"

    approve_requests = decision_action(approve=True, description="Approve the selected requests")
    refuse_requests = decision_action(approve=False, description="Refuse the selected requests")

    def decide(
        self, pk: int, *, approve: bool, staff: Player, now: datetime, note: str = ""
    ) -> CashierRequest:
        decide = cashier_approve if approve else cashier_refuse
        return decide(request_id=pk, staff=staff, now=now, note=note)

    def error_line(self, pk: int, error: WalletError) -> str:
        return f"Request #{pk}: {error}"

    def still_waiting_line(self, item: CashierRequest) -> str | None:
        """A request of more than MONEY_SECOND_APPROVAL_CENTS waits, after its first
        approval, for a second member of staff."""
        if item.status != CashierStatus.PENDING:
            return None
        return (
            f"Request #{item.pk}: your approval is the first of two (more than "
            f"{cents_format(settings.MONEY_SECOND_APPROVAL_CENTS)}); nothing moves until a "
            f"second member of staff approves it too."
        )


@admin.register(MoneyMove)
class MoneyMoveAdmin(DecisionAdmin):
    """Staff credits and debits waiting for a second member of staff (issue #22): a staff
    account's money, or more than MONEY_SECOND_APPROVAL_CENTS. Another member of staff with
    "Can credit and debit a player's wallet", neither the one who asked nor the player,
    approves (the ledger row is written then) or refuses (nothing moves); each is decided once.
    """

    list_display = (
        "requested_at",
        "player",
        "kind",
        "way",
        "amount_display",
        "reason",
        "requested_by",
        "status",
        "decided_by",
        "decided_at",
        "decision_note",
        "decide_link",
    )
    list_filter = ("status", "kind", "requested_at")
    search_fields = ("player__username", "requested_by__username", "reason", "decision_note")
    list_select_related = ("player", "requested_by", "decided_by")
    actions = ["approve_moves", "refuse_moves"]
    noun = "money move"
    pending_status = MoneyMoveStatus.PENDING
    decide_template = "admin/accounts/moneymove/decide.html"
    decide_related = ("player", "requested_by")
    note_help_text = "Kept on the move and in the staff audit log."

    approve_moves = decision_action(approve=True, description="Approve the selected money moves")
    refuse_moves = decision_action(approve=False, description="Refuse the selected money moves")

    @admin.display(description="credit or debit", ordering="debit")
    def way(self, move: MoneyMove) -> str:
        return "debit" if move.debit else "credit"

    def decide(
        self, pk: int, *, approve: bool, staff: Player, now: datetime, note: str = ""
    ) -> MoneyMove:
        decide = money_move_approve if approve else money_move_refuse
        return decide(move_id=pk, staff=staff, now=now, note=note)


@admin.register(PlayBreak)
class PlayBreakAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Players on a break or self-excluded (issue #26). Read only: no one, staff included,
    shortens or lifts one before its end."""

    list_display = ("player", "kind", "starts_at", "ends_at", "running")
    list_filter = ("kind",)
    search_fields = ("player__username",)
    ordering = ("-ends_at",)

    @admin.display(boolean=True, description="Running now")
    def running(self, obj: PlayBreak) -> bool:
        return bool(obj.starts_at <= timezone.now() < obj.ends_at)


@admin.register(PlayLimit)
class PlayLimitAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Limits players set on themselves (issue #26); only the player changes them."""

    list_display = ("player", "kind", "amount", "raise_pending", "raise_to", "raise_at")
    list_filter = ("kind",)
    search_fields = ("player__username",)
