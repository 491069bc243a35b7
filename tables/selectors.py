"""Reads about the tables that other apps need."""

from __future__ import annotations


def room_chip_totals() -> dict[str, int]:
    """The money the room holds outside players' balances, in cents.

    Keys: "on_tables" (chips in front of seated players), "in_pots" (chips in the pots of hands
    in progress), "rake" (rake collected) and "tournament_pool" (tournament fees paid in, less
    prizes paid out). `manage.py audit_chips` adds these to the players' balances and checks the
    sum against the money put in (deposits less withdrawals, plus adjustments).

    The live tables fill it in: until the tables exist the room holds nothing, so all are zero.
    """
    return {"on_tables": 0, "in_pots": 0, "rake": 0, "tournament_pool": 0}
