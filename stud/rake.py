"""Rake arithmetic from a schedule given as data (R-POT-5, R-RAKE-1, R-RAKE-3).

A schedule is a list of tiers by number of players dealt in. A tier takes either ``amount``
per full ``every`` cents of pot ("$0.25 per full $5"), or ``amount`` at each pot ``threshold``
reached ("$1 at $20, $1 more at $40"), never more than ``cap``. The stakes dimension of the
RULES.md table is the choice of schedule: ``seeded_rake_schedule`` picks seed 003's schedule
for a table's stakes, or None (not raked) outside the seeded ranges (R-RAKE-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RakeTier:
    """One row of a schedule: which table sizes it covers and what it takes."""

    min_players: int
    max_players: int | None  # None: no upper bound ("6+")
    cap: int
    amount: int
    every: int = 0  # take ``amount`` per full ``every`` cents (0: use thresholds)
    thresholds: tuple[int, ...] = ()  # take ``amount`` at each threshold reached

    def __post_init__(self) -> None:
        if self.min_players < 1 or (
            self.max_players is not None and self.max_players < self.min_players
        ):
            raise ValueError("a rake tier needs 1 <= min_players <= max_players")
        if self.cap < 0 or self.amount < 0 or self.every < 0:
            raise ValueError("rake amounts cannot be negative")
        if (self.every > 0) == bool(self.thresholds):
            raise ValueError("a rake tier takes either per `every` cents or at thresholds")
        if any(t <= 0 for t in self.thresholds) or list(self.thresholds) != sorted(self.thresholds):
            raise ValueError("rake thresholds must be positive and ascending")

    def covers(self, players: int) -> bool:
        return self.min_players <= players and (
            self.max_players is None or players <= self.max_players
        )

    def rake_for(self, pot: int) -> int:
        if self.every:
            taken = (pot // self.every) * self.amount
        else:
            taken = sum(self.amount for threshold in self.thresholds if pot >= threshold)
        return min(taken, self.cap, pot)

    def to_json(self) -> dict[str, object]:
        return {
            "min_players": self.min_players,
            "max_players": self.max_players,
            "cap": self.cap,
            "amount": self.amount,
            "every": self.every,
            "thresholds": list(self.thresholds),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RakeTier:
        max_players = data["max_players"]
        thresholds = data.get("thresholds", [])
        assert isinstance(thresholds, list)
        return cls(
            min_players=_int(data["min_players"]),
            max_players=None if max_players is None else _int(max_players),
            cap=_int(data["cap"]),
            amount=_int(data["amount"]),
            every=_int(data.get("every", 0)),
            thresholds=tuple(_int(t) for t in thresholds),
        )


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """Tiers by player count; the first tier covering the number dealt in applies."""

    tiers: tuple[RakeTier, ...]

    def rake_for(self, pot: int, players: int) -> int:
        """R-RAKE-1: ``pot`` is all pots after uncalled bets returned; ``players`` dealt in."""
        for tier in self.tiers:
            if tier.covers(players):
                return tier.rake_for(pot)
        return 0

    def to_json(self) -> dict[str, object]:
        return {"tiers": [tier.to_json() for tier in self.tiers]}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RakeSchedule:
        tiers = data["tiers"]
        assert isinstance(tiers, list)
        return cls(tuple(RakeTier.from_json(tier) for tier in tiers))


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def split_rake(rake: int, pots: list[int]) -> list[int]:
    """R-POT-5: take ``rake`` from each pot in proportion to its size, any odd cent from the
    main pot (index 0). No pot gives more than it holds."""
    total = sum(pots)
    if rake <= 0 or total <= 0:
        return [0] * len(pots)
    shares = [0] + [rake * amount // total for amount in pots[1:]]
    shares[0] = rake - sum(shares)
    # The main pot's odd cents cannot exceed it; any excess comes from the next pots.
    for index in range(len(pots)):
        excess = shares[index] - pots[index]
        if excess > 0:
            shares[index] = pots[index]
            for other in range(len(pots)):
                room = pots[other] - shares[other]
                if room > 0 and other != index:
                    moved = min(room, excess)
                    shares[other] += moved
                    excess -= moved
                    if not excess:
                        break
    return shares


def rake_paid_shares(rake: int, contributions: list[int]) -> list[int]:
    """Who paid the rake (issue #26's reality checks): each player's share is in proportion
    to the chips they put in the pot (antes and bets, after uncalled bets went back: the
    "contributed" method), whole cents by the largest remainder, a tie to the earlier player.
    The shares add up to ``rake`` exactly; nobody pays more than they put in."""
    total = sum(contributions)
    if rake <= 0 or total <= 0:
        return [0] * len(contributions)
    shares = [rake * amount // total for amount in contributions]
    remainders = [rake * amount % total for amount in contributions]
    order = sorted(range(len(contributions)), key=lambda index: (-remainders[index], index))
    for index in order[: rake - sum(shares)]:
        shares[index] += 1
    return shares


# --- seed 003's schedule (the RULES.md "Rake" table) ----------------------------------------

SMALL_STAKES_RAKE = RakeSchedule(
    (RakeTier(min_players=2, max_players=10, cap=100, amount=25, every=500),)
)
MIDDLE_STAKES_RAKE = RakeSchedule(
    (
        RakeTier(min_players=2, max_players=3, cap=100, amount=100, thresholds=(2000,)),
        RakeTier(min_players=4, max_players=5, cap=200, amount=100, thresholds=(2000, 4000)),
        RakeTier(
            min_players=6, max_players=None, cap=300, amount=100, thresholds=(2000, 4000, 6000)
        ),
    )
)
HIGH_STAKES_RAKE = RakeSchedule(
    (
        RakeTier(min_players=2, max_players=3, cap=100, amount=100, thresholds=(4000,)),
        RakeTier(min_players=4, max_players=5, cap=200, amount=100, thresholds=(4000, 7000)),
        RakeTier(
            min_players=6, max_players=None, cap=300, amount=100, thresholds=(4000, 7000, 10000)
        ),
    )
)

_SMALL_STAKES = {(50, 100), (100, 200)}
_MIDDLE_STAKES = {(200, 400), (300, 600), (400, 800), (500, 1000), (800, 1600), (1000, 2000)}
_HIGH_STAKES = {(1500, 3000), (2000, 4000)}


def seeded_rake_schedule(small_bet: int, big_bet: int) -> RakeSchedule | None:
    """Seed 003's schedule for these stakes (cents), or None outside the seeded ranges."""
    stakes = (small_bet, big_bet)
    if stakes in _SMALL_STAKES:
        return SMALL_STAKES_RAKE
    if stakes in _MIDDLE_STAKES or (200 <= small_bet <= 1000 and big_bet == 2 * small_bet):
        return MIDDLE_STAKES_RAKE
    if stakes in _HIGH_STAKES:
        return HIGH_STAKES_RAKE
    return None
