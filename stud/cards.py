"""Playing cards as small integers.

A card is ``rank * 4 + suit``: rank 0..12 for deuce..ace, suit 0..3 for clubs, diamonds,
hearts, spades. This is phevaluator's own card id, so the evaluators need no translation, and
the plain integer order is R-BRING-1's door-card order (rank with the ace high, then suit
clubs < diamonds < hearts < spades).
"""

from __future__ import annotations

from collections.abc import Iterable

Card = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FULL_DECK: tuple[Card, ...] = tuple(range(52))

_CARD_BY_TEXT: dict[str, Card] = {
    rank + suit: rank_index * 4 + suit_index
    for rank_index, rank in enumerate(RANKS)
    for suit_index, suit in enumerate(SUITS)
}
_TEXT_BY_CARD: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)


def card_rank(card: Card) -> int:
    """Rank index 0..12 (deuce..ace)."""
    return card >> 2


def card_suit(card: Card) -> int:
    """Suit index 0..3 (clubs, diamonds, hearts, spades)."""
    return card & 3


def parse_card(text: str) -> Card:
    """``"Ah"`` -> the card's id. Accepts ``10`` for ten and an upper-case suit letter."""
    token = text.strip()
    if token[:2] == "10":
        token = "T" + token[2:]
    if len(token) != 2:
        raise ValueError(f"not a card: {text!r}")
    key = token[0].upper() + token[1].lower()
    try:
        return _CARD_BY_TEXT[key]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def card_text(card: Card) -> str:
    """The card's id -> ``"Ah"``."""
    if not 0 <= card < 52:
        raise ValueError(f"not a card id: {card!r}")
    return _TEXT_BY_CARD[card]


def parse_cards(text: str) -> list[Card]:
    """``"Ah Kd"`` -> the cards, in order. Empty text gives no cards."""
    return [parse_card(token) for token in text.split()]


def cards_text(cards: Iterable[Card]) -> str:
    """The cards -> ``"Ah Kd"``, in the order given."""
    return " ".join(card_text(card) for card in cards)
