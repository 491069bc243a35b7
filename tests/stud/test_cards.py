"""Cards as phevaluator's integer ids; the integer order is R-BRING-1's door-card order."""

from __future__ import annotations

import pytest

from stud.cards import (
    FULL_DECK,
    RANKS,
    SUITS,
    card_rank,
    card_suit,
    card_text,
    cards_text,
    parse_card,
    parse_cards,
)


def test_every_card_round_trips_through_its_text() -> None:
    assert [parse_card(card_text(card)) for card in FULL_DECK] == list(range(52))
    assert len({card_text(card) for card in FULL_DECK}) == 52


def test_card_id_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Ah") == 12 * 4 + 2
    assert parse_card("As") == 51
    assert all(card_rank(c) == RANKS.index(card_text(c)[0]) for c in FULL_DECK)
    assert all(card_suit(c) == SUITS.index(card_text(c)[1]) for c in FULL_DECK)


def test_r_bring_1_integer_order_is_rank_ace_high_then_clubs_diamonds_hearts_spades() -> None:
    door_cards = parse_cards("As 2d Kc 2c 2s 2h Ac")
    lowest_first = sorted(door_cards)
    assert cards_text(lowest_first) == "2c 2d 2h 2s Kc Ac As"


def test_parse_cards_keeps_the_order_given() -> None:
    assert cards_text(parse_cards("Ah  Kd 10c")) == "Ah Kd Tc"
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["", "A", "1c", "Ax", "Ahh", "ZZ", "11c"])
def test_bad_card_text_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


@pytest.mark.parametrize("card", [-1, 52, 100])
def test_bad_card_id_raises_value_error(card: int) -> None:
    with pytest.raises(ValueError):
        card_text(card)
