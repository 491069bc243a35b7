"""R-DEAL-6: secure shuffle; DESIGN "Fairness": the deck commitment."""

from __future__ import annotations

import hashlib
import inspect
from collections import Counter

from stud import deck as deck_module
from stud.cards import FULL_DECK, card_text, cards_text
from stud.deck import (
    card_by_card_commitment,
    card_leaf,
    deck_commitment,
    deck_leaves,
    leaves_commitment,
    new_salt,
    new_salts,
    reshuffle_seed_for,
    shuffled_deck,
    verify_card,
    verify_commitment,
    verify_leaves,
)


def test_r_deal_6_shuffled_deck_holds_each_card_once() -> None:
    deck = shuffled_deck()
    assert sorted(deck) == list(FULL_DECK)


def test_r_deal_6_the_shuffle_uses_secrets_system_random() -> None:
    source = inspect.getsource(deck_module)
    assert "secrets.SystemRandom()" in source
    assert "import random" not in source
    assert isinstance(deck_module._SYSTEM_RANDOM, deck_module.secrets.SystemRandom)


def test_r_deal_6_shuffles_differ_and_every_card_reaches_the_top() -> None:
    decks = [tuple(shuffled_deck()) for _ in range(2000)]
    assert len(set(decks)) == len(decks)
    top_cards = Counter(deck[0] for deck in decks)
    assert set(top_cards) == set(FULL_DECK)
    # 2000 / 52 ~ 38.5 expected per card; a fair shuffle stays far inside these bounds.
    assert max(top_cards.values()) < 80


def test_new_salt_is_fresh_and_long() -> None:
    salts = {new_salt() for _ in range(100)}
    assert len(salts) == 100
    assert all(len(salt) >= 32 for salt in salts)


def test_deck_commitment_is_sha256_of_cards_text_colon_salt() -> None:
    deck = shuffled_deck()
    salt = "pepper"
    expected = hashlib.sha256(f"{cards_text(deck)}:{salt}".encode()).hexdigest()
    assert deck_commitment(deck, salt) == expected


def test_verify_commitment_accepts_the_revealed_deck_and_salt() -> None:
    deck, salt = shuffled_deck(), new_salt()
    commitment = deck_commitment(deck, salt)
    assert verify_commitment(deck, salt, commitment)


def test_verify_commitment_rejects_a_changed_deck_or_salt() -> None:
    deck, salt = shuffled_deck(), new_salt()
    commitment = deck_commitment(deck, salt)
    swapped = [deck[1], deck[0], *deck[2:]]
    assert not verify_commitment(swapped, salt, commitment)
    assert not verify_commitment(deck, salt + "x", commitment)
    assert not verify_commitment(deck, salt, "0" * 64)
    assert not verify_commitment([99, *deck[1:]], salt, commitment)


# --- scheme 2: card by card (DESIGN "Fairness") ---------------------------------------------


def independent_commitment(deck: list[int], salts: list[str]) -> str:
    """DESIGN "Fairness" in plain hashlib: leaf = SHA-256("i:card:salt"), commitment =
    SHA-256 of the 52 leaves' hex in order."""
    leaves = [
        hashlib.sha256(f"{i}:{card_text(card)}:{salt}".encode()).hexdigest()
        for i, (card, salt) in enumerate(zip(deck, salts, strict=True))
    ]
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def test_card_by_card_commitment_is_the_hash_of_the_52_leaves() -> None:
    deck, salts = shuffled_deck(), new_salts()
    assert len(set(salts)) == 52
    commitment = card_by_card_commitment(deck, salts)
    assert commitment == independent_commitment(deck, salts)
    leaves = deck_leaves(deck, salts)
    assert leaves[5] == card_leaf(5, deck[5], salts[5])
    assert verify_leaves(leaves, commitment)


def test_a_card_checks_only_with_its_own_position_and_salt() -> None:
    deck, salts = shuffled_deck(), new_salts()
    leaves = deck_leaves(deck, salts)
    assert verify_card(7, deck[7], salts[7], leaves)
    assert not verify_card(7, deck[8], salts[7], leaves)  # another card
    assert not verify_card(8, deck[7], salts[7], leaves)  # another position
    assert not verify_card(7, deck[7], salts[8], leaves)  # another salt
    assert not verify_card(52, deck[7], salts[7], leaves)
    changed = [*leaves[:3], leaves[4], leaves[3], *leaves[5:]]
    assert not verify_leaves(changed, leaves_commitment(leaves))
    assert not verify_leaves(leaves[:51], leaves_commitment(leaves))


def test_r_deal_5_the_reshuffle_seed_is_fixed_by_the_commitment() -> None:
    assert reshuffle_seed_for("ffffffff" + "0" * 56) == 2**31 - 1
    assert reshuffle_seed_for("00000003" + "f" * 56) == 1
