"""Where each card of a hand came from in the committed deck (DESIGN "Fairness", R-DEAL-1..5).

The card-by-card commitment (``deck.py``) lets a player check one card without seeing the
others: a card they saw is proven by its position in the shuffled deck, its salt and that
position's leaf. This module gives the position the dealing order assigns to every card: the
deal is public (who sat where, who was still in on each street, whether the river was
reshuffled), so a verifier can recompute the same positions from the hand's history
(``deal_positions``) and need not trust the room's word for them.

The order of the deal (R-DEAL-1..4): on third street, one card at a time from the dealer's
left, down, down, then the door (positions ``i``, ``n + i``, ``2n + i`` for the player ``i``
places after the dealer, of ``n``); on each later street, a burn, then one card each to the
players still in, in the same order. R-DEAL-5: when the stub after the seventh-street burn is
short, the burns (in the order burned) and the stub (in deck order) are shuffled with
``random.Random(reshuffle_seed).shuffle`` and the river comes from that pile: a down card each
from its top, or its top card turned as the community card. The shuffle moves positions, not
card values, so the pile's positions are known once the seed is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from stud.cards import Card
from stud.hand import StudHand

Face = Literal["down", "up", "burn", "community"]
DECK_SIZE = 52


@dataclass(frozen=True, slots=True)
class Deal:
    """The public facts that fix every card's position: the seats in the order of the deal,
    for streets 4 to 7 the seats dealt a card (in that order), and how the river came
    (``"none"``: the hand ended before it; ``"down"``: from the stub; ``"reshuffle"``: down
    cards from the reshuffled pile; ``"community"``: one community card from it)."""

    order: tuple[int, ...]
    streets: tuple[tuple[int, tuple[int, ...]], ...]  # (street, seats dealt), streets 4..7
    river: str
    reshuffle_seed: int

    def to_json(self) -> dict[str, Any]:
        reshuffled = self.river in ("reshuffle", "community")
        return {
            "order": list(self.order),
            "streets": [[street, list(seats)] for street, seats in self.streets],
            "river": self.river,
            "reshuffle_seed": self.reshuffle_seed if reshuffled else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        seed = data.get("reshuffle_seed")
        return cls(
            order=tuple(int(seat) for seat in data["order"]),
            streets=tuple(
                (int(street), tuple(int(seat) for seat in seats))
                for street, seats in data["streets"]
            ),
            river=str(data["river"]),
            reshuffle_seed=0 if seed is None else int(seed),
        )


@dataclass(frozen=True, slots=True)
class Slot:
    """One card's place in the deal: ``seat`` (None for a burn or the community card),
    ``index`` (the card's place among the seat's cards as dealt, 0..6; the burn's number,
    0..; 0 for the community card), the street and the face."""

    seat: int | None
    index: int
    street: int
    face: Face


@dataclass(frozen=True, slots=True)
class DealtCard:
    """A card of the hand at its position in the committed deck."""

    position: int
    card: Card
    slot: Slot


def reshuffled_pile(burns: Sequence[int], stub: Sequence[int], seed: int) -> list[int]:
    """R-DEAL-5: the burns and the stub shuffled together, as the engine does it (positions
    or cards alike: the shuffle does not look at the values)."""
    pile = [*burns, *stub]
    random.Random(seed).shuffle(pile)
    return pile


def deal_positions(deal: Deal) -> list[tuple[Slot, int]]:
    """Every card's slot and its position in the committed deck, in the order dealt."""
    n = len(deal.order)
    placed: list[tuple[Slot, int]] = []
    for i, seat in enumerate(deal.order):
        placed.append((Slot(seat, 0, 3, "down"), i))
        placed.append((Slot(seat, 1, 3, "down"), n + i))
        placed.append((Slot(seat, 2, 3, "up"), 2 * n + i))
    position = 3 * n
    burns: list[int] = []
    for street, seats in deal.streets:
        placed.append((Slot(None, len(burns), street, "burn"), position))
        burns.append(position)
        position += 1
        if street < 7:
            for seat in seats:
                placed.append((Slot(seat, street - 1, street, "up"), position))
                position += 1
            continue
        if deal.river == "down":
            for seat in seats:
                placed.append((Slot(seat, 6, 7, "down"), position))
                position += 1
            continue
        pile = reshuffled_pile(burns, range(position, DECK_SIZE), deal.reshuffle_seed)
        if deal.river == "community":
            placed.append((Slot(None, 0, 7, "community"), pile[0]))
        else:
            placed.extend((Slot(seat, 6, 7, "down"), pile[k]) for k, seat in enumerate(seats))
    return placed


def deal_of(hand: StudHand) -> Deal:
    """The public facts of the deal of a hand (in play or over): who was dealt what street."""
    order = tuple(player.seat for player in hand.players)
    streets: list[tuple[int, tuple[int, ...]]] = []
    for street in (4, 5, 6):
        seats = tuple(
            player.seat for i, player in enumerate(hand.players) if len(hand.up[i]) > street - 3
        )
        if seats:
            streets.append((street, seats))
    river = "none"
    rivers = tuple(player.seat for i, player in enumerate(hand.players) if len(hand.down[i]) > 2)
    if hand.community is not None:
        river = "community"
    elif rivers:
        river = "reshuffle" if hand.reshuffled else "down"
    if river != "none":
        streets.append((7, rivers))
    return Deal(order, tuple(streets), river, hand.reshuffle_seed)


def dealt_cards(hand: StudHand) -> list[DealtCard]:
    """Every card the hand dealt (burns and the community card included) at its position."""
    dealt: list[DealtCard] = []
    for slot, position in deal_positions(deal_of(hand)):
        if slot.seat is None:
            card = hand.community if slot.face == "community" else hand.burns[slot.index]
            assert card is not None
        else:
            i = hand.index_of(slot.seat)
            cards = hand.down[i][:2] + hand.up[i] + hand.down[i][2:]
            card = cards[slot.index]
        dealt.append(DealtCard(position, card, slot))
    return dealt


def seen_by(hand: StudHand, viewer: int | None) -> list[DealtCard]:
    """The cards of a finished hand that ``viewer`` (a seat, or None for anyone) was entitled
    to see (R-HIST-2): every up card, the community card, the hands shown at showdown or by
    choice (R-SHOW-2/3), and the viewer's own down cards. Never a burn, nor a down card that
    was folded or mucked."""
    result = hand.result
    shown = {seat for seat, _ in result.shown} if result is not None else set()
    shown.update(hand.volunteered)
    return [
        dealt
        for dealt in dealt_cards(hand)
        if dealt.slot.face in ("up", "community")
        or (
            dealt.slot.face == "down"
            and dealt.slot.seat is not None
            and (dealt.slot.seat == viewer or dealt.slot.seat in shown)
        )
    ]
