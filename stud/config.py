"""What a table deals: the game, the stakes and the options (R-GAME-1, R-GAME-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from stud.rake import RakeSchedule
from stud.variant import VARIANTS, Game, Variant

__all__ = ["Game", "GameConfig", "OddChip", "SeatSetup"]


class OddChip(StrEnum):
    HIGH_CARD_BY_SUIT = "high_card_by_suit"
    LEFT_OF_BUTTON = "left_of_button"


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Stakes in integer cents.

    A ``bring_in`` at or above the small bet is posted as the round's full bet (the seed 000
    presets that list one are kept as written).
    """

    game: Game
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    heads_up_raises: int | None = None  # None: unlimited heads-up (R-BET-4); else raises
    odd_chip: OddChip = OddChip.HIGH_CARD_BY_SUIT
    dealer_only_ante: bool = False  # R-ANTE-3 (tournaments)
    max_raises: int = 3  # a bet and three raises (R-BET-3)
    rake: RakeSchedule | None = None  # R-POT-5 / R-RAKE-1; None: no rake
    # the game's rules as data and hooks (stud/variant.py): derived from ``game``, never stored
    variant: Variant = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            object.__setattr__(self, "game", Game(self.game))
        object.__setattr__(self, "variant", VARIANTS[self.game])
        if not isinstance(self.odd_chip, OddChip):
            object.__setattr__(self, "odd_chip", OddChip(self.odd_chip))
        if self.small_bet <= 0 or self.big_bet < self.small_bet:
            raise ValueError("stakes need 0 < small_bet <= big_bet")
        if self.ante < 0:
            raise ValueError("the ante cannot be negative")
        if self.bring_in <= 0:
            raise ValueError("the bring-in must be at least one cent")
        if self.max_raises < 0 or (self.heads_up_raises is not None and self.heads_up_raises < 0):
            raise ValueError("raise limits cannot be negative")

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game.value,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "ante": self.ante,
            "bring_in": self.bring_in,
            "heads_up_raises": self.heads_up_raises,
            "odd_chip": self.odd_chip.value,
            "dealer_only_ante": self.dealer_only_ante,
            "max_raises": self.max_raises,
            "rake": None if self.rake is None else self.rake.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameConfig:
        rake = data.get("rake")
        heads_up = data.get("heads_up_raises")
        return cls(
            game=Game(str(data["game"])),
            small_bet=_int(data["small_bet"]),
            big_bet=_int(data["big_bet"]),
            ante=_int(data["ante"]),
            bring_in=_int(data["bring_in"]),
            heads_up_raises=None if heads_up is None else _int(heads_up),
            odd_chip=OddChip(str(data.get("odd_chip", OddChip.HIGH_CARD_BY_SUIT.value))),
            dealer_only_ante=bool(data.get("dealer_only_ante", False)),
            max_raises=_int(data.get("max_raises", 3)),
            rake=None if rake is None else RakeSchedule.from_json(_mapping(rake)),
        )


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """A player dealt in: table seat number (1..8), name, stack in cents, auto-muck setting."""

    seat: int
    name: str
    stack: int
    auto_muck: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "name": self.name,
            "stack": self.stack,
            "auto_muck": self.auto_muck,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SeatSetup:
        return cls(
            seat=_int(data["seat"]),
            name=str(data["name"]),
            stack=_int(data["stack"]),
            auto_muck=bool(data.get("auto_muck", True)),
        )


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected an object, got {value!r}")
    return value
