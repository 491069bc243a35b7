"""The evaluators against published counts and independent evaluators (R-POT-2, R-HILO-1).

The counts are read at test time from ../shared/testdata/hand-counts/ (hand-counts.md and
low8_best_low_distribution_7card.csv), not copied here.
"""

from __future__ import annotations

import csv
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb, prod

import treys

from stud.cards import Card, card_text
from stud.evaluate import HandCategory, best_low_five, high_category, high_rank, low8_rank
from tests.stud.pokerstars import shared_testdata

CATEGORY_BY_TABLE_NAME = {
    "straight flush": HandCategory.STRAIGHT_FLUSH,
    "four of a kind": HandCategory.FOUR_OF_A_KIND,
    "full house": HandCategory.FULL_HOUSE,
    "flush": HandCategory.FLUSH,
    "straight": HandCategory.STRAIGHT,
    "three of a kind": HandCategory.THREE_OF_A_KIND,
    "two pair": HandCategory.TWO_PAIR,
    "one pair": HandCategory.PAIR,
    "high card": HandCategory.HIGH_CARD,
}


def published_five_card_counts() -> dict[HandCategory, tuple[int, int]]:
    """hands and distinct classes per category, from the '5-card hands' table."""
    text = (shared_testdata("hand-counts") / "hand-counts.md").read_text()
    section = text.split("## 5-card hands", 1)[1].split("\n## ", 1)[0]
    counts: dict[HandCategory, tuple[int, int]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            continue
        name = re.sub(r"\s*\(.*\)", "", cells[0])
        if name in CATEGORY_BY_TABLE_NAME:
            hands, classes = (int(cell.replace(",", "")) for cell in cells[1:])
            counts[CATEGORY_BY_TABLE_NAME[name]] = (hands, classes)
    assert len(counts) == 9, section
    return counts


def published_number(pattern: str) -> int:
    text = (shared_testdata("hand-counts") / "hand-counts.md").read_text()
    match = re.search(pattern, text)
    assert match, pattern
    return int(match.group(1).replace(",", ""))


def published_low_distribution() -> list[dict[str, str]]:
    path = shared_testdata("hand-counts") / "low8_best_low_distribution_7card.csv"
    with path.open(newline="") as rows:
        return list(csv.DictReader(rows))


def test_r_pot_2_all_2598960_five_card_hands_match_the_published_counts() -> None:
    published = published_five_card_counts()
    hands_per_rank = [0] * 7463
    for five in combinations(range(52), 5):
        hands_per_rank[high_rank(five)] += 1

    hands: Counter[HandCategory] = Counter()
    classes: Counter[HandCategory] = Counter()
    for rank in range(1, 7463):
        assert hands_per_rank[rank] > 0, f"rank {rank} never made"
        category = high_category(rank)
        hands[category] += hands_per_rank[rank]
        classes[category] += 1
    assert hands_per_rank[0] == 0
    assert sum(hands.values()) == comb(52, 5) == 2_598_960
    assert sum(classes.values()) == 7462
    for category, (hand_count, class_count) in published.items():
        assert (hands[category], classes[category]) == (hand_count, class_count), category


def test_r_hilo_1_all_five_card_hands_give_the_published_low_counts() -> None:
    qualifying = published_number(r"from 5 cards: ([\d,]+) of 2,598,960")
    per_low = Counter(low8_rank(five) for five in combinations(range(52), 5))
    lows = {rank: count for rank, count in per_low.items() if rank is not None}
    assert sum(lows.values()) == qualifying == 57_344
    rows = published_low_distribution()
    assert len(lows) == len(rows) == 56
    assert sorted(lows.values()) == sorted(int(row["count_5card_hands"]) for row in rows)


def rank_count_vectors(cards_left: int, rank: int = 0) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``cards_left`` cards as counts per rank (at most four of a rank)."""
    if rank == 12:
        if cards_left <= 4:
            yield (cards_left,)
        return
    for count in range(min(4, cards_left) + 1):
        for rest in rank_count_vectors(cards_left - count, rank + 1):
            yield (count, *rest)


def low_label(cards: Sequence[Card]) -> str:
    five = best_low_five(cards)
    assert five is not None
    return "".join(card_text(card)[0] for card in five)


def test_r_hilo_1_all_seven_card_hands_give_the_published_best_low_distribution() -> None:
    """Exhaustive over C(52,7) by rank pattern: a low ignores suits, so each pattern of ranks
    stands for prod(C(4, k)) hands; the result is compared to the published CSV."""
    per_label: Counter[str] = Counter()
    no_low = 0
    total = 0
    for counts in rank_count_vectors(7):
        weight = prod(comb(4, count) for count in counts)
        cards = [rank * 4 + suit for rank, count in enumerate(counts) for suit in range(count)]
        total += weight
        if low8_rank(cards) is None:
            no_low += weight
        else:
            per_label[low_label(cards)] += weight
    assert total == comb(52, 7)
    published = {
        row["best_low_8_or_better"]: int(row["count_7card_hands"])
        for row in published_low_distribution()
    }
    assert dict(per_label) == published
    qualifying = published_number(r"Qualifying 8-or-better low from 7 cards: ([\d,]+)")
    assert total - no_low == qualifying == 24_530_944


# --- independent cross-checks on random seven-card hands ---------------------------------


def reference_high_five(five: Sequence[Card]) -> tuple[int, ...]:
    """A plain, slow five-card evaluator: (category, ranks that break ties...)."""
    ranks = sorted((card // 4 for card in five), reverse=True)
    counts = Counter(ranks)
    grouped = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card % 4 for card in five}) == 1
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top is not None and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *grouped)
    if shape == [3, 2]:
        return (6, *grouped)
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *grouped)
    if shape == [2, 2, 1]:
        return (2, *grouped)
    if shape == [2, 1, 1, 1]:
        return (1, *grouped)
    return (0, *ranks)


def reference_high(seven: Sequence[Card]) -> tuple[int, ...]:
    return max(reference_high_five(five) for five in combinations(seven, 5))


def reference_low(seven: Sequence[Card]) -> tuple[int, ...] | None:
    """Best eight-or-better low by brute force, as a sort key where SMALLER is better."""
    lows = []
    for five in combinations(seven, 5):
        values = sorted((1 if card // 4 == 12 else card // 4 + 2 for card in five), reverse=True)
        if len(set(values)) == 5 and values[0] <= 8:
            lows.append(tuple(values))
    return min(lows) if lows else None


def random_seven_card_hands(count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 7) for _ in range(count)]


def assert_same_order(pairs: set[tuple[tuple[int, ...], int]]) -> None:
    """Each reference key maps to one rank and back, and sorting by key sorts the ranks."""
    rank_by_key: dict[tuple[int, ...], int] = {}
    for key, rank in pairs:
        assert rank_by_key.setdefault(key, rank) == rank, key
    assert len(set(rank_by_key.values())) == len(rank_by_key)
    ranks_in_key_order = [rank_by_key[key] for key in sorted(rank_by_key)]
    assert ranks_in_key_order == sorted(ranks_in_key_order)


def test_r_pot_2_100000_seven_card_hands_order_as_a_brute_force_reference() -> None:
    pairs = set()
    for seven in random_seven_card_hands(100_000, seed=2024):
        key = reference_high(seven)
        rank = high_rank(seven)
        assert int(high_category(rank)) == key[0], seven
        pairs.add((key, rank))
    assert_same_order(pairs)


def test_r_pot_2_100000_seven_card_hands_equal_treys() -> None:
    """treys numbers hands 1 (royal flush) .. 7462 like Cactus Kev; ours is 7463 minus it."""
    evaluator = treys.Evaluator()
    treys_card = {card: treys.Card.new(card_text(card)) for card in range(52)}
    for seven in random_seven_card_hands(100_000, seed=7):
        as_treys = [treys_card[card] for card in seven]
        assert high_rank(seven) == 7463 - evaluator.evaluate(as_treys[:2], as_treys[2:]), seven


def test_r_hilo_1_100000_seven_card_lows_order_as_a_brute_force_reference() -> None:
    pairs = set()
    for seven in random_seven_card_hands(100_000, seed=8):
        key = reference_low(seven)
        rank = low8_rank(seven)
        assert (key is None) == (rank is None), seven
        if key is not None and rank is not None:
            # the reference key is smaller-is-better; negate it so both grow with strength
            pairs.add((tuple(-value for value in key), rank))
    assert len(pairs) == 56
    assert_same_order(pairs)
