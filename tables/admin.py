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
from accounts.money import cents_format
from pokerroom.admin_read_only import ReadOnlyAdminMixin
from pokerroom.room_day import room_day
from tables import services
from tables.models import (
    Hand,
    HandEvent,
    RakeEntry,
    RakeSchedule,
    RakeTier,
    Seat,
    Table,
    WaitingListEntry,
)
from tables.presets import PRESETS_BY_KEY, STAKES_PRESETS
from tables.selectors import rake_schedule_for_stakes

STAKES_FIELDS = ("small_bet", "big_bet", "ante", "bring_in", "buy_in")


class TableForm(forms.ModelForm):
    """A preset fills the stakes (RULES.md "Stakes presets"); seed 000's odd figures are
    kept as written and flagged in the choice's label."""

    preset = forms.ChoiceField(
        choices=[("", "— enter the stakes by hand —")]
        + [(preset.key, preset.label) for preset in STAKES_PRESETS],
        required=False,
        help_text="Fills small bet, big bet, ante, bring-in and buy-in (cents). "
        "Presets marked ODD are seed 000's figures as written.",
    )

    class Meta:
        model = Table
        fields = [
            "name",
            "game",
            *STAKES_FIELDS,
            "seats",
            "action_clock",
            "time_bank",
            "heads_up_raises",
            "odd_chip",
            "rake_schedule",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in STAKES_FIELDS:
            if name in self.fields:
                self.fields[name].required = False

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


class RakeTierInline(admin.TabularInline):
    model = RakeTier
    extra = 0


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

    list_display = ["name", "min_small_bet", "max_small_bet"]
    inlines = [RakeTierInline]
    readonly_fields = ["preview"]
    fields = ["name", "min_small_bet", "max_small_bet", "preview"]

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
        "stack",
        "sitting_out",
        "connected",
        "timeouts_in_a_row",
    )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = [
        "name",
        "game",
        "small_bet",
        "big_bet",
        "ante",
        "bring_in",
        "buy_in",
        "seats",
        "rake_schedule",
        "is_open",
        "hands_dealt",
    ]
    list_filter = ["game", "is_open"]
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


@admin.register(RakeEntry)
class RakeEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["hand", "table", "amount", "small_bet", "big_bet", "players", "created_at"]
    list_filter = ["table"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in RakeEntry._meta.fields]
    actions = ["rake_report_for_selection"]

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


@admin.register(WaitingListEntry)
class WaitingListEntryAdmin(admin.ModelAdmin):
    list_display = ["table", "player", "created_at", "offered_until"]
    list_filter = ["table"]
    readonly_fields = ["table", "player", "created_at", "offered_until"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
