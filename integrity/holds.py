"""Holds staff put on a player (issue #25), asked by the table and wallet services: a
suspended player takes no seat, is stood up when the hand in play ends, and withdraws
nothing while the wallet is held for review; a second seat at a table from an address
already seated there is refused unless staff allowed that pair. A leaf like
integrity.chain: it reads and writes integrity's own rows only."""

from __future__ import annotations

import ipaddress
from datetime import datetime

from django.conf import settings

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
    none (or the address is unknown, or one the room cannot tell players apart by)."""
    if not address or address_is_shared_by_design(address):
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


def address_is_shared_by_design(address: str) -> bool:
    """An address every client of the room may come from (settings.SEAT_ADDRESS_EXEMPT:
    loopback by default: the demo's bots and the room's own test browsers run on the room's
    machine, and a proxy that does not pass the client's address on makes every player
    loopback): a second seat from it says nothing about the players and is never refused."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(net) for net in settings.SEAT_ADDRESS_EXEMPT)


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
