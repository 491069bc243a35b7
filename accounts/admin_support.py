"""Player support in the back office (issue #16): on a player's page, the staff actions on the
account, the all-in protections used today with a reset, and the player's log-ins; and the
staff audit log, read-only.

The player's hands are shown by `tables` (tables/admin_players.py), which registers its
inline here (`player_admin_inline_register`): accounts does not import tables.
"""

from __future__ import annotations

from typing import Any

from axes.models import AccessLog
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from accounts.http import PlayerRequest
from accounts.models import Player, StaffAction
from accounts.services import all_in_protection_remaining, all_in_protection_reset
from pokerroom.admin_read_only import ReadOnlyAdminMixin
from pokerroom.room_day import room_day

STAFF_ACTION_INLINE_ROWS = 50
ACCESS_LOG_ROWS = 10

# Inlines other apps add to a player's page (their own models, read-only).
_PLAYER_ADMIN_INLINES: list[type[InlineModelAdmin[Any, Any]]] = []


def player_admin_inline_register(
    inline: type[InlineModelAdmin[Any, Any]],
) -> type[InlineModelAdmin[Any, Any]]:
    """Add an inline to a player's admin page (a decorator): how an app built on accounts
    shows its own rows of a player there without accounts importing it."""
    if inline not in _PLAYER_ADMIN_INLINES:
        _PLAYER_ADMIN_INLINES.append(inline)
    return inline


def player_admin_inlines() -> list[type[InlineModelAdmin[Any, Any]]]:
    return list(_PLAYER_ADMIN_INLINES)


class StaffActionInline(ReadOnlyAdminMixin, admin.TabularInline):
    """Every staff action on this player's account, newest first."""

    model = StaffAction
    fk_name = "target_player"
    fields = readonly_fields = ("at", "staff", "action_label", "detail")
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ("-at", "-id")
    verbose_name_plural = "staff actions on this account (newest first)"

    @admin.display(description="action")
    def action_label(self, action: StaffAction) -> str:
        return action.action_label


class PlayerSupportMixin:
    """For PlayerAdmin: the support fields and the all-in reset page."""

    admin_site: admin.AdminSite
    opts: Any

    @admin.display(description="all-in protection today")
    def all_in_today(self, player: Player) -> str:
        if player.pk is None:
            return "-"
        now = timezone.now()
        used = player.all_ins_used if player.all_ins_day == room_day(now) else 0
        left = all_in_protection_remaining(player=player, now=now)
        url = reverse("admin:accounts_player_all_in_reset", args=[player.pk])
        return format_html(
            '<span data-testid="all-in-today">{} used, {} left of {}</span> &nbsp; '
            '<a class="button" href="{}">Reset…</a>',
            used,
            left,
            player.all_in_allowance,
            url,
        )

    @admin.display(description="log-ins (latest first)")
    def sessions(self, player: Player) -> str:
        if player.pk is None:
            return "-"
        rows = AccessLog.objects.filter(username=player.username).order_by("-attempt_time")[
            :ACCESS_LOG_ROWS
        ]
        lines = [
            (
                timezone.localtime(row.attempt_time).strftime("%Y-%m-%d %H:%M"),
                "still logged in"
                if row.logout_time is None
                else f"out {timezone.localtime(row.logout_time).strftime('%Y-%m-%d %H:%M')}",
                row.ip_address or "?",
                (row.user_agent or "")[:60],
            )
            for row in rows
        ]
        if not lines:
            return "No log-in recorded."
        return format_html_join("", "<div>{} · {} · {} · {}</div>", lines)

    def get_urls(self) -> list[URLPattern]:
        reset = path(
            "<path:object_id>/all-in-reset/",
            self.admin_site.admin_view(self.all_in_reset_view),
            name="accounts_player_all_in_reset",
        )
        return [reset, *super().get_urls()]  # type: ignore[misc]

    def all_in_reset_view(self, request: PlayerRequest, object_id: str) -> HttpResponse:
        """R-TIME-2: staff give a player back today's full allowance (a StaffAction)."""
        if not request.user.has_perm("accounts.change_player"):
            raise PermissionDenied
        player = get_object_or_404(Player, pk=object_id)
        if request.method == "POST":
            all_in_protection_reset(player_ids=[player.pk], now=timezone.now(), staff=request.user)
            messages.success(request, f"All-in protection reset for {player.username}.")
            return HttpResponseRedirect(reverse("admin:accounts_player_change", args=[player.pk]))
        now = timezone.now()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Reset the all-in protection of {player.username}",
            "player": player,
            "left": all_in_protection_remaining(player=player, now=now),
            "original": player,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/accounts/player/all_in_reset.html", context)


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The staff audit log: written by the services, never edited or deleted."""

    list_display = ("at", "staff", "action_label", "target_link", "detail")
    list_filter = ("action", "at", ("staff", admin.RelatedOnlyFieldListFilter))
    search_fields = ("staff__username", "target", "target_player__username", "detail")
    list_select_related = ("staff", "target_player")
    date_hierarchy = "at"

    @admin.display(description="action", ordering="action")
    def action_label(self, action: StaffAction) -> str:
        return action.action_label

    @admin.display(description="target", ordering="target")
    def target_link(self, action: StaffAction) -> str:
        if action.target_player_id is not None:
            url = reverse("admin:accounts_player_change", args=[action.target_player_id])
            return format_html('<a href="{}">{}</a>', url, action.target_player)
        return action.target
