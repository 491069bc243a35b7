"""Tables, seats, hands and their append-only event log, rake and waiting lists.

The database is the authority (DESIGN.md): a `Hand` holds the engine's state and the deck,
`HandEvent` rows are its log numbered by `seq`. Rows change only in tables.services.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models

from stud import Game, OddChip
from stud import RakeSchedule as EngineRakeSchedule
from stud import RakeTier as EngineRakeTier
from stud.variant import Rotation, game_choices, triple_stud_game, triple_stud_rotation

# A seat's connection count not refreshed by a heartbeat for this long is stale: its process
# died (issue #11: a crashed player showed connected for a minute). Each process beats for its
# open connections every tables.heartbeat.HEARTBEAT_SECONDS (2 s), so two beats may be late
# before a count is gone; the presence sweep (beat, every 2 s) then clears it for everyone.
PRESENCE_STALE = timedelta(seconds=6)


class RakeSchedule(models.Model):
    """A rake schedule for a range of stakes (RULES.md "Rake"); its tiers are by players."""

    name = models.CharField(max_length=80, unique=True)
    min_small_bet = models.PositiveIntegerField(help_text="Lowest small bet (cents) it covers.")
    max_small_bet = models.PositiveIntegerField(help_text="Highest small bet (cents) it covers.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["min_small_bet"]

    def __str__(self) -> str:
        return self.name

    def to_engine(self) -> EngineRakeSchedule:
        return EngineRakeSchedule(tuple(tier.to_engine() for tier in self.tiers.all()))


class RakeTier(models.Model):
    """One row: players dealt in, and either `amount` per full `every` cents of pot or
    `amount` at each threshold reached, never more than `cap`."""

    schedule = models.ForeignKey(RakeSchedule, on_delete=models.CASCADE, related_name="tiers")
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Blank: no limit"
    )
    amount = models.PositiveIntegerField(help_text="Cents taken per step.")
    every = models.PositiveIntegerField(default=0, help_text="Per full N cents (0: thresholds).")
    thresholds = models.JSONField(default=list, blank=True, help_text="Pot sizes in cents.")
    cap = models.PositiveIntegerField(help_text="Most taken from one hand, in cents.")

    class Meta:
        ordering = ["schedule", "min_players"]

    def __str__(self) -> str:
        top = "+" if self.max_players is None else f"-{self.max_players}"
        return f"{self.schedule}: {self.min_players}{top} players"

    def to_engine(self) -> EngineRakeTier:
        return EngineRakeTier(
            min_players=self.min_players,
            max_players=self.max_players,
            cap=self.cap,
            amount=self.amount,
            every=self.every,
            thresholds=tuple(int(t) for t in self.thresholds),
        )


class Table(models.Model):
    """A cash table (R-GAME-2). Stakes in cents."""

    name = models.CharField(max_length=60, unique=True)
    game = models.CharField(max_length=8, choices=game_choices(), default=Game.STUD.value)
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField(default=8)
    buy_in = models.PositiveIntegerField(help_text="Posted minimum buy-in, cents (R-BUY-1).")
    action_clock = models.PositiveSmallIntegerField(default=10, help_text="Seconds (R-BET-7).")
    time_bank = models.PositiveSmallIntegerField(
        default=30, help_text="Seconds of time bank each player starts with (R-BET-7)."
    )
    heads_up_raises = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Blank: unlimited heads-up raises (R-BET-4)."
    )
    odd_chip = models.CharField(
        max_length=20,
        choices=[(o.value, o.value) for o in OddChip],
        default=OddChip.HIGH_CARD_BY_SUIT.value,
    )
    rake_schedule = models.ForeignKey(
        RakeSchedule,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        help_text="Blank: not raked (R-RAKE-3).",
    )
    is_open = models.BooleanField(default=True)
    # A tournament's table (tournaments.TournamentTable): seats are drawn and moved by the
    # tournament, chips are tournament chips (never cents), nothing is raked (R-RAKE-3).
    is_tournament = models.BooleanField(default=False, editable=False)
    # R-ANTE-3: only the player in the dealer position posts the ante (tournament levels).
    dealer_only_ante = models.BooleanField(default=False)
    # R-MIX-1: rotate Stud, Razz and Stud Hi/Lo, 8 hands each (then `game` is not used).
    triple_stud = models.BooleanField(
        default=False, help_text="Triple Stud: Stud, Razz, Stud Hi/Lo, 8 hands each (R-MIX-1)."
    )
    created = models.DateTimeField(auto_now_add=True)
    # The room's bookkeeping: how many hands were dealt, and when the next one is due.
    hands_dealt = models.PositiveIntegerField(default=0, editable=False)
    next_hand_at = models.DateTimeField(null=True, blank=True, editable=False, db_index=True)

    class Meta:
        ordering = ["small_bet", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=8), name="table_seats_2_to_8"
            ),
            models.CheckConstraint(
                condition=models.Q(big_bet__gte=models.F("small_bet")),
                name="table_big_bet_at_least_small",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def game_of_hand(self, hand_number: int) -> str:
        """The game hand ``hand_number`` of this table is dealt as (R-MIX-1 on a Triple Stud
        table, else the table's game)."""
        return triple_stud_game(hand_number).value if self.triple_stud else self.game

    def rotation(self, *, hand_in_play: bool) -> Rotation | None:
        """Triple Stud: where the rotation stands (the hand in play, or the next to deal)."""
        if not self.triple_stud:
            return None
        number = self.hands_dealt + (0 if hand_in_play else 1)
        return triple_stud_rotation(number, hand_in_play=hand_in_play)


class Seat(models.Model):
    """A player at a table. `stack`: chips in front of them between hands; during a hand the
    engine state holds the live stack, written back here when the hand ends."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    stack = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False)
    # Presence (R-TIME-3): open WebSocket connections of the player to this table, counted in
    # the database so that every Daphne process sees the same number; connected = count > 0.
    # A new seat is presumed connected (the player just sat down) until the consumer counts.
    connected = models.BooleanField(default=True)
    connections = models.PositiveIntegerField(default=0)
    # The last connect or heartbeat: a count not refreshed for PRESENCE_STALE (a process
    # that died without closing its connections) no longer keeps the player "connected".
    last_seen = models.DateTimeField(null=True, blank=True)
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    # R-BET-7: the player's time bank left here (ms; the table's option when seated) and the
    # hands dealt to this seat (5 s more every 10, at most 60 s: stud/time_bank.py).
    time_bank_ms = models.PositiveIntegerField(default=30_000)
    hands_dealt = models.PositiveIntegerField(default=0)
    ante_confirmed = models.BooleanField(default=False)  # R-ANTE-1 "I'm in" for the next hand
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}: {self.player}"

    def present(self, now: datetime) -> bool:
        """Connected, and not by a count gone stale (no heartbeat for PRESENCE_STALE)."""
        return self.connected and (self.last_seen is None or now - self.last_seen < PRESENCE_STALE)


class TimeBankKept(models.Model):
    """R-BET-7: what is used of a time bank is gone, for the day (the room's, New York): a
    player who leaves a table keeps here what was left of their bank there, and sitting down
    again the same day starts from it, not from a full bank (issue #22)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    time_bank_ms = models.PositiveIntegerField()
    hands_dealt = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="time_bank_kept_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} on {self.day}: {self.time_bank_ms} ms"


class Hand(models.Model):
    """One hand: the engine's state (JSON, deck included: never sent to a client)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    state = models.JSONField()
    deck = models.JSONField()
    salt = models.CharField(max_length=64, blank=True)  # scheme 1's one salt
    commitment = models.CharField(max_length=64)
    # DESIGN "Fairness": 1, the whole deck and one salt (hands dealt before card by card);
    # 2, a salt for each position (`salts`, in deck order: never sent but for cards shown).
    fairness_scheme = models.PositiveSmallIntegerField(default=1)
    salts = models.JSONField(default=list, blank=True)
    reshuffle_seed = models.BigIntegerField(default=0)
    seq = models.PositiveIntegerField(default=0)
    action_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    button = models.PositiveSmallIntegerField()
    # Seats dealt in -> player id, so the log can be read after seats change.
    players = models.JSONField(default=dict)
    # Seats dealt in -> the Seat row dealt (its id): a seat is in this hand only if it is that
    # row. A seat taken during the hand is a new row and never part of it (issue #11).
    seat_ids = models.JSONField(default=dict)
    # Seats that timed out in this hand (R-SIT-1 counts hands in a row with a time-out).
    timed_out_seats = models.JSONField(default=list)
    # R-BET-7: the seat to act whose action clock ran out and who is on their time bank now,
    # and since when (action_deadline is then the bank's end). None: on the action clock.
    time_bank_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    time_bank_since = models.DateTimeField(null=True, blank=True)
    # The broadcast naming the player to act was lost (the channel layer was down, issue #22):
    # the room could not reach them, so when the clock runs out it starts again instead of
    # their time bank (R-TIME-3). Cleared by each new turn; set again by a broadcast lost.
    turn_unsent = models.BooleanField(default=False)
    # Seats whose player left mid-hand -> the chips cashed out then (the hand abandoned at
    # once); chips the engine hands them later (an uncalled bet returned) follow at the end.
    left_seats = models.JSONField(default=dict)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    def seat_is_dealt(self, seat: Seat) -> bool:
        """Is this seat row the one dealt into the hand at its number? (Not one taken since,
        at the same number or by the same player.)"""
        return self.seat_ids.get(str(seat.number)) == seat.pk

    def held_numbers(self) -> set[int]:
        """Seat numbers vacated during this hand: held until it ends (R-BUY-1 and R-GAME-4:
        the chips left in the pot still belong to that place), so nobody sits there mid-hand."""
        return {int(number) for number in self.left_seats}


class HandPlayer(models.Model):
    """Who was dealt into a hand, one row per seat: the index behind a player's hand history
    (`Hand.players` says the same as JSON, which no index serves)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="dealt")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands_dealt"
    )
    seat = models.PositiveSmallIntegerField()
    # Written when the hand ends (issue #26's reality checks): the chips the seat ended with
    # less those it started with (the rake already out of the pot), and its share of the
    # rake (stud.rake.rake_paid_shares). None: the hand has not ended, or ended before these.
    net = models.BigIntegerField(null=True, blank=True)
    rake_paid = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="hand_player_unique_seat")
        ]
        indexes = [models.Index(fields=["player", "hand"], name="hand_player_by_player")]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class HandEventIsPermanent(Exception):
    """Hand events are written once and never changed or deleted (like the ledger)."""


