"""Tournaments, their levels, entries, tables and the audit of staff actions on them.

Money (buy-in, fee, add-on, prizes) is integer cents and moves only as wallet ledger lines
(accounts.services); tournament chips are plain integers on the tournament's `tables.Seat`
rows and never mix with cents. Rows change only in tournaments.services.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from stud import Game
from stud.variant import TRIPLE_STUD_NAME, game_choices, variant_of


class TournamentStatus(models.TextChoices):
    ANNOUNCED = "announced", "Announced"  # visible, registration not open yet
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    ON_BREAK = "on_break", "On break"
    PAUSED = "paused", "Paused"  # by staff (R-TOUR-5)
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


# A tournament in one of these is being played: its tables exist and its clock counts.
IN_PLAY = frozenset({TournamentStatus.RUNNING, TournamentStatus.ON_BREAK, TournamentStatus.PAUSED})
# Registration (and unregistering) is open in these.
OPEN_FOR_ENTRY = frozenset({TournamentStatus.REGISTERING})
# Over: nothing may change any more (staff actions refused).
OVER = frozenset({TournamentStatus.FINISHED, TournamentStatus.CANCELLED})


class Tournament(models.Model):
    """A stud event (seed 004): one game of the stud family, or Triple Stud's rotation
    (R-MIX-1). Defaults are R-TOUR-1 and R-TOUR-8's."""

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=8, choices=game_choices(), default=Game.STUD.value)
    # R-MIX-1: every table of the tournament rotates Stud, Razz and Stud Hi/Lo, 8 hands each,
    # counted at that table (then `game` is not used), as a Triple Stud cash table does.
    triple_stud = models.BooleanField(
        default=False,
        help_text="Triple Stud: each table rotates Stud, Razz, Stud Hi/Lo, 8 hands each "
        "(R-MIX-1); the game above is then not used.",
    )
    # Money, in cents: the buy-in goes to the prize pool, the fee is the house's (R-TOUR-9).
    buy_in = models.PositiveIntegerField(default=4000)
    fee = models.PositiveIntegerField(default=0)
    starting_chips = models.PositiveIntegerField(default=800)
    add_on_price = models.PositiveIntegerField(default=1500, help_text="Cents; 0: no add-on.")
    add_on_chips = models.PositiveIntegerField(default=400)
    # R-TOUR-1: the add-on may be bought before the first hand of this level is dealt.
    add_on_until_level = models.PositiveSmallIntegerField(default=6)
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=16)
    # When it starts: at `starts_at`, or as soon as `start_when_registered` players are in
    # (a sit-and-go), whichever the staff set (both: whichever comes first).
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    start_when_registered = models.PositiveSmallIntegerField(null=True, blank=True)
    action_clock = models.PositiveSmallIntegerField(default=10, help_text="Seconds (R-BET-7).")
    time_bank = models.PositiveSmallIntegerField(default=30, help_text="Seconds (R-BET-7).")
    # R-TOUR-9: places paid as percentages (e.g. [50, 30, 20]); empty: the room's default by
    # the number of entrants.
    payout_percentages = models.JSONField(default=list, blank=True)

    status = models.CharField(
        max_length=12,
        choices=TournamentStatus.choices,
        default=TournamentStatus.REGISTERING,
        db_index=True,
    )
    # The clock (DESIGN.md "Time": deadlines are data, run by the sweep). `level`: the level
    # in force on the clock (0 before the start); `level_ends_at`: when its timer expires
    # (null while paused or on break); `break_ends_at`: the end of the break in progress;
    # `clock_remaining_ms`: what was left of the level or break when staff paused.
    level = models.PositiveSmallIntegerField(default=0)
    level_ends_at = models.DateTimeField(null=True, blank=True, db_index=True)
    break_ends_at = models.DateTimeField(null=True, blank=True, db_index=True)
    clock_remaining_ms = models.PositiveIntegerField(null=True, blank=True)
    paused_from = models.CharField(max_length=12, blank=True)  # the status a pause resumes
    # R-TOUR-6: the timer of an "equal deals" level has expired; it ends at each table when
    # every player there has dealt the same number of hands since it began.
    level_timer_expired = models.BooleanField(default=False)
    # Live updates: bumped on every change the lobby shows (the WebSocket frames carry it).
    seq = models.PositiveIntegerField(default=0)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_created",
    )
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Seed 004: rules may change until the first hand is dealt; after it, nothing is edited.
    first_hand_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_players__gte=2, max_players__lte=16),
                name="tournament_players_2_to_16",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reference(self) -> str:
        """How ledger lines and rake/fee reports name this tournament."""
        return f"tournament:{self.pk}"

    @property
    def game_label(self) -> str:
        """The game where room is short (the lobby's Game column, the admin's list, the
        API), as the cash tables' `game_label`: "Stud", "Razz", "Triple Stud"."""
        if self.triple_stud:
            return TRIPLE_STUD_NAME
        return variant_of(self.game).short_name

    @property
    def game_name(self) -> str:
        """The game in full (the tournament's page, its TV clock): "Seven Card Stud",
        "Razz", "Triple Stud"."""
        if self.triple_stud:
            return TRIPLE_STUD_NAME
        return variant_of(self.game).name

    @property
    def editable(self) -> bool:
        """Seed 004: the rules may change until the first hand is dealt."""
        return self.first_hand_at is None and self.status not in OVER


