"""Staff: create a tournament from a structure preset (R-TOUR-8 default, turbo) or their own
levels, edit it until the first hand is dealt, start it early, cancel it (refunds), pause and
resume the clock, redraw the seats, and read the audit of every staff action.

Every change goes through the services (tournaments.services): the admin saves nothing
itself. Entries, money, edits and cancellation are `services.entries`; start early, pause,
resume and redraw are the play's (`services.play`). A refusal (TournamentRefused) is shown
as an error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Player
from accounts.money import CentsField, cents_format
from pokerroom.admin_read_only import ReadOnlyAdminMixin
from stud.tournament import LevelSpec
from tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStaffAction,
    TournamentStatus,
)
from tournaments.services.entries import (
    SETTING_FIELDS,
    levels_error,
    settings_error,
    tournament_cancel,
    tournament_create,
    tournament_edit,
)
from tournaments.services.play import (
    tournament_pause,
    tournament_redraw,
    tournament_resume,
    tournament_start_early,
)
from tournaments.services.refusals import TournamentRefused

LEVEL_FIELDS = (
    "number",
    "ante",
    "bring_in",
    "small_bet",
    "big_bet",
    "minutes",
    "dealer_only_ante",
    "equal_deals",
    "break_minutes",
)
PAID_FIELDS = ("buy_in", "fee", "add_on_price")
_NULLABLE = frozenset({"starts_at", "start_when_registered"})


class TournamentForm(forms.ModelForm):
    structure = forms.ChoiceField(
        choices=[
            ("default", "Default (R-TOUR-8: 15-minute levels, 10-minute breaks)"),
            ("turbo", "Turbo (3-minute levels, 1-minute breaks)"),
            ("", "Custom: the levels below"),
        ],
        required=False,
        initial="default",
        help_text="A preset replaces the levels below; choose Custom to keep your own.",
    )
    # Money as staff write it (issue #16): dollars and cents, stored as integer cents.
    buy_in = CentsField(initial=4000, help_text="In dollars, e.g. 40.00. Goes to the prize pool.")
    fee = CentsField(initial=0, help_text="In dollars. The house's, reported with the rake.")
    add_on_price = CentsField(initial=1500, help_text="In dollars; 0.00: no add-on.")

    class Meta:
        model = Tournament
        fields = sorted(SETTING_FIELDS)
        help_texts = {
            "payout_percentages": "Places paid, first place first, e.g. [50, 30, 20]; "
            "empty: R-TOUR-9's default by the number of entrants.",
            "start_when_registered": "A sit-and-go: starts as soon as this many are in.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The money fields above are declared, so a form built without them (read-only once
        # players have paid) must drop them itself.
        listed, excluded = self._meta.fields, self._meta.exclude or ()
        for name in PAID_FIELDS:
            if (listed is not None and name not in listed) or name in excluded:
                self.fields.pop(name, None)
        if "status" in self.fields:
            self.fields["status"] = forms.ChoiceField(
                choices=[
                    (TournamentStatus.ANNOUNCED.value, "Announced (registration not open yet)"),
                    (TournamentStatus.REGISTERING.value, "Registering"),
                ],
                initial=TournamentStatus.REGISTERING.value,
            )
            if self.instance.pk is not None and self.instance.status not in (
                TournamentStatus.ANNOUNCED,
                TournamentStatus.REGISTERING,
            ):
                self.fields.pop("status")
        if self.instance.pk is not None:
            self.fields["structure"].initial = ""
        if "payout_percentages" in self.fields:
            self.fields["payout_percentages"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        if data.get("payout_percentages") in (None, ""):
            data["payout_percentages"] = []
        probe = Tournament(pk=self.instance.pk, status=self.instance.status)
        for name in SETTING_FIELDS:
            value = data.get(name, getattr(self.instance, name))
            setattr(probe, name, value if value is not None or name in _NULLABLE else 0)
        error = settings_error(probe)
        if error is not None:
            raise forms.ValidationError(error)
        return data


class LevelFormSet(BaseInlineFormSet):
    def levels(self) -> list[LevelSpec]:
        return sorted(
            (
                LevelSpec(**{name: form.cleaned_data[name] for name in LEVEL_FIELDS})
                for form in self.forms
                if form.cleaned_data and not form.cleaned_data.get("DELETE")
            ),
            key=lambda level: level.number,
        )

    def clean(self) -> None:
        super().clean()
        if self.data.get("structure") or not self.has_changed():
            return  # a preset replaces these rows; unchanged rows stay as they are
        error = levels_error(self.levels())
        if error is not None:
            raise forms.ValidationError(error)


class TournamentLevelInline(admin.TabularInline):
    model = TournamentLevel
    formset = LevelFormSet
    fields = LEVEL_FIELDS
    extra = 0
    ordering = ["number"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or (isinstance(obj, Tournament) and obj.editable)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)


class TournamentEntryInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = TournamentEntry
    fields = readonly_fields = (
        "player",
        "registered_at",
        "add_on",
        "eliminated_at",
        "place",
        "prize_dollars",
    )
    extra = 0

    @admin.display(description="Add-on")
    def add_on(self, entry: TournamentEntry) -> str:
        if entry.add_on_at is None:
            return "—"
        pending = " (chips pending)" if entry.add_on_pending else ""
        return f"{entry.add_on_at:%Y-%m-%d %H:%M}{pending}"

    @admin.display(description="Prize")
    def prize_dollars(self, entry: TournamentEntry) -> str:
        return cents_format(entry.prize)


class TournamentStaffActionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = TournamentStaffAction
    fields = readonly_fields = ("at", "staff", "action", "detail")
    extra = 0
    verbose_name_plural = "Staff actions (audit)"


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = [
        "name",
        "game_shown",
        "status",
        "starts",
        "buy_in_and_fee",
        "starting_chips",
        "entrants",
        "level",
    ]
    list_filter = ["status", "game", "triple_stud"]
    search_fields = ["name"]
    inlines = [TournamentLevelInline, TournamentEntryInline, TournamentStaffActionInline]
    actions = [
        "start_early",
        "cancel_tournaments",
        "pause_clock",
        "resume_clock",
        "redraw_seats",
    ]
    fieldsets = [
        (None, {"fields": ["name", "game", "triple_stud", "status", "structure"]}),
        (
            "Money (cents) and chips",
            {
                "fields": [
                    "buy_in",
                    "fee",
                    "starting_chips",
                    "add_on_price",
                    "add_on_chips",
                    "add_on_until_level",
                    "payout_percentages",
                ]
            },
        ),
        (
            "Players and start",
            {"fields": ["min_players", "max_players", "starts_at", "start_when_registered"]},
        ),
        ("Clock", {"fields": ["action_clock", "time_bank"]}),
    ]
    state_fields = [
        "state",
        "money",
        "level",
        "level_ends_at",
        "break_ends_at",
        "started_at",
        "first_hand_at",
        "finished_at",
        "created_by",
    ]

    # --- what the lists and the read-only page show (money in dollars) ----------------------

    @admin.display(description="Starts")
    def starts(self, tournament: Tournament) -> str:
        parts = []
        if tournament.starts_at is not None:
            parts.append(timezone.localtime(tournament.starts_at).strftime("%Y-%m-%d %H:%M"))
        if tournament.start_when_registered:
            parts.append(f"when {tournament.start_when_registered} registered")
        return " or ".join(parts) or "—"

    @admin.display(description="Game")
    def game_shown(self, tournament: Tournament) -> str:
        """The game, or Triple Stud's rotation (R-MIX-1)."""
        return tournament.game_label

    @admin.display(description="Buy-in + fee")
    def buy_in_and_fee(self, tournament: Tournament) -> str:
        return f"{cents_format(tournament.buy_in)} + {cents_format(tournament.fee)}"

    @admin.display(description="Entrants")
    def entrants(self, tournament: Tournament) -> int:
        return tournament.entries.count()

    @admin.display(description="Status")
    def state(self, tournament: Tournament) -> str:
        return tournament.get_status_display()

    @admin.display(description="Money")
    def money(self, tournament: Tournament) -> str:
        return (
            f"buy-in {cents_format(tournament.buy_in)}, fee {cents_format(tournament.fee)}, "
            f"add-on {cents_format(tournament.add_on_price)} for {tournament.add_on_chips} chips"
        )

    # --- the form: editable until the first hand --------------------------------------------

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and not obj.editable:
            fields = ["name", "game_shown", *self.state_fields, "starting_chips"]
            return [(None, {"fields": fields})]
        if obj is not None and obj.entries.exists():
            # Players have paid: the money is shown, not edited (tournament_edit refuses it).
            return [
                (
                    title,
                    {
                        "fields": (["money"] if title and title.startswith("Money") else [])
                        + [name for name in options["fields"] if name not in PAID_FIELDS]
                    },
                )
                for title, options in self.fieldsets
            ]
        return self.fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ()
        if not obj.editable:
            return ["name", "game_shown", *self.state_fields, "starting_chips"]
        return ("money",)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Seed 004: the rules may change until the first hand is dealt; then staff read."""
        if obj is not None and not obj.editable:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # cancel instead: refunds and an audit row

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        """Nothing here: the service writes the tournament and its levels together, in
        save_related, once the levels' formset is known."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        staff = request.user if isinstance(request.user, Player) else None
        settings = {
            name: form.cleaned_data[name] for name in SETTING_FIELDS if name in form.cleaned_data
        }
        preset = form.cleaned_data.get("structure") or None
        level_sets = [formset for formset in formsets if isinstance(formset, LevelFormSet)]
        for formset in formsets:  # the service saves the levels; the admin's log reads these
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        custom = None
        if preset is None and level_sets and (not change or level_sets[0].has_changed()):
            custom = level_sets[0].levels() or None
        try:
            if not change:
                tournament = tournament_create(
                    name=settings.pop("name"),
                    staff=staff,
                    preset=preset or "default",
                    levels=custom,
                    settings=settings,
                )
                form.instance.pk = tournament.pk
                form.instance._state.adding = False
            else:
                tournament_edit(
                    tournament_id=form.instance.pk,
                    staff=staff,
                    settings=settings,
                    preset=preset,
                    levels=custom,
                )
        except TournamentRefused as refusal:
            messages.error(request, str(refusal))

    # --- actions: the staff's buttons --------------------------------------------------------

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        what: str,
        call: Callable[[Tournament, Player | None], Any],
    ) -> None:
        staff = request.user if isinstance(request.user, Player) else None
        for tournament in queryset.order_by("id"):
            try:
                call(tournament, staff)
            except TournamentRefused as refusal:
                messages.error(request, f"{tournament.name}: {refusal}")
            else:
                messages.success(request, f"{tournament.name}: {what}.")

    @admin.action(description="Cancel the selected tournaments (refund every buy-in, fee, add-on)")
    def cancel_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(
            request,
            queryset,
            "cancelled, every buy-in, fee and add-on refunded",
            lambda tournament, staff: tournament_cancel(
                tournament_id=tournament.pk, staff=staff, reason="cancelled in the admin"
            ),
        )

    def _play(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        service: Callable[..., None],
        what: str,
    ) -> None:
        self._each(
            request,
            queryset,
            what,
            lambda tournament, staff: service(
                tournament_id=tournament.pk, staff=staff, now=timezone.now()
            ),
        )

    @admin.action(description="Start the selected tournaments now")
    def start_early(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._play(request, queryset, tournament_start_early, "started")

    @admin.action(description="Pause the clock")
    def pause_clock(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._play(request, queryset, tournament_pause, "clock paused")

    @admin.action(description="Resume the clock")
    def resume_clock(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._play(request, queryset, tournament_resume, "clock resumed")

    @admin.action(description="Redraw the seats (before the first hand)")
    def redraw_seats(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._play(request, queryset, tournament_redraw, "seats redrawn")
