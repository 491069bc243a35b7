"""Payouts (R-TOUR-9): who gets what of a tournament's prize pool, in cents.

The prize pool is every buy-in and add-on; an entry fee is the house's and never in it. Places
paid by the number of entrants: 2-4: 1 (100%); 5-7: 2 (65/35); 8-12: 3 (50/30/20); 13-16: 4
(40/27/20/13); staff may set other percentages. Each place gets its percentage of the pool
rounded down to the cent; the cents left by rounding go to first place. Players eliminated in
the same hand who tie under R-TOUR-7 hold the same place and split the prizes of the places
they share (two tied for 3rd share the prizes of 3rd and 4th); the cents left by that split
go to first place too.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)
Percentage = int | float | str | Fraction

# (fewest entrants, most entrants, percentages by place)
DEFAULT_PAYOUTS: tuple[tuple[int, int, tuple[int, ...]], ...] = (
    (2, 4, (100,)),
    (5, 7, (65, 35)),
    (8, 12, (50, 30, 20)),
    (13, 16, (40, 27, 20, 13)),
)


def default_percentages(entrants: int) -> tuple[int, ...]:
    """R-TOUR-9's places paid for this many entrants (fewer than 2: nothing is paid)."""
    for fewest, most, percentages in DEFAULT_PAYOUTS:
        if fewest <= entrants <= most:
            return percentages
    if entrants > DEFAULT_PAYOUTS[-1][1]:
        return DEFAULT_PAYOUTS[-1][2]
    return ()


def percentages_error(percentages: Sequence[Percentage]) -> str | None:
    """Why staff's percentages cannot be used, or None: each above 0, together exactly 100."""
    try:
        parts = [Fraction(str(value)) for value in percentages]
    except (ValueError, ZeroDivisionError):
        return "Each payout percentage must be a number."
    if not parts:
        return None  # the room's default by entrants
    if any(part <= 0 for part in parts):
        return "Each payout percentage must be more than 0."
    if sum(parts) != 100:
        return f"The payout percentages must add up to 100, not {float(sum(parts)):g}."
    return None


def prize_pool(*, buy_in: int, entrants: int, add_on_price: int = 0, add_ons: int = 0) -> int:
    """Every buy-in and add-on, in cents (R-TOUR-9)."""
    return buy_in * entrants + add_on_price * add_ons


def prizes_by_place(
    *, pool: int, entrants: int, percentages: Sequence[Percentage] = ()
) -> tuple[int, ...]:
    """The prize of each place paid, first place first, in cents; they add up to `pool`.

    `percentages` empty: R-TOUR-9's default for `entrants`. Never more places than
    entrants: the percentages of places nobody can finish in go to first place with the
    cents left by rounding.
    """
    shares = [Fraction(str(value)) for value in percentages] or [
        Fraction(value) for value in default_percentages(entrants)
    ]
    shares = shares[: max(entrants, 0)]
    if not shares or pool <= 0:
        return ()
    prizes = [int(pool * share / 100) for share in shares]  # rounded down (pool >= 0)
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


def prizes_by_player(
    *, pool: int, places: Mapping[Key, int], percentages: Sequence[Percentage] = ()
) -> dict[Key, int]:
    """Each finisher's prize in cents, from their place (1 = the winner).

    Players tied under R-TOUR-7 hold the same place, the best of those they share: two
    players in 3rd share the prizes of 3rd and 4th, and the next player is 5th. The cents
    left when a shared prize does not split evenly go to first place. The prizes add up to
    `pool` (or 0 when nobody finished).
    """
    entrants = len(places)
    by_place = prizes_by_place(pool=pool, entrants=entrants, percentages=percentages)
    groups: dict[int, list[Key]] = {}
    for key, place in places.items():
        groups.setdefault(place, []).append(key)
    prizes: dict[Key, int] = {key: 0 for key in places}
    left = pool - sum(by_place)
    for place, tied in sorted(groups.items()):
        shared = sum(by_place[place - 1 : place - 1 + len(tied)])
        each, rest = divmod(shared, len(tied))
        for key in tied:
            prizes[key] = each
        left += rest
    if left and places:
        first = min(groups)
        winners = groups[first]
        each, rest = divmod(left, len(winners))
        for index, key in enumerate(winners):
            prizes[key] += each + (1 if index < rest else 0)
    return prizes