class TournamentLevel(models.Model):
    """One level of the structure (R-TOUR-8): chips, not cents."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    number = models.PositiveSmallIntegerField()
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    minutes = models.PositiveSmallIntegerField(default=15)
    dealer_only_ante = models.BooleanField(default=False)  # R-ANTE-3
    equal_deals = models.BooleanField(default=False)  # R-TOUR-6
    # A break after this level (0: none), minutes. The timer stops during it (R-TOUR-5).
    break_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="level_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} level {self.number}"


class TournamentEntry(models.Model):
    """A registered player. `place` and `prize` (cents) are set at elimination and at the
    end; `chips_at_hand_start` orders eliminations in one hand (R-TOUR-7)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    registered_at = models.DateTimeField()
    add_on_at = models.DateTimeField(null=True, blank=True)
    # An add-on bought while the tournament runs: its chips wait here until the player's
    # table is between hands (never mid-hand, R-TOUR-1), then go on the seat
    # (tournaments.services.entries.add_on_chips_pending). Bought before the start: False,
    # the start seats the player with starting_chips + add_on_chips.
    add_on_pending = models.BooleanField(default=False)
    eliminated_at = models.DateTimeField(null=True, blank=True)
    eliminated_in_hand = models.ForeignKey(
        "tables.Hand", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    chips_at_hand_start = models.PositiveIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(default=0)
    # R-TOUR-6: hands this player dealt (held the button) since the level began.
    deals_this_level = models.PositiveSmallIntegerField(default=0)
    # The tables this player was moved away from (R-TOUR-3 balancing, R-TOUR-4 merge), ids
    # in order: a page of one of them opened or reconnected after the move still tells the
    # player where they went (the "moved" notice is part of the snapshot, not only a frame).
    tables_left = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "place", "registered_at", "id"]
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class TournamentTable(models.Model):
    """A table of the tournament: `number` 1 and 2 while two play; the final table after the
    merge (R-TOUR-4) is a new one. `level`: the level the table deals at (R-TOUR-5: fixed when
    a hand is dealt; R-TOUR-6: an equal-deals level may last longer at one table)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    table = models.OneToOneField(
        "tables.Table", on_delete=models.PROTECT, related_name="tournament_table"
    )
    number = models.PositiveSmallIntegerField()
    level = models.PositiveSmallIntegerField(default=1)
    # The number of the last hand dealt here before `level` applied: the level's first hand
    # here is numbered above it (R-TOUR-1: the add-on is open until that hand is dealt).
    level_from_hand = models.PositiveIntegerField(default=0)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The number of the last hand here whose end the between-hands step has settled
    # (eliminations, deals counted): the step runs again harmlessly (task and sweep).
    settled_hand_number = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_table_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


class StaffActionIsPermanent(Exception):
    """The audit of staff actions is written once and never changed or deleted."""


class TournamentStaffActionQuerySet(models.QuerySet["TournamentStaffAction"]):
    def update(self, **kwargs: Any) -> int:
        raise StaffActionIsPermanent("staff actions cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise StaffActionIsPermanent("staff actions cannot be deleted")


class TournamentStaffAction(models.Model):
    """Every staff action on a tournament (create, edit, start early, cancel, pause, resume,
    redraw): who, what, when. Append-only."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="staff_actions"
    )
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    action = models.CharField(max_length=32)
    detail = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField()

    objects = TournamentStaffActionQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} on {self.tournament}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise StaffActionIsPermanent("staff actions cannot be changed once written")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise StaffActionIsPermanent("staff actions cannot be deleted")
