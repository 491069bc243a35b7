"""Below both the reads (tables.selectors) and the writes (tables.services): the small pieces
both use, so that a selector imports no service (docs/architecture.md, "Layers").

What is here only formats or reads: a moment as sent in a frame (`iso`, `ms_left`), the
seats the next hand waits for (`ready_seats`, `ante_awaited`), the chat kept for a reload
(`chat_recent`). It imports the models and nothing above them (pyproject.toml's layers
contract)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from pokerroom.process_cache import process_cache
from tables.models import Seat, Table

CHAT_KEPT = 30
CHAT_KEPT_SECONDS = 6 * 3600


def now_or(now: datetime | None) -> datetime:
    return timezone.now() if now is None else now


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def ms_left(moment: datetime | None, now: datetime) -> int | None:
    """Milliseconds from `now` to `moment` (never below 0): sent beside each deadline, so a
    client counts down on its own monotonic clock and a skewed wall clock does not matter."""
    if moment is None:
        return None
    return max(0, round((moment - now).total_seconds() * 1000))


def ready_seats(table: Table) -> list[Seat]:
    """Seats that would be dealt in, before R-ANTE-1's confirmation (R-GAME-3, R-SIT-1)."""
    return list(
        Seat.objects.filter(table=table, sitting_out=False, stack__gt=0)
        .select_related("player")
        .order_by("number")
    )


def ante_awaited(ready: list[Seat]) -> list[int]:
    """R-ANTE-1: of the seats ready to play (`ready_seats`), the numbers of those whose player
    posts the ante by hand and has not said "I'm in" for the next hand yet."""
    return [seat.number for seat in ready if not seat.player.auto_ante and not seat.ante_confirmed]


def chat_cache_key(table_id: int) -> str:
    return f"table-chat:{table_id}"


def chat_recent(table_id: int) -> list[dict[str, Any]]:
    """The table's last chat messages, oldest first (kept by tables.services.chat)."""
    return list(process_cache().get(chat_cache_key(table_id)) or [])
