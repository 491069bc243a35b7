"""How a finished hand came out: pots, winners, rake, returned bets, showdown (R-SHOW, R-POT)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from stud.cards import Card


@dataclass(frozen=True, slots=True)
class Award:
    """Chips from one pot to one seat. ``half``: "high", "low" or "whole" (uncontested, or
    stud with no low). ``hand``: the words for the hand that won it (PokerStars wording; empty
    when the pot was won without a showdown); ``five``: those five cards (empty likewise)."""

    seat: int
    amount: int
    half: str
    hand: str
    five: tuple[Card, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "amount": self.amount,
            "half": self.half,
            "hand": self.hand,
            "five": list(self.five),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Award:
        return cls(
            seat=_int(data["seat"]),
            amount=_int(data["amount"]),
            half=str(data["half"]),
            hand=str(data["hand"]),
            five=_ints(data["five"]),
        )


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot, main pot first: its size before rake, the rake taken from it, the seats that
    could win it, and what each winner got."""

    amount: int
    rake: int
    eligible: tuple[int, ...]
    awards: tuple[Award, ...]

    @property
    def high_winners(self) -> tuple[int, ...]:
        return tuple(a.seat for a in self.awards if a.half != "low")

    @property
    def low_winners(self) -> tuple[int, ...]:
        return tuple(a.seat for a in self.awards if a.half == "low")

    def to_json(self) -> dict[str, object]:
        return {
            "amount": self.amount,
            "rake": self.rake,
            "eligible": list(self.eligible),
            "awards": [award.to_json() for award in self.awards],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> PotResult:
        awards = data["awards"]
        assert isinstance(awards, list)
        return cls(
            amount=_int(data["amount"]),
            rake=_int(data["rake"]),
            eligible=_ints(data["eligible"]),
            awards=tuple(Award.from_json(award) for award in awards),
        )


@dataclass(frozen=True, slots=True)
class HandResult:
    """``uncalled``: (seat, chips) returned (R-SHOW-4); ``show_order``: seats in the order they
    showed or mucked (R-SHOW-2), empty without a showdown; ``shown``/``mucked``: (seat, cards
    in the order dealt); ``final_stacks``: (seat, chips) in table order of the deal."""

    pots: tuple[PotResult, ...]
    rake: int
    uncalled: tuple[tuple[int, int], ...]
    showdown: bool
    show_order: tuple[int, ...]
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    mucked: tuple[tuple[int, tuple[Card, ...]], ...]
    final_stacks: tuple[tuple[int, int], ...]

    def stack(self, seat: int) -> int:
        return dict(self.final_stacks)[seat]

    def won(self, seat: int) -> int:
        """Chips this seat collected from the pots (its own share included)."""
        return sum(a.amount for pot in self.pots for a in pot.awards if a.seat == seat)

    def shown_cards(self, seat: int) -> tuple[Card, ...] | None:
        return dict(self.shown).get(seat)

    @property
    def winners(self) -> tuple[int, ...]:
        seen: list[int] = []
        for pot in self.pots:
            for award in pot.awards:
                if award.seat not in seen:
                    seen.append(award.seat)
        return tuple(seen)

    def to_json(self) -> dict[str, object]:
        return {
            "pots": [pot.to_json() for pot in self.pots],
            "rake": self.rake,
            "uncalled": [list(pair) for pair in self.uncalled],
            "showdown": self.showdown,
            "show_order": list(self.show_order),
            "shown": [[seat, list(cards)] for seat, cards in self.shown],
            "mucked": [[seat, list(cards)] for seat, cards in self.mucked],
            "final_stacks": [list(pair) for pair in self.final_stacks],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> HandResult:
        pots = data["pots"]
        assert isinstance(pots, list)
        return cls(
            pots=tuple(PotResult.from_json(pot) for pot in pots),
            rake=_int(data["rake"]),
            uncalled=_pairs(data["uncalled"]),
            showdown=bool(data["showdown"]),
            show_order=_ints(data["show_order"]),
            shown=_seat_cards(data["shown"]),
            mucked=_seat_cards(data["mucked"]),
            final_stacks=_pairs(data["final_stacks"]),
        )


# The engine builds these frozen values cheaply: each is filled as a writable twin with the
# class' own slots (plain attribute stores) and then made the real class by assigning
# ``__class__`` (allowed between classes of one layout), as events are (``actions._EventSlots``).
# The dataclass' frozen ``__init__`` (one ``object.__setattr__`` per field) costs several times
# as much, and every hand's end makes at least one of each. Same values, same equality. The
# twin and its builder follow from the dataclass' fields (issue #12): a builder is written out
# at import, one store per field, so it costs what a hand-written one did.


def _builder(cls: type) -> Any:
    """``cls(*fields)`` as a function of its fields in order, built through a writable twin."""
    twin = type(f"_{cls.__name__}Slots", (), {"__slots__": vars(cls)["__slots__"]})
    names = [f.name for f in fields(cls)]
    lines = [
        f"def new_{cls.__name__}({', '.join(names)}):",
        "    value = twin()",
        *(f"    value.{name} = {name}" for name in names),
        "    value.__class__ = cls",
        "    return value",
    ]
    scope: dict[str, Any] = {"twin": twin, "cls": cls}
    exec("\n".join(lines), scope)
    return scope[f"new_{cls.__name__}"]


# Award(seat, amount, half, hand, five)
new_award: Callable[[int, int, str, str, tuple[Card, ...]], Award] = _builder(Award)
# PotResult(amount, rake, eligible, awards)
new_pot_result: Callable[[int, int, tuple[int, ...], tuple[Award, ...]], PotResult] = _builder(
    PotResult
)
# HandResult(pots, rake, uncalled, showdown, show_order, shown, mucked, final_stacks)
new_hand_result: Callable[
    [
        tuple[PotResult, ...],
        int,
        tuple[tuple[int, int], ...],
        bool,
        tuple[int, ...],
        tuple[tuple[int, tuple[Card, ...]], ...],
        tuple[tuple[int, tuple[Card, ...]], ...],
        tuple[tuple[int, int], ...],
    ],
    HandResult,
] = _builder(HandResult)


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _ints(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list, got {value!r}")
    return tuple(_int(item) for item in value)


def _pairs(value: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list, got {value!r}")
    pairs: list[tuple[int, int]] = []
    for item in value:
        first, second = _ints(item)
        pairs.append((first, second))
    return tuple(pairs)


def _seat_cards(value: object) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list, got {value!r}")
    out: list[tuple[int, tuple[Card, ...]]] = []
    for item in value:
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise ValueError(f"expected [seat, cards], got {item!r}")
        out.append((_int(item[0]), _ints(item[1])))
    return tuple(out)
