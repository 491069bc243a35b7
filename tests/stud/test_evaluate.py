"""The evaluators by example: R-POT-2 (high), R-HILO-1 (low), R-ORDER-1 (board), wording."""

from __future__ import annotations

import pytest

from stud.cards import cards_text, parse_cards
from stud.evaluate import (
    HandCategory,
    best_high_five,
    best_low_five,
    board_rank,
    describe_high,
    describe_low,
    high_category,
    high_rank,
    low8_rank,
)


def high(text: str) -> int:
    return high_rank(parse_cards(text))


def low(text: str) -> int | None:
    return low8_rank(parse_cards(text))


def board(text: str) -> tuple[int, ...]:
    return board_rank(parse_cards(text))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts", "Ks Qs Js Ts 9s"),  # royal flush over a lower straight flush
        ("5h 4h 3h 2h Ah", "2c 2d 2h 2s Ac"),  # the steel wheel is still a straight flush
        ("2c 2d 2h 2s 3c", "Ac Ad Ah Kc Kd"),  # quads over a full house
        ("3c 3d 3h 2s 2c", "As Qs 9s 5s 3s"),  # full house over a flush
        ("7c 5c 4c 3c 2c", "Ad Kc Qh Js Tc"),  # flush over a straight
        ("6d 5c 4h 3s 2c", "5d 4c 3h 2s Ac"),  # the wheel is the lowest straight (R-POT-2)
        ("5d 4c 3h 2s Ac", "Ac Ad Ah Kc Qd"),  # any straight over three of a kind
        ("2c 2d 2h 4s 3c", "Ac Ad Kh Ks Qc"),  # trips over two pair
        ("Ac Ad Kh Ks 3c", "Ac Ad Qh Qs Kc"),  # two pair: top pair, then second pair
        ("Ac Ad 9h 9s 3c", "Ah As 9c 9d 2c"),  # two pair: then the kicker
        ("2c 2d 5h 4s 3c", "Ac Kd Qh Js 9c"),  # a pair over high card
        ("Ac Ad 9h 8s 7c", "Ah As 9c 8d 6c"),  # pair: kickers down to the last
        ("Ac Qd 9h 8s 7c", "Ah Qs 9c 8d 6c"),  # high card: every card counts
    ],
)
def test_r_pot_2_hand_ranking(better: str, worse: str) -> None:
    assert high(better) > high(worse)


def test_r_pot_3_suits_never_rank_identical_hands_tie() -> None:
    assert high("As Ks Qs Js Ts") == high("Ah Kh Qh Jh Th")
    assert high("Ac Kd Qh Js 9c") == high("As Kc Qd Jh 9s")


def test_r_show_1_best_five_of_seven() -> None:
    seven = parse_cards("Kc Kd 9h 9s 2c 3d 4h")
    assert high_rank(seven) == high("Kc Kd 9h 9s 4h")
    assert cards_text(best_high_five(seven)) == "Kd Kc 9s 9h 4h"
    six = parse_cards("Ah 2h 3h 4h 5h 9c")
    assert high_category(high_rank(six)) is HandCategory.STRAIGHT_FLUSH
    assert cards_text(best_high_five(six)) == "5h 4h 3h 2h Ah"


@pytest.mark.parametrize("count", [0, 4, 8])
def test_high_rank_needs_five_to_seven_cards(count: int) -> None:
    with pytest.raises(ValueError):
        high_rank(list(range(count)))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Kc Kd 9h 9s 2c 3d 4h", "two pair, Kings and Nines"),
        ("6c 6d 2h 8s 9c Jd 4h", "a pair of Sixes"),
        ("2c 2d 5h 8s 9c Jd Kh", "a pair of Deuces"),
        ("Ac 3d 6h 8s 9c Jd Kh", "high card Ace"),
        ("8c 9c Tc Jc Qd 2d 3d", "a straight, Eight to Queen"),
        ("Tc Kh As Jd Qd 2s 9c", "a straight, Ten to Ace"),
        ("Ac 5d 3h 2s 4c Kd Kh", "a straight, Ace to Five"),
        ("Ac 4d 7d Td 3d Qd 2h", "a flush, Queen high"),
        ("Kc Kd Kh 7s 7c 2d 3c", "a full house, Kings full of Sevens"),
        ("5c 5d 5h As Ac 2d Ah", "a full house, Aces full of Fives"),
        ("Ac Ad Ah As 2c 3d 4h", "four of a kind, Aces"),
        ("4c 4d 4h As Kc 2d 9h", "three of a kind, Fours"),
        ("9d Td Jd Qd Kd 2c 2h", "a straight flush, Nine to King"),
        ("Ah 2h 3h 4h 5h 9c 9d", "a straight flush, Ace to Five"),
        ("As Ks Qs Js Ts 2c 3d", "a Royal Flush"),
    ],
)
def test_r_hist_3_describe_high_in_pokerstars_words(text: str, words: str) -> None:
    assert describe_high(parse_cards(text)) == words


