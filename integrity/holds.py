"""Holds staff put on a player (issue #25), asked by the table and wallet services: a
suspended player takes no seat, is stood up when the hand in play ends, and withdraws
nothing while the wallet is held for review; a second seat at a table from an address
already seated there is refused unless staff allowed that pair. A leaf like
integrity.chain: it reads and writes integrity's own rows only."""

from __future__ import annotations

from datetime import datetime

from integrity.models import SeatAddress, SharedAddressAllowance, Suspension


def is_suspended(player_id: int) -> bool:
    return Suspension.objects.filter(player_id=player_id, lifted_at__isnull=True).exists()


def suspended_among(player_ids: list[int]) -> set[int]:
    return set(
        Suspension.objects.filter(player_id__in=player_ids, lifted_at__isnull=True).values_list(
            "player_id", flat=True
        )
    )


def shared_address_seated(
    *, table_id: int, player_id: int, address: str | None, seat_ids: list[int]
) -> int | None:
    """The player seated at the table (in one of `seat_ids`, its seats now) from this
    address whom staff have not allowed to share it with `player_id`; None when there is
    none (or the address is unknown)."""
    if not address:
        return None
    others = (
        SeatAddress.objects.filter(table_id=table_id, address=address, seat_id__in=seat_ids)
        .exclude(player_id=player_id)
        .values_list("player_id", flat=True)
    )
    for other in others:
        low, high = sorted((player_id, other))
        if not SharedAddressAllowance.objects.filter(
            player_low_id=low, player_high_id=high
        ).exists():
            return int(other)
    return None


def seat_address_record(
    *, table_id: int, seat_id: int, player_id: int, address: str | None, device: str, at: datetime
) -> None:
    """Where a seat was taken from (inside the seat service's transaction)."""
    if not address:
        return
    SeatAddress.objects.create(
        table_id=table_id,
        seat_id=seat_id,
        player_id=player_id,
        address=address[:64],
        device=device[:200],
        at=at,
    )
