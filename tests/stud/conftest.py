"""Engine test set-up: stacked decks and a dealer who runs a hand seat by seat.

The engine needs no Django, so the root conftest's Django-only fixture is replaced here and
these tests also run with ``-p no:django``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from stud import (
    Action,
    ActionKind,
    Event,
    Game,
    GameConfig,
    LegalAction,
    OddChip,
    SeatSetup,
    StudHand,
)
from stud.cards import Card, parse_card, parse_cards


@pytest.fixture(autouse=True)
def _no_beat_in_tests() -> None:
    """Overrides the root fixture of the same name: nothing to switch off for the engine."""


def card(text: str) -> Card:
    return parse_card(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def stacked(third: Sequence[str], *later: Sequence[str], burns: Sequence[str] = ()) -> list[Card]:
    """A deck dealt exactly as written.

    ``third``: one "down down door" per player in the order of the deal (dealer's left
    first). ``later``: for each later street, the card of each player still in, in the order
    of the deal. Burns are ``burns`` in order, then the cards left over, lowest first; the
    stub is what is left after that.
    """
    players = [parse_cards(text) for text in third]
    assert all(len(p) == 3 for p in players)
    named = [c for p in players for c in p] + [parse_card(c) for street in later for c in street]
    named_burns = [parse_card(c) for c in burns]
    assert len(set(named + named_burns)) == len(named) + len(named_burns), "a card named twice"
    taken = set(named + named_burns)
    spare = iter(named_burns + [c for c in range(52) if c not in taken])
    deck: list[Card] = []
    for round_ in range(3):
        deck.extend(p[round_] for p in players)
    for street in later:
        deck.append(next(spare))  # the burn
        deck.extend(parse_card(c) for c in street)
    deck.extend(spare)
    assert sorted(deck) == list(range(52))
    return deck


def config(
    game: Game = Game.STUD,
    *,
    small_bet: int = 100,
    big_bet: int = 200,
    ante: int = 10,
    bring_in: int = 25,
    **options: object,
) -> GameConfig:
    return GameConfig(
        game=game,
        small_bet=small_bet,
        big_bet=big_bet,
        ante=ante,
        bring_in=bring_in,
        **options,  # type: ignore[arg-type]
    )


class Dealer:
    """Runs a hand the way a dealer would, keeping every event said aloud."""

    def __init__(
        self,
        deck: Sequence[Card],
        stacks: Sequence[int] | int = 1000,
        *,
        players: int | None = None,
        table: GameConfig | None = None,
        button: int | None = None,
        auto_muck: bool = True,
        reshuffle_seed: int = 0,
    ) -> None:
        if isinstance(stacks, int):
            stacks = [stacks] * (players or 2)
        self.seats = [
            SeatSetup(seat=n + 1, name=f"P{n + 1}", stack=s, auto_muck=auto_muck)
            for n, s in enumerate(stacks)
        ]
        self.config = table or config()
        self.button = len(self.seats) if button is None else button
        self.deck = list(deck)
        self.hand, events = StudHand.start(
            self.config, self.seats, self.deck, self.button, reshuffle_seed=reshuffle_seed
        )
        self.events: list[Event] = list(events)

    def offers(self, seat: int) -> list[LegalAction]:
        return self.hand.legal_actions(seat)

    def kinds(self, seat: int) -> dict[str, list[int]]:
        """What the seat is offered: kind -> to-amounts."""
        out: dict[str, list[int]] = {}
        for offer in self.offers(seat):
            out.setdefault(offer.kind.value, []).append(offer.amount)
        return out

    def act(self, seat: int, kind: str, to: int | None = None) -> None:
        assert self.hand.to_act == seat, f"seat {self.hand.to_act} is to act, not {seat}"
        matching = [o for o in self.offers(seat) if o.kind == kind]
        assert matching, f"seat {seat} is not offered {kind}: {self.kinds(seat)}"
        if to is not None:
            matching = [o for o in matching if o.amount == to]
            assert matching, f"seat {seat} may not {kind} to {to}: {self.kinds(seat)}"
        self.hand, events = self.hand.apply(Action(seat, ActionKind(kind), matching[0].amount))
        self.events.extend(events)

    def time_out(self, seat: int, protected: bool) -> None:
        self.hand, events = self.hand.time_out(seat, protected)
        self.events.extend(events)

    def passive_to_end(self) -> None:
        """Everyone still in checks or calls (posting the bring-in) to the end."""
        while not self.hand.is_over:
            seat = self.hand.to_act
            assert seat is not None
            kinds = self.kinds(seat)
            for kind in ("bring_in", "check", "call"):
                if kind in kinds:
                    self.act(seat, kind)
                    break

    def passive_to_street(self, street: int) -> None:
        while not self.hand.is_over and self.hand.street < street:
            seat = self.hand.to_act
            assert seat is not None
            kinds = self.kinds(seat)
            for kind in ("bring_in", "check", "call"):
                if kind in kinds:
                    self.act(seat, kind)
                    break

    def said(self, kind: str) -> list[dict[str, object]]:
        """Payloads of the public events of this kind, in order."""
        return [e.payload for e in self.events if e.kind == kind and e.visible_to is None]

    @property
    def total_chips(self) -> int:
        return sum(s.stack for s in self.seats)


__all__ = ["Dealer", "OddChip", "card", "cards", "config", "stacked"]


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Overrides the root fixture of the same name: the engine hashes no passwords."""
