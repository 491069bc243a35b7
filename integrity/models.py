"""The room's integrity records (issue #25).

`FairnessEntry`: the public, append-only hash chain of every hand's deck commitment (DESIGN.md
"Fairness"), written at the deal by integrity.chain. The rest serves the staff's review of
collusion: the signals found per pair of players, the cases staff open on a pair, the seats
staff allow two players to share from one address, and the holds a suspension puts on a
player's play and wallet.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class ChainIsAppendOnly(Exception):
    """An entry of the fairness chain is written once and never changed or deleted."""


class FairnessEntryQuerySet(models.QuerySet["FairnessEntry"]):
    def update(self, **kwargs: Any) -> int:
        raise ChainIsAppendOnly("fairness chain entries cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ChainIsAppendOnly("fairness chain entries cannot be deleted")


class FairnessEntry(models.Model):
    """One link of the chain: entry `index` (0, 1, 2, ...) records hand `hand_id` of table
    `table_id`, dealt at `at` (UTC, ISO text exactly as hashed), with its deck `commitment`;
    `previous_hash` is the entry_hash of entry index - 1 (64 zeros for the first), and
    `entry_hash` is SHA-256 of the line integrity.chain.entry_line gives. Hand and table are
    plain numbers, not keys: the chain outlives anything done to the rows it names."""

    index = models.PositiveBigIntegerField(unique=True)
    hand_id = models.PositiveBigIntegerField(unique=True)
    table_id = models.PositiveBigIntegerField()
    at = models.CharField(max_length=40)
    commitment = models.CharField(max_length=64)
    previous_hash = models.CharField(max_length=64)
    entry_hash = models.CharField(max_length=64, unique=True)

    objects = FairnessEntryQuerySet.as_manager()

    class Meta:
        ordering = ["index"]
        verbose_name_plural = "fairness entries"

    def __str__(self) -> str:
        return f"chain entry {self.index}: hand {self.hand_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ChainIsAppendOnly("fairness chain entries cannot be changed once written")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ChainIsAppendOnly("fairness chain entries cannot be deleted")


# --- seats from one address ---------------------------------------------------------------


class SeatAddress(models.Model):
    """The network address (and device: the browser's user agent) a seat was taken from,
    written by the seat service. A second seat at a table from an address already seated there
    is refused unless staff allowed that pair (SharedAddressAllowance)."""

    table_id = models.PositiveBigIntegerField(db_index=True)
    seat_id = models.PositiveBigIntegerField(unique=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_addresses"
    )
    address = models.CharField(max_length=64)
    device = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["table_id", "address"], name="seat_address_table")]

    def __str__(self) -> str:
        return f"seat {self.seat_id} at table {self.table_id} from {self.address}"


class SharedAddressAllowance(models.Model):
    """Staff allow two players to sit at one table from one address (a couple at home), with
    the reason recorded. `player_low` has the lower id."""

    player_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    player_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=300)
    allowed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player_low", "player_high"], name="shared_address_pair_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_low} & {self.player_high} may share an address"


# --- the signals per pair -----------------------------------------------------------------


class IntegrityScan(models.Model):
    """How far the signals have read the hand log (one row): hands with a larger id are new."""

    last_hand_id = models.PositiveBigIntegerField(default=0)
    hands_read = models.PositiveBigIntegerField(default=0)
    scanned_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"signals read to hand {self.last_hand_id}"


class PlayerTally(models.Model):
    """A player's own counts the pair signals compare with (raise rates heads-up against
    everyone)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="integrity_tally"
    )
    counts = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"counts of {self.player}"


class PairReview(models.Model):
    """Two players who played hands together: the counts read from those hands (`counts`,
    by direction "low>high" and "high>low"), the signals found in them (each in words, with
    its hands), a score to rank pairs by, and whether it is flagged for staff."""

    player_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    player_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    hands_together = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict)
    signals = models.JSONField(default=list)
    score = models.FloatField(default=0.0, db_index=True)
    flagged = models.BooleanField(default=False, db_index=True)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-score", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player_low", "player_high"], name="pair_review_once")
        ]

    def __str__(self) -> str:
        return f"{self.player_low} & {self.player_high}"


# --- cases and their decisions ------------------------------------------------------------


class CaseStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLEARED = "cleared", "Cleared"
    WARNED = "warned", "Warned"
    SUSPENDED = "suspended", "Suspended"


class IntegrityCase(models.Model):
    """Staff's case on a pair: notes, then a decision (cleared, warned, suspended)."""

    pair = models.ForeignKey(PairReview, on_delete=models.PROTECT, related_name="cases")
    status = models.CharField(max_length=12, choices=CaseStatus.choices, default=CaseStatus.OPEN)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        permissions = [("review_integrity", "Can review collusion and decide integrity cases")]

    def __str__(self) -> str:
        return f"case #{self.pk} on {self.pair}: {self.status}"


class CaseNote(models.Model):
    case = models.ForeignKey(IntegrityCase, on_delete=models.CASCADE, related_name="notes")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(max_length=4000)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"note on case {self.case_id} by {self.staff}"


class Suspension(models.Model):
    """A player suspended by a case: no new seat, no new hand (the hand in play finishes,
    then they are stood up and their chips go back to the wallet), and the wallet held for
    review: no withdrawal while it lasts. Nothing of the ledger changes (a ledger-safe
    state): the balance stays the sum of its rows. `lifted_at` ends it."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="suspensions"
    )
    case = models.ForeignKey(IntegrityCase, on_delete=models.PROTECT, related_name="suspensions")
    since = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["player", "lifted_at"], name="suspension_player")]

    def __str__(self) -> str:
        return f"{self.player} suspended since {self.since:%Y-%m-%d}"
