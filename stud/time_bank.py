"""R-BET-7's time bank: extra seconds a player may spend after the action clock, topped up
as hands are dealt to them. Pure arithmetic in milliseconds; the room keeps the balance on
the seat and runs the clock (tables/services/flow.py)."""

from __future__ import annotations

TIME_BANK_DEFAULT_SECONDS = 30  # the table option's default: each player starts with this
TIME_BANK_TOP_UP_MS = 5_000  # added ...
TIME_BANK_TOP_UP_EVERY = 10  # ... for every this many hands dealt to the player
TIME_BANK_MAX_MS = 60_000  # never more than this


def time_bank_start_ms(table_seconds: int) -> int:
    """What a player sitting down starts with: the table's option, at most the maximum."""
    return min(TIME_BANK_MAX_MS, max(0, table_seconds) * 1000)


def time_bank_after_deal(bank_ms: int, hands_dealt: int) -> int:
    """The bank once a hand is dealt to the player, `hands_dealt` counting it: 5 s more on
    every tenth, at most 60 s."""
    if hands_dealt > 0 and hands_dealt % TIME_BANK_TOP_UP_EVERY == 0:
        return min(TIME_BANK_MAX_MS, bank_ms + TIME_BANK_TOP_UP_MS)
    return bank_ms


def time_bank_after_use(bank_ms: int, used_ms: int) -> int:
    """What is used is gone (never below nothing)."""
    return max(0, bank_ms - max(0, used_ms))
