"""The shuffle and the commitment to it (R-DEAL-6, DESIGN "Fairness").

Decks are shuffled with the operating system's cryptographically secure generator. Before the
deal the room shows players a SHA-256 commitment to the deck, made card by card (scheme 2):
position ``i`` of the shuffled deck gets its own secret salt and a leaf
``SHA-256("{i}:{card}:{salt}")`` (hex; the card as text, e.g. ``As``), and the commitment is
``SHA-256`` of the 52 leaves' hex written one after the other. After the hand the room gives
all 52 leaves and, for each card a viewer was entitled to see, the card and its salt: the
viewer checks those leaves and the commitment, and learns nothing of the other cards (their
salts stay secret, R-HIST-2). ``dealing.py`` gives each card's position.

Hands dealt before (scheme 1) committed to ``SHA-256(cards_text(deck) + ":" + salt)`` with one
salt; revealing that deck tells every card dealt, so it is revealed only for those old hands.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from stud.cards import FULL_DECK, Card, card_text, cards_text

_SYSTEM_RANDOM = secrets.SystemRandom()
SALT_BYTES = 32
WHOLE_DECK_SCHEME = 1  # hands dealt before the card-by-card commitment
CARD_BY_CARD_SCHEME = 2


def shuffled_deck() -> list[Card]:
    """All 52 cards in a uniformly random order from ``secrets.SystemRandom`` (R-DEAL-6)."""
    deck = list(FULL_DECK)
    _SYSTEM_RANDOM.shuffle(deck)
    return deck


def new_salt() -> str:
    """A fresh secret salt for one hand's commitment (256 bits, hex)."""
    return secrets.token_hex(SALT_BYTES)


def deck_commitment(deck: Sequence[Card], salt: str) -> str:
    """SHA-256 hex of ``cards_text(deck) + ":" + salt`` (UTF-8)."""
    return hashlib.sha256(f"{cards_text(deck)}:{salt}".encode()).hexdigest()


def verify_commitment(deck: Sequence[Card], salt: str, commitment: str) -> bool:
    """True when the revealed deck and salt are the ones committed to."""
    try:
        expected = deck_commitment(deck, salt)
    except ValueError:
        return False
    return hmac.compare_digest(expected, commitment.strip().lower())


# --- scheme 2: card by card -------------------------------------------------------------------


def new_salts(count: int = len(FULL_DECK)) -> list[str]:
    """A fresh secret salt for each position of the deck."""
    return [new_salt() for _ in range(count)]


def card_leaf(position: int, card: Card, salt: str) -> str:
    """The leaf of one position: SHA-256 hex of ``f"{position}:{card_text(card)}:{salt}"``."""
    return hashlib.sha256(f"{position}:{card_text(card)}:{salt}".encode()).hexdigest()


def deck_leaves(deck: Sequence[Card], salts: Sequence[str]) -> list[str]:
    if len(deck) != len(salts):
        raise ValueError("one salt for each card of the deck")
    return [
        card_leaf(i, card, salt) for i, (card, salt) in enumerate(zip(deck, salts, strict=True))
    ]


def leaves_commitment(leaves: Sequence[str]) -> str:
    """SHA-256 hex of the leaves' hex, in deck order, with nothing between them."""
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def card_by_card_commitment(deck: Sequence[Card], salts: Sequence[str]) -> str:
    return leaves_commitment(deck_leaves(deck, salts))


def reshuffle_seed_for(commitment: str) -> int:
    """R-DEAL-5's reshuffle seed, fixed by the commitment (its first 31 bits), so the river
    of a reshuffle was settled before the deal too and anyone can recompute where it came
    from. Knowing it tells which positions the pile puts on top, never which cards."""
    return int(commitment[:8], 16) >> 1


def verify_leaves(leaves: Sequence[str], commitment: str) -> bool:
    """True when 52 leaves hash to the commitment."""
    if len(leaves) != len(FULL_DECK):
        return False
    return hmac.compare_digest(leaves_commitment(leaves), commitment.strip().lower())


def verify_card(position: int, card: Card, salt: str, leaves: Sequence[str]) -> bool:
    """True when the revealed card and salt give the leaf at that position."""
    if not 0 <= position < len(leaves):
        return False
    try:
        leaf = card_leaf(position, card, salt)
    except (IndexError, ValueError):
        return False
    return hmac.compare_digest(leaf, leaves[position])
