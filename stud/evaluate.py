"""Hand evaluators: high (R-POT-2), eight-or-better low (R-HILO-1) and the board (R-ORDER-1).

High hands go to phevaluator's C perfect-hash evaluator (its rank 1 is a royal flush and 7462
the worst high card); we turn it round so that a larger number is a better hand. The low is
ours and table-driven: the set of distinct ranks eight or lower (ace low) is an 8-bit mask, and
a 256-entry table gives the best low those ranks make. Both evaluators compare the same way:
larger is better, equal is a tie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import cast

from phevaluator import _pheval  # type: ignore[import-untyped,unused-ignore]

from stud.cards import Card

# --- high ----------------------------------------------------------------------------------

_WORST_PHEVALUATOR_RANK = 7462
HIGH_RANK_COUNT = 7462  # distinct five-card high hands (R-POT-2)

_Evaluator = Callable[..., int]
_EVALUATE_5 = cast(_Evaluator, _pheval.evaluate_5cards)
_EVALUATE_6 = cast(_Evaluator, _pheval.evaluate_6cards)
_EVALUATE_7 = cast(_Evaluator, _pheval.evaluate_7cards)
_EVALUATOR_BY_COUNT: dict[int, _Evaluator] = {
    5: _EVALUATE_5,
    6: _EVALUATE_6,
    7: _EVALUATE_7,
}


class HandCategory(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


# Our rank (7463 - phevaluator's) at which each category begins, best category first.
_CATEGORY_FLOORS: tuple[tuple[int, HandCategory], ...] = (
    (7463 - 10, HandCategory.STRAIGHT_FLUSH),
    (7463 - 166, HandCategory.FOUR_OF_A_KIND),
    (7463 - 322, HandCategory.FULL_HOUSE),
    (7463 - 1599, HandCategory.FLUSH),
    (7463 - 1609, HandCategory.STRAIGHT),
    (7463 - 2467, HandCategory.THREE_OF_A_KIND),
    (7463 - 3325, HandCategory.TWO_PAIR),
    (7463 - 6185, HandCategory.PAIR),
    (1, HandCategory.HIGH_CARD),
)


def high_rank(cards: Sequence[Card]) -> int:
    """The best five-card high hand among 5, 6 or 7 cards: 1 (7-5-4-3-2) .. 7462 (royal flush).

    A larger number is a better hand; equal numbers tie (R-POT-2, R-POT-3).
    """
    if len(cards) == 7:  # the common case first: a stud hand at showdown
        return 7463 - _EVALUATE_7(*cards)
    try:
        evaluator = _EVALUATOR_BY_COUNT[len(cards)]
    except KeyError:
        raise ValueError(f"a high hand needs 5 to 7 cards, not {len(cards)}") from None
    return 7463 - evaluator(*cards)


def high_rank7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card) -> int:
    """``high_rank`` for exactly seven cards, without the length check (the hot path)."""
    return 7463 - _EVALUATE_7(a, b, c, d, e, f, g)


def high_category(rank: int) -> HandCategory:
    """The category of a ``high_rank`` value."""
    if not 1 <= rank <= HIGH_RANK_COUNT:
        raise ValueError(f"not a high rank: {rank}")
    for floor, category in _CATEGORY_FLOORS:
        if rank >= floor:
            return category
    raise AssertionError("unreachable")  # pragma: no cover


def best_high_five(cards: Sequence[Card]) -> list[Card]:
    """The five cards that make the best high hand, strongest first (groups, then kickers)."""
    if len(cards) == 5:
        best = list(cards)
    else:
        if not 5 <= len(cards) <= 7:
            raise ValueError(f"a high hand needs 5 to 7 cards, not {len(cards)}")
        best = list(max(combinations(cards, 5), key=lambda five: 7463 - _EVALUATE_5(*five)))
    return _order_high_five(best)


_RANK_NAMES = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_PLURALS = (
    "Deuces",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)


def _order_high_five(five: list[Card]) -> list[Card]:
    """Order five cards as a player reads them: bigger groups first, then by rank.

    A wheel (5-4-3-2-A) puts the ace last.
    """
    counts: dict[int, int] = {}
    for card in five:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    ordered = sorted(five, key=lambda card: (counts[card >> 2], card >> 2, card & 3), reverse=True)
    ranks = [card >> 2 for card in ordered]
    if ranks == [12, 3, 2, 1, 0]:
        ordered = ordered[1:] + ordered[:1]
    return ordered


def describe_high(cards: Sequence[Card]) -> str:
    """PokerStars' words for the best high hand: ``"two pair, Kings and Nines"``. Fewer than
    five cards (a hand won early and shown, R-SHOW-3) are worded by pairs, trips and quads."""
    if len(cards) < 5:
        return _describe_few(cards)
    category = high_category(high_rank(cards))
    five = best_high_five(cards)
    ranks = [card >> 2 for card in five]
    if category is HandCategory.STRAIGHT_FLUSH:
        if ranks[0] == 12:
            return "a Royal Flush"
        return f"a straight flush, {_RANK_NAMES[ranks[-1]]} to {_RANK_NAMES[ranks[0]]}"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {_RANK_PLURALS[ranks[0]]}"
    if category is HandCategory.FULL_HOUSE:
        return f"a full house, {_RANK_PLURALS[ranks[0]]} full of {_RANK_PLURALS[ranks[3]]}"
    if category is HandCategory.FLUSH:
        return f"a flush, {_RANK_NAMES[ranks[0]]} high"
    if category is HandCategory.STRAIGHT:
        return f"a straight, {_RANK_NAMES[ranks[-1]]} to {_RANK_NAMES[ranks[0]]}"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {_RANK_PLURALS[ranks[0]]}"
    if category is HandCategory.TWO_PAIR:
        return f"two pair, {_RANK_PLURALS[ranks[0]]} and {_RANK_PLURALS[ranks[2]]}"
    if category is HandCategory.PAIR:
        return f"a pair of {_RANK_PLURALS[ranks[0]]}"
    return f"high card {_RANK_NAMES[ranks[0]]}"


def _describe_few(cards: Sequence[Card]) -> str:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    most, top = groups[0]
    if most == 4:
        return f"four of a kind, {_RANK_PLURALS[top]}"
    if most == 3:
        return f"three of a kind, {_RANK_PLURALS[top]}"
    if most == 2 and len(groups) > 1 and groups[1][0] == 2:
        return f"two pair, {_RANK_PLURALS[top]} and {_RANK_PLURALS[groups[1][1]]}"
    if most == 2:
        return f"a pair of {_RANK_PLURALS[top]}"
    return f"high card {_RANK_NAMES[top]}"


# --- eight-or-better low (R-HILO-1) -------------------------------------------------------

# Bit (value - 1) for a card of low value 1 (ace) .. 8; 0 for nine to king.
_LOW_BIT: tuple[int, ...] = tuple(
    (1 << 0) if card >> 2 == 12 else (1 << ((card >> 2) + 1)) if card >> 2 <= 6 else 0
    for card in range(52)
)


def _lowest_five_bits(mask: int) -> int:
    kept = 0
    count = 0
    for bit in range(8):
        if mask & (1 << bit):
            kept |= 1 << bit
            count += 1
            if count == 5:
                return kept
    return 0


# For two sets of five distinct low values, comparing the highest card, then the next, and so
# on, is the same as comparing the two bitmasks as integers; 256 - mask makes larger better.
_LOW_RANK_BY_MASK: tuple[int | None, ...] = tuple(
    (256 - five) if (five := _lowest_five_bits(mask)) else None for mask in range(256)
)
_LOW_FIVE_BY_MASK: tuple[int, ...] = tuple(_lowest_five_bits(mask) for mask in range(256))

LOW_RANK_COUNT = 56  # distinct eight-or-better lows


def low8_rank(cards: Sequence[Card]) -> int | None:
    """The best eight-or-better low among the cards, or None when none qualifies.

    Five unpaired cards eight or lower, the ace low; straights and flushes do not count against
    a low (R-HILO-1). A larger number is a better low: 5-4-3-2-A is the best, 8-7-6-5-4 the
    worst; equal numbers tie.
    """
    mask = 0
    for card in cards:
        mask |= _LOW_BIT[card]
    return _LOW_RANK_BY_MASK[mask]


def low8_rank7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card) -> int | None:
    """``low8_rank`` for exactly seven cards (the hot path)."""
    bit = _LOW_BIT
    return _LOW_RANK_BY_MASK[bit[a] | bit[b] | bit[c] | bit[d] | bit[e] | bit[f] | bit[g]]


def _low_value(card: Card) -> int:
    return 1 if card >> 2 == 12 else (card >> 2) + 2


def best_low_five(cards: Sequence[Card]) -> list[Card] | None:
    """The five cards of the best eight-or-better low, highest first; None when none."""
    mask = 0
    for card in cards:
        mask |= _LOW_BIT[card]
    five = _LOW_FIVE_BY_MASK[mask]
    if not five:
        return None
    chosen: dict[int, Card] = {}
    for card in cards:
        bit = _LOW_BIT[card]
        if bit & five and bit not in chosen:
            chosen[bit] = card
    return sorted(chosen.values(), key=_low_value, reverse=True)


def describe_low(cards: Sequence[Card]) -> str:
    """PokerStars' words for the best low: ``"8,7,5,3,A"``; empty when no low qualifies."""
    five = best_low_five(cards)
    if five is None:
        return ""
    return ",".join("A" if card >> 2 == 12 else str((card >> 2) + 2) for card in five)


