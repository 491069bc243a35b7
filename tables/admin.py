"""Staff: open tables from the stakes presets, close them, see every hand with its events,
edit rake schedules, read the rake taken."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.db.models import Max, Min, QuerySet
from django.http import HttpRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html_join

import tables.admin_players  # noqa: F401  (a player's hands on their admin page, issue #16)
from accounts.money import CentsField, CentsListField, cents_format
from pokerroom.admin_read_only import ReadOnlyAdminMixin
from pokerroom.room_day import room_day
from tables import services
from tables.models import (
    Hand,
    HandEvent,
    RakeEntry,
    RakeSchedule,
    RakeTier,
    RealityCheck,
    Seat,
    Table,
    WaitingListEntry,
)
from tables.presets import PRESETS_BY_KEY, STAKES_PRESETS
from tables.selectors import rake_schedule_for_stakes

STAKES_FIELDS = ("small_bet", "big_bet", "ante", "bring_in", "buy_in")


class TableForm(forms.ModelForm):
    """A preset fills the stakes (RULES.md "Stakes presets"); seed 000's odd figures are
    kept as written and flagged in the choice's label. Stakes are typed in dollars and
    stored in cents (accounts.money.CentsField)."""

    small_bet = CentsField(required=False)
    big_bet = CentsField(required=False)
    ante = CentsField(required=False)
    bring_in = CentsField(required=False, label="Bring-in")
    buy_in = CentsField(
        required=False, label="Buy-in", help_text="Posted minimum (R-BUY-1), e.g. 100.00"
    )

    preset = forms.ChoiceField(
        choices=[("", "— enter the stakes by hand —")]
        + [(preset.key, preset.label) for preset in STAKES_PRESETS],
        required=False,
        help_text="Fills small bet, big bet, ante, bring-in and buy-in. "
        "Presets marked ODD are seed 000's figures as written.",
    )

    class Meta:
        model = Table
        fields = [
            "name",
            "game",
            "triple_stud",
            *STAKES_FIELDS,
            "seats",
            "action_clock",
            "time_bank",
            "heads_up_raises",
            "odd_chip",
            "rake_schedule",
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        key = data.get("preset")
        if key:
            preset = PRESETS_BY_KEY[key]
            for name in STAKES_FIELDS:
                data[name] = getattr(preset, name)
                self.instance.__dict__[name] = getattr(preset, name)
            if preset.odd:
                self.preset_warning = f"Preset {preset.label}"
        for name in STAKES_FIELDS:
            if data.get(name) in (None, ""):
                self.add_error(name, "Enter it, or pick a preset.")
        small, big = data.get("small_bet"), data.get("big_bet")
        if small and big and big < small:
            self.add_error("big_bet", "The big bet is at least the small bet.")
        if small and big and not data.get("rake_schedule") and self.instance.pk is None:
            # R-RAKE-3: the seeded schedule for these stakes, or none (not raked).
            data["rake_schedule"] = rake_schedule_for_stakes(small, big)
        return data


class RakeTierForm(forms.ModelForm):
    """A tier's money in dollars; its thresholds a list of dollar amounts, stored as cents."""

    amount = CentsField(help_text="Taken per step, e.g. 0.25")
    every = CentsField(
        initial=0, help_text="Per full amount of pot, e.g. 5.00 (0.00: at the thresholds)"
    )
    thresholds = CentsListField(help_text="Pot sizes in dollars: 20.00, 40.00, 60.00")
    cap = CentsField(help_text="Most taken from one hand, e.g. 3.00")

    class Meta:
        model = RakeTier
        fields = ["min_players", "max_players", "amount", "every", "thresholds", "cap"]


class RakeTierInline(admin.TabularInline):
    model = RakeTier
    form = RakeTierForm
    extra = 0


class RakeScheduleForm(forms.ModelForm):
    min_small_bet = CentsField(help_text="Lowest small bet it covers, e.g. 2.00")
    max_small_bet = CentsField(help_text="Highest small bet it covers, e.g. 10.00")

    class Meta:
        model = RakeSchedule
        fields = ["name", "min_small_bet", "max_small_bet"]


