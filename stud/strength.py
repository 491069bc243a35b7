"""What a player's own cards make so far, in words, for the line under their cards during
play: "Two pair, Kings and Nines"; in Stud Hi/Lo also "Low: 8-6-5-3-A" once five cards of
eight or lower make a qualifying low (R-HILO-1); in Razz the ace-to-five low alone,
"7-5-4-2-A" or "A pair of Nines" (R-RAZZ-6). The words are the evaluator's (the same as
the showdown's), counted over every card the player holds: down, up and the community card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stud.cards import Card
from stud.config import Game
from stud.evaluate import best_low_five, describe_high, describe_razz
from stud.hand import FOLDED, StudHand
from stud.variant import variant_of


@dataclass(frozen=True, slots=True)
class HandStrength:
    high: str
    low: str | None

    def to_json(self) -> dict[str, str | None]:
        return {"high": self.high, "low": self.low}


def _low_name(card: Card) -> str:
    return "A" if card >> 2 == 12 else str((card >> 2) + 2)


def strength_of_cards(cards: Sequence[Card], game: Game) -> HandStrength | None:
    """The best high hand of `cards` in words, capitalised, and in Stud Hi/Lo the best
    eight-or-better low ("Low: 8-6-5-3-A", highest card first) when there is one. None for no
    card at all."""
    if not cards:
        return None
    variant = variant_of(game)
    if variant.is_low:  # R-RAZZ-6: the low by its cards, "7-5-4-2-A"
        words = describe_razz(cards)
        return HandStrength(words[0].upper() + words[1:], None)
    words = describe_high(cards)
    if words.startswith("a "):
        words = words[2:]
    high = words[0].upper() + words[1:]
    low = None
    if variant.has_low_half:
        five = best_low_five(cards)
        if five is not None:
            low = "Low: " + "-".join(_low_name(card) for card in five)
    return HandStrength(high, low)


def hand_strength(hand: StudHand, seat: int) -> HandStrength | None:
    """What `seat` holds in `hand` while it is still in it; None for a seat not dealt in or
    folded."""
    for i, player in enumerate(hand.players):
        if player.seat != seat:
            continue
        if hand.status[i] == FOLDED:
            return None
        cards = [*hand.down[i], *hand.up[i]]
        if hand.community is not None:
            cards.append(hand.community)
        return strength_of_cards(cards, hand.config.game)
    return None