# --- the board (R-ORDER-1) -----------------------------------------------------------------


class BoardCategory(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    FULL_HOUSE = 4  # only with a community card (R-ORDER-2): five cards counted
    FOUR_OF_A_KIND = 5


def board_rank(up_cards: Sequence[Card]) -> tuple[int, ...]:
    """How strong the cards showing are, for who acts first on 4th to 7th street (R-ORDER-1).

    ``(category, ranks...)``: the category (BoardCategory: high card, pair, two pair, trips,
    a full house when a community card makes five, quads), then the ranks (0..12, ace high)
    of the groups, biggest group first, then the kickers high to low. Straights and flushes
    never count and suits never break a tie, so two boards of the same ranks compare equal.
    A larger tuple acts first.
    """
    if not 1 <= len(up_cards) <= 5:
        raise ValueError(f"a board shows 1 to 5 cards, not {len(up_cards)}")
    counts: dict[int, int] = {}
    for card in up_cards:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    category = _board_category([size for _, size in groups])
    return (int(category), *(rank for rank, _ in groups))


def _board_category(sizes: Sequence[int]) -> BoardCategory:
    """A board's category from its groups' sizes, biggest first."""
    if sizes[0] == 4:
        return BoardCategory.FOUR_OF_A_KIND
    if sizes[0] == 3 and len(sizes) > 1 and sizes[1] == 2:
        return BoardCategory.FULL_HOUSE
    if sizes[0] == 3:
        return BoardCategory.THREE_OF_A_KIND
    if sizes[0] == 2 and len(sizes) > 1 and sizes[1] == 2:
        return BoardCategory.TWO_PAIR
    if sizes[0] == 2:
        return BoardCategory.PAIR
    return BoardCategory.HIGH_CARD


# --- ace-to-five low (R-RAZZ-1) ------------------------------------------------------------
#
# A card's low value: ace 0, deuce 1, ... king 12. A five-card low is ranked like a high hand
# turned round, straights and flushes never counting: the pattern of its groups first
# (unpaired, one pair, two pair, trips, full house, quads: fewer pairs is better), then the
# groups' values, biggest group first and highest value first (lower is better). ``razz_rank``
# turns that into one number where, as everywhere here, larger is better.

_LOW_VALUE: tuple[int, ...] = tuple(((card >> 2) + 1) % 13 for card in range(52))
_RAZZ_BIT: tuple[int, ...] = tuple(1 << value for value in _LOW_VALUE)
_RAZZ_PATTERNS: dict[tuple[int, ...], int] = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}
RAZZ_WORST_KEY = 6 * 13**5
RAZZ_RANK_COUNT = 6175  # distinct ace-to-five lows of five cards (tests count them)


