"""The stakes presets staff pick from when opening a table (RULES.md "Stakes presets").

Cents throughout. Seed 000's list is kept exactly as written, odd figures included, and each
odd one says why it looks wrong; seed 003 gives no buy-in, so its presets post ten small bets
(seed 000's own ratio).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StakesPreset:
    key: str
    seed: str
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    buy_in: int
    odd: str = ""  # why staff should look twice (seed 000's figures as written)

    @property
    def label(self) -> str:
        flag = f"  [ODD: {self.odd}]" if self.odd else ""
        return (
            f"seed {self.seed}: {_money(self.small_bet)}/{_money(self.big_bet)} "
            f"(ante {_money(self.ante)}, bring-in {_money(self.bring_in)}, "
            f"buy-in {_money(self.buy_in)}){flag}"
        )


def _money(cents: int) -> str:
    return (
        f"{cents}c"
        if cents < 100
        else f"${cents // 100}" + (f".{cents % 100:02d}" if cents % 100 else "")
    )


_BRING_IN_IS_SMALL_BET = "the bring-in equals the small bet, so there is no smaller forced bet"
_FORCE_IS_BIG_BET = "the ante equals the small bet and the bring-in the big bet"


def _seed_000(
    small: int, big: int, ante: int, bring_in: int, buy_in: int, odd: str = ""
) -> StakesPreset:
    return StakesPreset(f"000-{small}-{big}", "000", small, big, ante, bring_in, buy_in, odd)


def _seed_003(small: int, big: int, ante: int, bring_in: int) -> StakesPreset:
    return StakesPreset(f"003-{small}-{big}", "003", small, big, ante, bring_in, 10 * small)


SEED_000_PRESETS: tuple[StakesPreset, ...] = (
    _seed_000(10, 20, 5, 10, 100, _BRING_IN_IS_SMALL_BET),
    _seed_000(25, 50, 12, 25, 250, _BRING_IN_IS_SMALL_BET),
    _seed_000(50, 100, 25, 50, 500, _BRING_IN_IS_SMALL_BET),
    _seed_000(100, 200, 10, 20, 1000),
    _seed_000(200, 400, 20, 40, 2000),
    _seed_000(300, 600, 300, 600, 3000, _FORCE_IS_BIG_BET),
    _seed_000(500, 1000, 500, 1000, 5000, _FORCE_IS_BIG_BET),
    _seed_000(1000, 2000, 1000, 2000, 10000, _FORCE_IS_BIG_BET),
)

SEED_003_PRESETS: tuple[StakesPreset, ...] = (
    _seed_003(25, 50, 5, 10),
    _seed_003(50, 100, 10, 15),
    _seed_003(100, 200, 25, 25),
    _seed_003(200, 400, 50, 50),
    _seed_003(300, 600, 100, 100),
    _seed_003(400, 800, 100, 100),
    _seed_003(500, 1000, 100, 200),
    _seed_003(800, 1600, 200, 200),
    _seed_003(1000, 2000, 200, 300),
    _seed_003(1500, 3000, 300, 500),
    _seed_003(2000, 4000, 500, 500),
    _seed_003(3000, 6000, 1000, 1000),
    _seed_003(5000, 10000, 1000, 1500),
)

STAKES_PRESETS: tuple[StakesPreset, ...] = SEED_000_PRESETS + SEED_003_PRESETS
PRESETS_BY_KEY: dict[str, StakesPreset] = {preset.key: preset for preset in STAKES_PRESETS}
