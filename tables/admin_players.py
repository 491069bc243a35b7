"""Player support (issue #16): a player's hands on their admin page, each linked to its
history as the player sees it and to its full log. Registered on accounts' player page
(accounts.admin_support.player_admin_inline_register): accounts does not import tables."""

from __future__ import annotations

from datetime import datetime

from django.contrib import admin
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html

from accounts.admin_support import player_admin_inline_register
from accounts.money import cents_format
from pokerroom.admin_read_only import ReadOnlyAdminMixin
from tables.models import HandPlayer, Seat

HAND_INLINE_ROWS = 50


def _moment(moment: datetime | None) -> str:
    """As the admin shows a date and time (the server's zone), "-" for none."""
    return "-" if moment is None else formats.localize(timezone.localtime(moment))


class RecentHandsFormSet(BaseInlineFormSet):
    """The latest hands; the rest are in the hands list of the admin."""

    def get_queryset(self) -> QuerySet[HandPlayer]:
        return super().get_queryset().select_related("hand", "hand__table")[:HAND_INLINE_ROWS]


@player_admin_inline_register
class PlayerHandsInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = HandPlayer
    formset = RecentHandsFormSet
    fk_name = "player"
    fields = readonly_fields = ("hand_links", "table_name", "seat", "started", "ended")
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ("-hand_id",)
    verbose_name = "hand"
    verbose_name_plural = f"hands (latest {HAND_INLINE_ROWS}, newest first)"

    @admin.display(description="hand")
    def hand_links(self, dealt: HandPlayer) -> str:
        log = reverse("admin:tables_hand_change", args=[dealt.hand_id])
        if dealt.hand.ended_at is None:
            return format_html('#{} (in play) · <a href="{}">log</a>', dealt.hand_id, log)
        history = reverse("hand_detail_for_staff", args=[dealt.hand_id, dealt.player_id])
        return format_html(
            '<a href="{}">#{} history</a> · <a href="{}">full log</a>',
            history,
            dealt.hand_id,
            log,
        )

    @admin.display(description="table")
    def table_name(self, dealt: HandPlayer) -> str:
        return dealt.hand.table.name

    @admin.display(description="started")
    def started(self, dealt: HandPlayer) -> str:
        return _moment(dealt.hand.started_at)

    @admin.display(description="ended")
    def ended(self, dealt: HandPlayer) -> str:
        return _moment(dealt.hand.ended_at)


@player_admin_inline_register
class PlayerSeatsInline(ReadOnlyAdminMixin, admin.TabularInline):
    """Where the player sits now: their table sessions (connected, sitting out, time-outs)."""

    model = Seat
    fk_name = "player"
    fields = readonly_fields = (
        "table",
        "number",
        "stack_display",
        "connected",
        "sitting_out",
        "timeouts_in_a_row",
        "sat_down",
    )
    extra = 0
    can_delete = False
    show_change_link = False
    verbose_name = "seat"
    verbose_name_plural = "seated now (table sessions)"

    @admin.display(description="stack")
    def stack_display(self, seat: Seat) -> str:
        return cents_format(seat.stack)

    @admin.display(description="sat down")
    def sat_down(self, seat: Seat) -> str:
        return _moment(seat.joined_at)
