"""The live frames' sequence number: bumped in its own short transaction after the change
commits, with the snapshot read under the same row lock, so a frame with a higher seq always
shows a state at least as new (clients keep the highest seq: docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import transaction
from django.db.models import F

from tournaments.models import Tournament

T = TypeVar("T")


def tournament_seq_next(tournament_id: int, build: Callable[[Tournament], T]) -> T | None:
    """Bump the tournament's seq and build its frame under the row lock; None: no such
    tournament. Called after commit (tournaments/broadcast.py), never inside a service's
    transaction: it takes the tournament's row lock alone, so it cannot deadlock."""
    with transaction.atomic():
        updated = Tournament.objects.filter(pk=tournament_id).update(seq=F("seq") + 1)
        if not updated:
            return None
        tournament = Tournament.objects.get(pk=tournament_id)
        return build(tournament)