class HandEventQuerySet(models.QuerySet["HandEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise HandEventIsPermanent("hand events cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise HandEventIsPermanent("hand events cannot be deleted")


class HandEvent(models.Model):
    """One entry of a hand's log. `visible_to`: the seat number that may see it, or null for
    a public event."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    visible_to = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = HandEventQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="hand_event_unique_seq")
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise HandEventIsPermanent("hand events cannot be changed once written")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise HandEventIsPermanent("hand events cannot be deleted")


class RakeEntry(models.Model):
    """Rake taken from one hand (R-RAKE-2), for the accounting export."""

    hand = models.OneToOneField(Hand, on_delete=models.PROTECT, related_name="rake_entry")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rake_entries")
    amount = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    players = models.PositiveSmallIntegerField()
    schedule = models.ForeignKey(RakeSchedule, on_delete=models.PROTECT, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "rake entries"

    def __str__(self) -> str:
        return f"{self.amount}c from {self.hand}"


class WaitingListEntry(models.Model):
    """A player waiting for a seat at a full table; `offered_until` set while a seat is
    held for them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="waiting_list")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waiting_lists"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    offered_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        verbose_name_plural = "waiting list entries"
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="waiting_list_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.table}"


class HistoryEmailRequest(models.Model):
    """A player's "Email me these hands" (R-HIST-2): which hands, where to, and when it went.
    Written by histories.services; counted for the per-hour limit."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="history_emails"
    )
    hand_ids = models.JSONField(default=list)
    email = models.EmailField()
    created_at = models.DateTimeField(db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "-created_at"], name="history_email_recent")]

    def __str__(self) -> str:
        return f"{len(self.hand_ids)} hand(s) for {self.player}"

    @property
    def status(self) -> str:
        if self.sent_at is not None:
            return "sent"
        return "failed" if self.error else "pending"


class PlaySession(models.Model):
    """A player's run of play at the cash tables (issue #26, reality checks;
    tables/services/reality_checks.py): it starts with the first hand they are dealt after
    30 minutes without a hand (`started_at`: that hand's start) and goes on while they are
    dealt hands less than 30 minutes apart, or stay seated at the table between them.
    `checked_from`: the session's start, then the time of its last reality check: the next
    is due that many minutes later (the player's setting, 60 by default)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_sessions"
    )
    started_at = models.DateTimeField()
    last_played_at = models.DateTimeField(db_index=True)
    checked_from = models.DateTimeField()
    checks = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["player", "last_played_at"], name="play_session_last")]

    def __str__(self) -> str:
        return f"{self.player} from {self.started_at:%Y-%m-%d %H:%M}"


class RealityCheck(models.Model):
    """One reality check sent to a player (issue #26): the `number`th of its session, once
    (unique), at `table` after `hand` (None: between hands, sent by the clock sweep), with
    the figures the notice showed (cents, minutes)."""

    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="sent")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reality_checks"
    )
    number = models.PositiveIntegerField()
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, related_name="+")
    sent_at = models.DateTimeField(db_index=True)
    every_minutes = models.PositiveIntegerField()
    minutes_played = models.PositiveIntegerField()
    net = models.BigIntegerField()
    rake_paid = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="reality_check_once_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"reality check {self.number} of {self.player} at {self.sent_at:%Y-%m-%d %H:%M}"