def _razz_key(values: Sequence[int]) -> int:
    """Five low values -> a number, smaller for a better low (see above)."""
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    key = _RAZZ_PATTERNS[tuple(size for _, size in groups)]
    for value, _ in groups:
        key = key * 13 + value
    for _ in range(5 - len(groups)):
        key *= 13
    return key


def _unpaired_razz_rank(mask: int) -> int | None:
    """The rank of the best low among the values of ``mask`` when it holds five or more:
    the five lowest, unpaired (their key is their values, highest first, as digits)."""
    key = 0
    count = 0
    for value in range(13):
        if mask >> value & 1:
            key += value * int(13**count)
            count += 1
            if count == 5:
                return RAZZ_WORST_KEY - key
    return None


# Five or more different values: the best low is the five lowest, unpaired (a table by mask).
_RAZZ_RANK_BY_MASK: tuple[int | None, ...] = tuple(
    _unpaired_razz_rank(mask) for mask in range(1 << 13)
)
# The same with 0 for "fewer than five values" (every rank is above 0): for ``or``.
_RAZZ_UNPAIRED_BY_MASK: tuple[int, ...] = tuple(rank or 0 for rank in _RAZZ_RANK_BY_MASK)
# Fewer: some card must pair. The best five are found once per multiset of values held,
# named by one number: 5 ** value per card (at most four cards share a value, so no carry).
_RAZZ_WEIGHT: tuple[int, ...] = tuple(5**value for value in _LOW_VALUE)
_RAZZ_RANK_BY_VALUES: dict[int, int] = {}