def rake_preview_lines(schedule: RakeSchedule) -> list[str]:
    """ "pot $45.00, 5 players: $2.00" for each tier's players at and just under each
    threshold (or each step of a per-$N tier up to its cap), from the saved tiers."""
    engine = schedule.to_engine()
    lines: list[str] = []
    for tier in schedule.tiers.all():
        counts = sorted({tier.min_players, tier.max_players or tier.min_players + 2})
        if tier.every:
            steps = (tier.cap // tier.amount + 1) if tier.amount else 1
            pots = sorted({tier.every * n for n in range(1, steps + 1)} | {tier.every - 1})
        else:
            pots = sorted({int(t) for t in tier.thresholds} | {int(t) - 1 for t in tier.thresholds})
        for players in counts:
            for pot in pots:
                if pot <= 0:
                    continue
                rake = engine.rake_for(pot, players)
                lines.append(f"pot {cents_format(pot)}, {players} players: {cents_format(rake)}")
    return lines


@admin.register(RakeSchedule)
class RakeScheduleAdmin(admin.ModelAdmin):
    """Tiers inline, and a preview of what the saved tiers take."""

    form = RakeScheduleForm
    list_display = ["name", "min_small_bet_display", "max_small_bet_display"]
    inlines = [RakeTierInline]
    readonly_fields = ["preview"]
    fields = ["name", "min_small_bet", "max_small_bet", "preview"]

    @admin.display(description="lowest small bet", ordering="min_small_bet")
    def min_small_bet_display(self, obj: RakeSchedule) -> str:
        return cents_format(obj.min_small_bet)

    @admin.display(description="highest small bet", ordering="max_small_bet")
    def max_small_bet_display(self, obj: RakeSchedule) -> str:
        return cents_format(obj.max_small_bet)

    @admin.display(description="Preview (saved tiers)")
    def preview(self, obj: RakeSchedule | None) -> str:
        if obj is None or obj.pk is None:
            return "Save the schedule to see what it takes."
        lines = rake_preview_lines(obj)
        if not lines:
            return "No tiers: nothing is taken."
        return format_html_join("", "<div>{}</div>", ((line,) for line in lines))


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "number",
        "player",
        "stack_display",
        "sitting_out",
        "connected",
        "timeouts_in_a_row",
    )

    @admin.display(description="stack")
    def stack_display(self, seat: Seat) -> str:
        return cents_format(seat.stack)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = [
        "name",
        "game",
        "small_bet_display",
        "big_bet_display",
        "ante_display",
        "bring_in_display",
        "buy_in_display",
        "seats",
        "rake_schedule",
        "is_open",
        "hands_dealt",
    ]
    list_filter = ["game", "triple_stud", "is_open"]
    readonly_fields = ["is_open", "hands_dealt", "next_hand_at", "created"]
    fields = [
        "name",
        "game",
        "preset",
        "small_bet",
        "big_bet",
        "ante",
        "bring_in",
        "buy_in",
        "seats",
        "action_clock",
        "time_bank",
        "heads_up_raises",
        "odd_chip",
        "rake_schedule",
        "is_open",
        "hands_dealt",
        "next_hand_at",
        "created",
    ]
    inlines = [SeatInline]
    actions = ["close_tables", "open_tables"]

    @admin.display(description="small bet", ordering="small_bet")
    def small_bet_display(self, table: Table) -> str:
        return cents_format(table.small_bet)

    @admin.display(description="big bet", ordering="big_bet")
    def big_bet_display(self, table: Table) -> str:
        return cents_format(table.big_bet)

    @admin.display(description="ante", ordering="ante")
    def ante_display(self, table: Table) -> str:
        return cents_format(table.ante)

    @admin.display(description="bring-in", ordering="bring_in")
    def bring_in_display(self, table: Table) -> str:
        return cents_format(table.bring_in)

    @admin.display(description="buy-in", ordering="buy_in")
    def buy_in_display(self, table: Table) -> str:
        return cents_format(table.buy_in)

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        for name in STAKES_FIELDS:
            setattr(obj, name, form.cleaned_data[name])
        obj.rake_schedule = form.cleaned_data.get("rake_schedule")
        super().save_model(request, obj, form, change)
        warning = getattr(form, "preset_warning", "")
        if warning:
            messages.warning(request, f"{warning}: check these figures before players sit.")

    @admin.action(description="Close the selected tables (no new hand)")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            services.table_close(table_id=table.pk, staff=request.user)  # type: ignore[arg-type]
        messages.success(request, f"Closed {queryset.count()} table(s).")

    @admin.action(description="Open the selected tables")
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            services.table_open(table_id=table.pk, staff=request.user)  # type: ignore[arg-type]
        messages.success(request, f"Opened {queryset.count()} table(s).")


