"""Tournament structures as data (R-TOUR-8): the room's default and the turbo preset.

Chips, not cents. Each level: ante, bring-in, small and big bet, minutes, whether only the
dealer antes (R-ANTE-3), whether it ends only when every player has dealt equally (R-TOUR-6),
and the break after it (minutes, 0: none). Levels past the last double ante, bring-in and bets.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class LevelSpec:
    number: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int = 15
    dealer_only_ante: bool = False
    equal_deals: bool = False
    break_minutes: int = 0


# R-TOUR-8's table: 15-minute levels, 10-minute breaks after levels 5 and 9.
DEFAULT_STRUCTURE: tuple[LevelSpec, ...] = (
    LevelSpec(1, ante=5, bring_in=5, small_bet=10, big_bet=20),
    LevelSpec(2, ante=5, bring_in=10, small_bet=20, big_bet=40),
    LevelSpec(
        3, ante=25, bring_in=10, small_bet=25, big_bet=50, dealer_only_ante=True, equal_deals=True
    ),
    LevelSpec(4, ante=10, bring_in=15, small_bet=30, big_bet=60),
    LevelSpec(5, ante=10, bring_in=25, small_bet=50, big_bet=100, break_minutes=10),
    LevelSpec(6, ante=15, bring_in=25, small_bet=60, big_bet=120),
    LevelSpec(7, ante=25, bring_in=50, small_bet=100, big_bet=200),
    LevelSpec(8, ante=25, bring_in=50, small_bet=150, big_bet=300),
    LevelSpec(9, ante=50, bring_in=75, small_bet=200, big_bet=400, break_minutes=10),
    LevelSpec(10, ante=50, bring_in=100, small_bet=300, big_bet=600),
    LevelSpec(11, ante=75, bring_in=150, small_bet=400, big_bet=800),
    LevelSpec(12, ante=100, bring_in=200, small_bet=600, big_bet=1200),
)

# R-TOUR-8: the same levels at 3 minutes, 1-minute breaks, for quick events and demos.
TURBO_STRUCTURE: tuple[LevelSpec, ...] = tuple(
    replace(level, minutes=3, break_minutes=1 if level.break_minutes else 0)
    for level in DEFAULT_STRUCTURE
)
