"""Hands a player brought from their own history files (issue #24 item 5).

Opening a file stores nothing: it is read, checked and shown from the request alone. Only
"Keep in my account" writes an ``ImportedHand`` (histories.services), and only its owner reads
it (histories.selectors).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportedHand(models.Model):
    """One hand of a player's own PHH or PokerStars text file, kept in their account: the
    hand's text as the file gave it (read and checked again each time it is shown, so what
    is kept is the player's file, not our reading of it) and what the list shows of it."""

    FORMATS = [("pokerstars", "PokerStars text"), ("phh", "PHH")]

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_hands"
    )
    format = models.CharField(max_length=16, choices=FORMATS)
    title = models.CharField(max_length=120)  # "PokerStars Hand #35874004239"
    game = models.CharField(max_length=16)  # stud.variant.Game
    table_name = models.CharField(max_length=120, blank=True)
    started_at = models.CharField(max_length=60, blank=True)  # as the file writes it
    source = models.TextField()
    digest = models.CharField(max_length=64)  # SHA-256 of the source: kept once per player
    kept_at = models.DateTimeField()

    class Meta:
        ordering = ["-kept_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "digest"], name="imported_hand_once")
        ]
        indexes = [models.Index(fields=["player", "-kept_at"], name="imported_hand_recent")]

    def __str__(self) -> str:
        return f"{self.title} kept by {self.player}"
