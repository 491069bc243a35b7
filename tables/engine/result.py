"""How a finished hand came out: pots, winners, rake, returned bets, showdown (R-SHOW, R-POT)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tables.engine.cards import Card


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


# The engine builds these frozen values by setting their slots directly: the dataclass' frozen
# ``__init__`` (one ``object.__setattr__`` per field) costs several times as much, and every
# hand's end makes at least one of each. Same values, same equality.
_new_object = object.__new__
_AWARD = tuple(vars(Award)[name].__set__ for name in ("seat", "amount", "half", "hand", "five"))
_POT = tuple(vars(PotResult)[name].__set__ for name in ("amount", "rake", "eligible", "awards"))
_RESULT = tuple(
    vars(HandResult)[name].__set__
    for name in (
        "pots",
        "rake",
        "uncalled",
        "showdown",
        "show_order",
        "shown",
        "mucked",
        "final_stacks",
    )
)


def new_award(seat: int, amount: int, half: str, hand: str, five: tuple[Card, ...]) -> Award:
    """``Award(seat, amount, half, hand, five)``, built by setting its slots."""
    award: Award = _new_object(Award)
    s_seat, s_amount, s_half, s_hand, s_five = _AWARD
    s_seat(award, seat)
    s_amount(award, amount)
    s_half(award, half)
    s_hand(award, hand)
    s_five(award, five)
    return award


def new_pot_result(
    amount: int, rake: int, eligible: tuple[int, ...], awards: tuple[Award, ...]
) -> PotResult:
    """``PotResult(amount, rake, eligible, awards)``, built by setting its slots."""
    pot: PotResult = _new_object(PotResult)
    s_amount, s_rake, s_eligible, s_awards = _POT
    s_amount(pot, amount)
    s_rake(pot, rake)
    s_eligible(pot, eligible)
    s_awards(pot, awards)
    return pot


def new_hand_result(
    pots: tuple[PotResult, ...],
    rake: int,
    uncalled: tuple[tuple[int, int], ...],
    showdown: bool,
    show_order: tuple[int, ...],
    shown: tuple[tuple[int, tuple[Card, ...]], ...],
    mucked: tuple[tuple[int, tuple[Card, ...]], ...],
    final_stacks: tuple[tuple[int, int], ...],
) -> HandResult:
    """``HandResult(...)`` in field order, built by setting its slots."""
    result: HandResult = _new_object(HandResult)
    s_pots, s_rake, s_uncalled, s_showdown, s_order, s_shown, s_mucked, s_stacks = _RESULT
    s_pots(result, pots)
    s_rake(result, rake)
    s_uncalled(result, uncalled)
    s_showdown(result, showdown)
    s_order(result, show_order)
    s_shown(result, shown)
    s_mucked(result, mucked)
    s_stacks(result, final_stacks)
    return result


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