def test_r_hilo_1_low_needs_five_unpaired_cards_eight_or_lower() -> None:
    assert low("Ac 2d 3h 4s 8c Tc Jc") is not None
    assert low("Ac 2d 3h 9s 9c Tc Jc") is None  # four low ranks
    assert low("Ac Ad 2h 2s 3c 3d 4h") is None  # pairs leave four distinct low ranks
    assert low("9c 2d 3h 4s 5c Tc Jc") is None  # the nine does not qualify
    assert low("Ac 2d 3h 4s 5c") is not None


def test_r_hilo_1_best_low_has_the_lowest_top_card_then_next() -> None:
    ordered = [
        "5c 4d 3h 2s Ac",
        "6c 4d 3h 2s Ac",
        "6c 5d 3h 2s Ac",
        "6c 5d 4h 3s 2c",
        "7c 4d 3h 2s Ac",
        "8c 6d 4h 2s Ac",
        "8c 7d 5h 4s 2c",
        "8c 7d 6h 5s 4c",
    ]
    lows = [low(text) for text in ordered]
    assert all(isinstance(value, int) for value in lows)
    assert lows == sorted(lows, key=lambda value: -(value or 0))
    assert len(set(lows)) == len(lows)


def test_r_hilo_1_straights_and_flushes_do_not_spoil_a_low() -> None:
    wheel_flush = parse_cards("Ah 2h 3h 4h 5h")
    assert low8_rank(wheel_flush) == low("5c 4d 3h 2s Ac")
    assert high_category(high_rank(wheel_flush)) is HandCategory.STRAIGHT_FLUSH


def test_r_hilo_3_low_uses_its_own_five_cards() -> None:
    seven = parse_cards("Ad 2c 4h 6s 8c 8d 9h")
    assert describe_high(seven) == "a pair of Eights"
    assert describe_low(seven) == "8,6,4,2,A"
    five = best_low_five(seven)
    assert five is not None
    assert cards_text(five) == "8c 6s 4h 2c Ad"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("7h 2h 4c Jc 5h 7s 8c", "8,7,5,4,2"),
        ("As Qh 5s 7c 4d Th Ac", ""),
        ("3c 4d 5h 6s 7c 3d 4h", "7,6,5,4,3"),
        ("Ac 3d 5h 6s 7c Ad 9h", "7,6,5,3,A"),
    ],
)
def test_r_hist_3_describe_low_in_pokerstars_words(text: str, words: str) -> None:
    assert describe_low(parse_cards(text)) == words


def test_r_order_1_pairs_beat_high_cards_and_kickers_decide() -> None:
    assert board("2c 2d") > board("Ac Kd")
    assert board("9c 9d Ah") > board("9h 9s Kc")
    assert board("Ac Kd 7h") > board("Ac Kd 6h")


def test_r_order_1_two_pair_trips_quads() -> None:
    assert board("3c 3d 2h 2s") > board("Ac Ad Kh Qs")
    assert board("2c 2d 2h 3s") > board("Ac Ad Kh Ks")
    assert board("2c 2d 2h 2s") > board("Ac Ad Ah Ks")


def test_r_order_1_straights_flushes_and_suits_do_not_count() -> None:
    assert board("5h 6h 7h 8h") < board("2c 2d 3h 4s")
    assert board("5h 6h 7h 8h") == board("5c 6d 7h 8s")
    assert board("Ks") == board("Kc")


def test_r_order_2_community_card_counts_on_every_board() -> None:
    community = parse_cards("6h")
    full_house = board_rank([*parse_cards("6c 6d Kh Ks"), *community])
    trips = board_rank([*parse_cards("Ac Ad Ah 2s"), *community])
    assert full_house > trips


@pytest.mark.parametrize("count", [0, 6])
def test_board_rank_needs_one_to_five_cards(count: int) -> None:
    with pytest.raises(ValueError):
        board_rank(list(range(count)))