class HandEventInline(admin.TabularInline):
    model = HandEvent
    extra = 0
    can_delete = False
    fields = readonly_fields = ("seq", "kind", "visible_to", "payload", "created_at")
    ordering = ["seq"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Every hand, read-only, with its whole log (down cards included: staff only)."""

    list_display = ["__str__", "table", "number", "seq", "started_at", "ended_at"]
    list_filter = ["table"]
    date_hierarchy = "started_at"
    inlines = [HandEventInline]
    readonly_fields = [f.name for f in Hand._meta.fields]


RAKE_ENTRY_MONEY = ["amount", "small_bet", "big_bet"]


@admin.register(RakeEntry)
class RakeEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "hand",
        "table",
        "amount_display",
        "stakes_display",
        "players",
        "created_at",
    ]
    list_filter = ["table"]
    date_hierarchy = "created_at"
    readonly_fields = [
        *(f.name for f in RakeEntry._meta.fields if f.name not in RAKE_ENTRY_MONEY),
        "amount_display",
        "stakes_display",
    ]
    exclude = RAKE_ENTRY_MONEY
    actions = ["rake_report_for_selection"]

    @admin.display(description="rake", ordering="amount")
    def amount_display(self, entry: RakeEntry) -> str:
        return cents_format(entry.amount)

    @admin.display(description="stakes", ordering="small_bet")
    def stakes_display(self, entry: RakeEntry) -> str:
        return f"{cents_format(entry.small_bet)}/{cents_format(entry.big_bet)}"

    @admin.action(description="Rake report for the days of the selected entries")
    def rake_report_for_selection(self, request: HttpRequest, queryset: QuerySet[RakeEntry]) -> Any:
        span = queryset.aggregate(first=Min("hand__ended_at"), last=Max("hand__ended_at"))
        if span["first"] is None:
            messages.warning(request, "The selected entries have no finished hand.")
            return None
        query = urlencode(
            {
                "first_day": room_day(span["first"]).isoformat(),
                "last_day": room_day(span["last"]).isoformat(),
                "group_by": "day",
            }
        )
        return redirect(f"{reverse('rake_report')}?{query}")


@admin.register(RealityCheck)
class RealityCheckAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Issue #26: every reality check the tables sent a player, with what it showed."""

    list_display = [
        "player",
        "number",
        "sent_at",
        "table",
        "hand",
        "every_minutes",
        "minutes_played",
        "net_display",
        "rake_display",
    ]
    list_filter = ["table"]
    search_fields = ["player__username"]
    date_hierarchy = "sent_at"
    readonly_fields = [f.name for f in RealityCheck._meta.fields]

    @admin.display(description="net result", ordering="net")
    def net_display(self, check: RealityCheck) -> str:
        return cents_format(check.net)

    @admin.display(description="rake paid", ordering="rake_paid")
    def rake_display(self, check: RealityCheck) -> str:
        return cents_format(check.rake_paid)


@admin.register(WaitingListEntry)
class WaitingListEntryAdmin(admin.ModelAdmin):
    list_display = ["table", "player", "created_at", "offered_until"]
    list_filter = ["table"]
    readonly_fields = ["table", "player", "created_at", "offered_until"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