def _razz_rank_paired(cards: Sequence[Card]) -> int:
    weight = _RAZZ_WEIGHT
    key = 0
    for card in cards:
        key += weight[card]
    rank = _RAZZ_RANK_BY_VALUES.get(key)
    if rank is None:
        values = [_LOW_VALUE[card] for card in cards]
        best = min(_razz_key(five) for five in combinations(values, 5))
        rank = _RAZZ_RANK_BY_VALUES[key] = RAZZ_WORST_KEY - best
    return rank


def razz_rank(cards: Sequence[Card]) -> int:
    """The best ace-to-five low among 5, 6 or 7 cards (R-RAZZ-1): larger is better, A-2-3-4-5
    the best of all; equal numbers tie. Pairs count against a hand, straights and flushes do
    not count."""
    if len(cards) == 7:  # a whole stud hand: the hot path, reading the cards in pairs
        return razz_rank7(*cards)
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a low hand needs 5 to 7 cards, not {len(cards)}")
    mask = 0
    for card in cards:
        mask |= _RAZZ_BIT[card]
    rank = _RAZZ_RANK_BY_MASK[mask]
    return rank if rank is not None else _razz_rank_paired(cards)


# Two cards at once, by card: ``_RAZZ_PAIR_BITS[a][b] == bit[a] | bit[b]`` and
# ``_RAZZ_PAIR_WEIGHT[a][b] == weight[a] + weight[b]``. A Razz mask has 13 bits, so, unlike
# the eight-or-better low's (below 256, CPython's cached small integers), each ``|`` of two
# masks makes a new int object: six of them, and the paired case's call, made ``razz_rank7``
# about 0.77x as fast as ``low8_rank7``; reading the cards in pairs from these tables leaves
# three, and a paired hand seen before is one more look-up, no call (docs/performance.md).
_RAZZ_PAIR_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_RAZZ_BIT[first] | _RAZZ_BIT[second] for second in range(52)) for first in range(52)
)
_RAZZ_PAIR_WEIGHT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_RAZZ_WEIGHT[first] + _RAZZ_WEIGHT[second] for second in range(52)) for first in range(52)
)


