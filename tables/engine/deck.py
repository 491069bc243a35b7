"""The shuffle and the commitment to it (R-DEAL-6, DESIGN "Fairness").

Decks are shuffled with the operating system's cryptographically secure generator. Before the
deal the room shows players a SHA-256 commitment to the deck order and a secret salt; after the
hand it reveals both, so anyone can check the deal was fixed before the first action.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from tables.engine.cards import FULL_DECK, Card, cards_text

_SYSTEM_RANDOM = secrets.SystemRandom()
SALT_BYTES = 32


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
