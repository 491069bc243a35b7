"""The room's integrity records (issue #25).

`FairnessEntry`: the public, append-only hash chain of every hand's deck commitment (DESIGN.md
"Fairness"), written at the deal by integrity.chain. The rest serves the staff's review of
collusion: the signals found per pair of players, the cases staff open on a pair, the seats
staff allow two players to share from one address, and the holds a suspension puts on a
player's play and wallet.
"""

from __future__ import annotations

from typing import Any

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