def razz_rank7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card) -> int:
    """``razz_rank`` for exactly seven cards (the hot path): one table look-up when five
    different values are held (95% of random hands), as ``low8_rank7`` does; else the
    remembered rank of the values held (every rank is above 0, so ``or`` chains them)."""
    pair = _RAZZ_PAIR_BITS
    return (
        _RAZZ_UNPAIRED_BY_MASK[pair[a][b] | pair[c][d] | pair[e][f] | _RAZZ_BIT[g]]
        or _RAZZ_RANK_BY_VALUES.get(
            _RAZZ_PAIR_WEIGHT[a][b]
            + _RAZZ_PAIR_WEIGHT[c][d]
            + _RAZZ_PAIR_WEIGHT[e][f]
            + _RAZZ_WEIGHT[g]
        )
        or _razz_rank_paired((a, b, c, d, e, f, g))
    )


def best_razz_five(cards: Sequence[Card]) -> list[Card]:
    """The five cards of the best ace-to-five low, as a player reads them: paired cards
    first (biggest group), then the rest, highest first, the ace last."""
    if len(cards) < 5:
        raise ValueError(f"a low hand needs 5 to 7 cards, not {len(cards)}")
    best = max(combinations(cards, 5), key=razz_rank)
    return _order_low_five(list(best))


def _order_low_five(cards: list[Card]) -> list[Card]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[_LOW_VALUE[card]] = counts.get(_LOW_VALUE[card], 0) + 1
    return sorted(
        cards, key=lambda card: (counts[_LOW_VALUE[card]], _LOW_VALUE[card], card & 3), reverse=True
    )


def low_card_name(card: Card) -> str:
    """A card's rank as a low is written: "A", "2" .. "9", "T", "J", "Q", "K"."""
    return "A" if card >> 2 == 12 else "23456789TJQK"[card >> 2]


def describe_razz(cards: Sequence[Card], separator: str = "-") -> str:
    """The best ace-to-five low in words (R-RAZZ-6): its cards from the highest down,
    ``"7-5-4-2-A"``; a paired hand by its pairs or trips, ``"a pair of Nines"``. Fewer than
    five cards (a street still to come, a hand won early) are worded the same way."""
    ordered = best_razz_five(cards) if len(cards) >= 5 else _order_low_five(list(cards))
    counts: dict[int, int] = {}
    for card in ordered:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    if max(counts.values()) == 1:
        return separator.join(low_card_name(card) for card in ordered)
    return _describe_few(ordered) if len(ordered) < 5 else _describe_paired_low(ordered)


def _describe_paired_low(five: list[Card]) -> str:
    counts: dict[int, int] = {}
    for card in five:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    sizes = sorted(counts.values(), reverse=True)
    ranks = [card >> 2 for card in five]
    if sizes[0] == 4:
        return f"four of a kind, {_RANK_PLURALS[ranks[0]]}"
    if sizes[0] == 3 and sizes[1] == 2:
        return f"a full house, {_RANK_PLURALS[ranks[0]]} full of {_RANK_PLURALS[ranks[3]]}"
    if sizes[0] == 3:
        return f"three of a kind, {_RANK_PLURALS[ranks[0]]}"
    if sizes[0] == 2 and sizes[1] == 2:
        return f"two pair, {_RANK_PLURALS[ranks[0]]} and {_RANK_PLURALS[ranks[2]]}"
    return f"a pair of {_RANK_PLURALS[ranks[0]]}"


def low_board_rank(up_cards: Sequence[Card]) -> tuple[int, ...]:
    """How low the cards showing are, for who acts first in Razz (R-RAZZ-3): the lowest
    board acts first, ranked as ``razz_rank`` ranks lows (pairs counting against, the ace
    low, suits never). Larger acts first, as ``board_rank``: every part is negated."""
    if not 1 <= len(up_cards) <= 5:
        raise ValueError(f"a board shows 1 to 5 cards, not {len(up_cards)}")
    counts: dict[int, int] = {}
    for card in up_cards:
        value = _LOW_VALUE[card]
        counts[value] = counts.get(value, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    category = _board_category([size for _, size in groups])
    return (-int(category), *(-value for value, _ in groups))
