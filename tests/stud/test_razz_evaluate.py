"""The ace-to-five low evaluator (R-RAZZ-1): exhaustive on five cards, and against PokerKit's
``RegularLowHand`` (the hand type of its ``FixedLimitRazz``) on random seven-card hands."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise
from math import comb

import pokerkit

from stud.cards import card_text, parse_cards
from stud.evaluate import (
    RAZZ_RANK_COUNT,
    best_razz_five,
    describe_razz,
    razz_rank,
    razz_rank7,
)


def distinct_lows_from_first_principles() -> dict[str, int]:
    """Five cards of 13 values, pairs counting against, straights and flushes not counting:
    the distinct lows of each shape are choices of values, nothing more."""
    return {
        "no pair": comb(13, 5),  # five different values
        "one pair": 13 * comb(12, 3),  # the pair's value, three others
        "two pair": comb(13, 2) * 11,  # the two pairs' values, a fifth
        "three of a kind": 13 * comb(12, 2),
        "full house": 13 * 12,  # the trips' value, the pair's
        "four of a kind": 13 * 12,
    }


def test_r_razz_1_every_five_card_hand_has_one_of_6175_lows() -> None:
    """R-RAZZ-1, exhaustively: the 2,598,960 five-card hands rank into exactly the distinct
    lows counted from first principles, each shape into its own count, and suits never
    matter (the same values in any suits rank the same)."""
    expected = distinct_lows_from_first_principles()
    assert sum(expected.values()) == RAZZ_RANK_COUNT == 6175
    shapes: dict[int, tuple[int, ...]] = {}
    hands_per_rank: Counter[int] = Counter()
    for five in combinations(range(52), 5):
        rank = razz_rank(five)
        hands_per_rank[rank] += 1
        if rank not in shapes:
            values = sorted(((c >> 2) + 1) % 13 for c in five)
            shapes[rank] = tuple(sorted(Counter(values).values(), reverse=True))
        else:
            values = sorted(((c >> 2) + 1) % 13 for c in five)
            assert tuple(sorted(Counter(values).values(), reverse=True)) == shapes[rank]
    assert len(hands_per_rank) == RAZZ_RANK_COUNT
    names = {
        (1, 1, 1, 1, 1): "no pair",
        (2, 1, 1, 1): "one pair",
        (2, 2, 1): "two pair",
        (3, 1, 1): "three of a kind",
        (3, 2): "full house",
        (4, 1): "four of a kind",
    }
    assert Counter(names[shape] for shape in shapes.values()) == expected
    # Every unpaired low: 4^5 suitings of the same five values.
    assert all(hands_per_rank[rank] == 4**5 for rank, shape in shapes.items() if shape == (1,) * 5)
    # Any unpaired hand beats any paired one; one pair beats two pair, and so on.
    order = ["no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind"]
    worst_of = {name: min(r for r, s in shapes.items() if names[s] == name) for name in order}
    best_of = {name: max(r for r, s in shapes.items() if names[s] == name) for name in order}
    for better, worse in pairwise(order):
        assert worst_of[better] > best_of[worse]


def test_r_razz_1_the_wheel_is_the_best_low_and_a_king_high_low_loses_to_a_pair() -> None:
    """R-RAZZ-1: A-2-3-4-5 (a straight, to a high hand) is the best low; 6-4-3-2-A beats
    7-4-3-2-A; K-Q-J-T-9 beats a pair of aces."""
    rank = razz_rank
    assert rank(parse_cards("5h 4h 3h 2h Ah")) == max(
        rank(five) for five in combinations(range(52), 5) if five[0] < 8
    )
    assert rank(parse_cards("6c 4d 3h 2s Ac")) > rank(parse_cards("7c 4d 3h 2s Ac"))
    assert rank(parse_cards("Kc Qd Jh Ts 9c")) > rank(parse_cards("Ac Ad 2h 3s 4c"))


def test_r_razz_1_seven_cards_agree_with_pokerkit() -> None:
    """R-RAZZ-1 against PokerKit's ace-to-five low on 20,000 random seven-card hands: the
    same order between every pair of neighbours, the same ties, the same five cards' values."""
    rng = random.Random(24)
    pk_card = [next(iter(pokerkit.Card.parse(card_text(card)))) for card in range(52)]
    hands = [rng.sample(range(52), 7) for _ in range(20_000)]
    ours = [razz_rank7(*hand) for hand in hands]
    theirs = [pokerkit.RegularLowHand.from_game([pk_card[c] for c in hand]) for hand in hands]
    for i in range(len(hands) - 1):
        assert (ours[i] > ours[i + 1]) == (theirs[i] > theirs[i + 1]), hands[i : i + 2]
        assert (ours[i] == ours[i + 1]) == (theirs[i] == theirs[i + 1]), hands[i : i + 2]
    for hand, pk in zip(hands[:2000], theirs[:2000], strict=True):
        five = best_razz_five(hand)
        assert razz_rank(five) == razz_rank(hand)
        assert sorted(c >> 2 for c in five) == sorted(
            "23456789TJQKA".index(c.rank.value) for c in pk.cards
        )


def test_r_razz_6_a_low_is_named_by_its_cards_from_the_highest_down() -> None:
    """R-RAZZ-6: "7-5-4-2-A"; the ace last; a paired hand by its pair."""
    assert describe_razz(parse_cards("2c 7d Kh 4s Ac 5d Qs")) == "7-5-4-2-A"
    assert describe_razz(parse_cards("2c 7d Kh 4s Ac 5d Qs"), separator=",") == "7,5,4,2,A"
    assert describe_razz(parse_cards("9c 9d 4h 2s Ac 9h 9s")) == "a pair of Nines"
    assert describe_razz(parse_cards("Kc 4d Ah")) == "K-4-A"


def test_r_razz_1_the_seven_card_hot_path_gives_the_best_five_card_low() -> None:
    """razz_rank7 (which razz_rank uses for seven cards) reads the cards two at a time and
    remembers paired hands by their values: on random hands, and on hands of at most four
    values (a pair must play) seen the first time and again, in any order of the cards, it
    gives the best of the hand's 21 five-card lows."""
    rng = random.Random(2412)
    hands = [rng.sample(range(52), 7) for _ in range(5_000)]
    while len(hands) < 7_000:
        hand = rng.sample(range(52), 7)
        if len({card >> 2 for card in hand}) <= 4:
            hands.append(hand)
    for hand in hands:
        expected = max(razz_rank(five) for five in combinations(hand, 5))
        assert razz_rank7(*hand) == razz_rank(hand) == expected, card_text_of(hand)
        shuffled = rng.sample(hand, 7)
        assert razz_rank7(*shuffled) == expected, card_text_of(shuffled)


def card_text_of(hand: list[int]) -> str:
    return " ".join(card_text(card) for card in hand)
