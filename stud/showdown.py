"""Settling a finished hand: rake, pots, winners, odd chips, show or muck.

R-SHOW-1..4, R-POT-1..5, R-HILO-1..4, R-RAZZ-5, R-RAKE-1. Works on the hand's plain numbers;
players are numbered in the order of the deal (0 = nearest the dealer's left).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stud.actions import Event, new_event
from stud.cards import Card
from stud.config import GameConfig, OddChip, SeatSetup
from stud.evaluate import (
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    describe_razz,
    high_rank,
    low8_rank7,
)
from stud.pots import build_pots, split_evenly
from stud.rake import split_rake
from stud.result import Award, HandResult, PotResult, new_award, new_hand_result, new_pot_result
from stud.variant import Variant


@dataclass(frozen=True, slots=True)
class TableAtEnd:
    """What settling needs to know about the hand."""

    config: GameConfig
    players: tuple[SeatSetup, ...]
    live: tuple[bool, ...]
    cards: tuple[tuple[Card, ...], ...]  # each player's cards in the order dealt
    community: Card | None
    antes: tuple[int, ...]
    committed: tuple[int, ...]  # bets after uncalled bets were returned, antes excluded
    stacks: tuple[int, ...]
    uncalled: tuple[tuple[int, int], ...]
    show_first: int  # R-SHOW-2: who shows first (-1 without a showdown)


def settle(table: TableAtEnd) -> tuple[HandResult, list[Event], list[int]]:
    """The result, its events, and the final stacks (in deal order).

    Named steps: the pots and their rake (R-POT-1, R-POT-5); each live hand's value, as the
    variant ranks it (R-SHOW-1); each pot shared among its winners (R-POT-3/4, R-HILO-1..4,
    R-RAZZ-5); who shows and who mucks (R-SHOW-2/3); the chips pushed; the result."""
    config = table.config
    pots, rake, rake_shares = _pots_and_rake(table)
    showdown = table.show_first >= 0
    values = _HandValues(table) if showdown else None
    words = _HandWords(config.variant, values)
    winners_of = [
        _share_pot(config, amount - taken, eligible, values, words)
        for (amount, eligible), taken in zip(pots, rake_shares, strict=True)
    ]
    events: list[Event] = []
    show_order, shown, mucked = (
        _show_or_muck(table, winners_of, words, events) if showdown else ([], [], [])
    )
    if rake:
        events.append(new_event("rake", {"amount": rake, "per_pot": list(rake_shares)}))
    stacks = list(table.stacks)
    pot_results = _push_chips(table.players, pots, rake_shares, winners_of, words, stacks, events)
    players = table.players
    final_stacks = tuple((players[i].seat, stacks[i]) for i in range(len(players)))
    result = new_hand_result(
        tuple(pot_results),
        rake,
        table.uncalled,
        showdown,
        tuple(show_order),
        tuple(shown),
        tuple(mucked),
        final_stacks,
    )
    events.append(_hand_end_event(rake, final_stacks))
    return result, events, stacks


def _pots_and_rake(table: TableAtEnd) -> tuple[list[tuple[int, tuple[int, ...]]], int, list[int]]:
    """R-POT-1 (R-ANTE-3's dead antes), R-POT-5, R-RAKE-1: the pots, the rake, each pot's
    share of it."""
    config = table.config
    if config.dealer_only_ante:
        pots = build_pots([table.committed], table.live, dead_antes=table.antes)
    else:
        layers = [[a + c for a, c in zip(table.antes, table.committed, strict=True)]]
        pots = build_pots(layers, table.live)
    total = sum(amount for amount, _ in pots)
    rake = 0 if config.rake is None else config.rake.rake_for(total, len(table.players))
    return pots, rake, split_rake(rake, [amount for amount, _ in pots])


class _HandValues:
    """Each live player's seven cards and their value (R-SHOW-1): ``main``, as the variant
    ranks a hand (high, or the ace-to-five low), and in Stud Hi/Lo ``low8``."""

    __slots__ = ("low8", "main", "seven")

    def __init__(self, table: TableAtEnd) -> None:
        variant = table.config.variant
        rank7 = variant.rank7
        with_low8 = variant.has_low_half
        self.seven: dict[int, tuple[Card, ...]] = {}
        self.main: dict[int, int] = {}
        self.low8: dict[int, int | None] = {}
        for index in range(len(table.players)):
            if not table.live[index]:
                continue
            cards = table.cards[index]
            if table.community is not None:
                cards = (*cards, table.community)
            self.seven[index] = cards
            self.main[index] = rank7(*cards)
            if with_low8:
                self.low8[index] = low8_rank7(*cards)


def _share_pot(
    config: GameConfig,
    prize: int,
    eligible: tuple[int, ...],
    values: _HandValues | None,
    words: _HandWords,
) -> list[tuple[int, int, str]]:
    """(player, chips, half) for one pot after its rake: uncontested whole; otherwise to the
    best hand (R-POT-3/4, R-RAZZ-5), or split high and eight-or-better low (R-HILO-1..4)."""
    if values is None or len(eligible) == 1:
        return [(p, c, "whole") for p, c in split_evenly(prize, eligible)]
    variant = config.variant
    main = values.main
    best = max(main[p] for p in eligible)
    main_winners = [p for p in eligible if main[p] == best]
    lows = [(rank, p) for p in eligible if (rank := values.low8.get(p)) is not None]
    if not lows:
        half = "high" if variant.has_low_half else "whole"
        order = _odd_chip_order(config, main_winners, words, variant.is_low)
        return [(p, c, half) for p, c in split_evenly(prize, order)]
    best_low = max(rank for rank, _ in lows)
    low_winners = [p for rank, p in lows if rank == best_low]
    low_half = prize // 2
    high_half = prize - low_half  # R-HILO-4: the odd chip goes high
    high_order = _odd_chip_order(config, main_winners, words, False)
    low_order = _odd_chip_order(config, low_winners, words, True)
    return [(p, c, "high") for p, c in split_evenly(high_half, high_order)] + [
        (p, c, "low") for p, c in split_evenly(low_half, low_order)
    ]


def shown_words(variant: Variant, cards: Sequence[Card]) -> dict[str, str]:
    """A shown hand's words in its ``show`` event: ``high`` (and in Stud Hi/Lo ``low``, empty
    without a qualifying low); in Razz ``low`` alone, the ace-to-five low (R-RAZZ-6)."""
    if variant.is_low:
        return {"low": describe_razz(cards)}
    if variant.has_low_half:
        return {"high": describe_high(cards), "low": describe_low(cards)}
    return {"high": describe_high(cards)}


def _show_or_muck(
    table: TableAtEnd,
    winners_of: list[list[tuple[int, int, str]]],
    words: _HandWords,
    events: list[Event],
) -> tuple[list[int], list[tuple[int, tuple[Card, ...]]], list[tuple[int, tuple[Card, ...]]]]:
    """R-SHOW-2 / R-SHOW-3: the order of showing, and who shows (a hand that wins, or whose
    player does not auto-muck) or mucks."""
    players = table.players
    count = len(players)
    variant = table.config.variant
    show_order: list[int] = []
    shown: list[tuple[int, tuple[Card, ...]]] = []
    mucked: list[tuple[int, tuple[Card, ...]]] = []
    winning = {p for shares in winners_of for p, _, _ in shares}
    for step in range(count):
        index = (table.show_first + step) % count
        if not table.live[index]:
            continue
        seat = players[index].seat
        show_order.append(seat)
        cards = table.cards[index]
        if index in winning or not players[index].auto_muck:
            shown.append((seat, cards))
            payload: dict[str, object] = {"seat": seat, "cards": list(cards)}
            if variant.is_low:
                payload["low"] = words.main(index)[1]
            else:
                payload["high"] = words.main(index)[1]
                if variant.has_low_half:
                    payload["low"] = words.low(index)[1]
            events.append(new_event("show", payload))
        else:
            mucked.append((seat, cards))
            events.append(new_event("muck", {"seat": seat}))
    return show_order, shown, mucked


def _push_chips(
    players: tuple[SeatSetup, ...],
    pots: list[tuple[int, tuple[int, ...]]],
    rake_shares: list[int],
    winners_of: list[list[tuple[int, int, str]]],
    words: _HandWords,
    stacks: list[int],
    events: list[Event],
) -> list[PotResult]:
    """Each pot's chips to its winners' stacks, a ``pot_awarded`` event each, and the pots'
    results."""
    pot_results: list[PotResult] = []
    for number, ((amount, eligible), taken, shares) in enumerate(
        zip(pots, rake_shares, winners_of, strict=True)
    ):
        awards: list[Award] = []
        for player, chips, half in shares:
            stacks[player] += chips
            hand_words = ""
            five: tuple[Card, ...] = ()
            if words.showdown:
                five, hand_words = words.low(player) if half == "low" else words.main(player)
            seat = players[player].seat
            awards.append(new_award(seat, chips, half, hand_words, five))
            events.append(
                new_event(
                    "pot_awarded",
                    {
                        "pot": number,
                        "seat": seat,
                        "amount": chips,
                        "half": half,
                        "hand": hand_words,
                        "five": list(five),
                    },
                )
            )
        pot_results.append(
            new_pot_result(amount, taken, tuple([players[p].seat for p in eligible]), tuple(awards))
        )
    return pot_results


def _hand_end_event(rake: int, final_stacks: tuple[tuple[int, int], ...]) -> Event:
    return new_event(
        "hand_end",
        {
            "rake": rake,
            "stacks": [{"seat": seat, "stack": stack} for seat, stack in final_stacks],
        },
    )


class _HandWords:
    """Each player's best five cards and their words, worked out once and only if needed:
    ``main`` as the variant ranks a hand (the high, or Razz's low), ``low`` the
    eight-or-better low of Stud Hi/Lo."""

    __slots__ = ("_low", "_main", "_values", "_variant", "is_razz", "showdown")

    def __init__(self, variant: Variant, values: _HandValues | None) -> None:
        self._variant = variant
        self._values = values
        self.showdown = values is not None
        self.is_razz = variant.is_low
        self._main: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._low: dict[int, tuple[tuple[Card, ...], str]] = {}

    def main(self, player: int) -> tuple[tuple[Card, ...], str]:
        found = self._main.get(player)
        if found is None:
            assert self._values is not None
            seven = self._values.seven[player]
            if self._variant.is_low:
                five = self._variant.best_five(seven)
                found = (tuple(five), describe_razz(five))
            else:
                five = best_high_five(_five_of_rank(seven, self._values.main[player]))
                found = (tuple(five), describe_high(five))
            self._main[player] = found
        return found

    def low(self, player: int) -> tuple[tuple[Card, ...], str]:
        found = self._low.get(player)
        if found is None:
            assert self._values is not None
            five = best_low_five(self._values.seven[player])
            found = self._low[player] = (
                (tuple(five), describe_low(five)) if five is not None else ((), "")
            )
        return found


_FIVES = tuple(
    tuple(k for k in range(7) if k != a and k != b) for a in range(7) for b in range(a + 1, 7)
)


def _five_of_rank(seven: tuple[Card, ...], rank: int) -> tuple[Card, ...]:
    """Five of the seven cards that make the hand ranked ``rank`` (its best high hand)."""
    for a, b, c, d, e in _FIVES:
        five = (seven[a], seven[b], seven[c], seven[d], seven[e])
        if high_rank(five) == rank:
            return five
    raise AssertionError("no five cards make the seven's rank")  # pragma: no cover


def _odd_chip_order(
    config: GameConfig,
    winners: list[int],
    words: _HandWords,
    is_low: bool,
) -> list[int]:
    """R-POT-4: who gets odd chips first. ``left_of_button``: nearest the button's left
    (deal order). ``high_card_by_suit``: the highest single card of the winning five-card hand,
    suits clubs < diamonds < hearts < spades (in a low, the ace counts low)."""
    if len(winners) < 2 or config.odd_chip is OddChip.LEFT_OF_BUTTON:
        return sorted(winners)

    def top_card(player: int) -> int:
        if is_low:
            five = words.main(player)[0] if words.is_razz else words.low(player)[0]
            # low value: ace 0, deuce 1, ... then the suit.
            return max((((card >> 2) + 1) % 13) * 4 + (card & 3) for card in five)
        return max(words.main(player)[0])

    return sorted(winners, key=lambda p: (-top_card(p), p))


def settle_uncontested(
    config: GameConfig,
    players: tuple[SeatSetup, ...],
    winner: int,
    total: int,
    stacks: list[int],
    uncalled: tuple[tuple[int, int], ...],
) -> tuple[HandResult, list[Event], list[int]]:
    """Everyone else folded: one pot to ``winner``, raked the same (R-RAKE-1), nothing shown
    (R-SHOW-3). Returns what ``settle`` returns."""
    rake = 0 if config.rake is None else config.rake.rake_for(total, len(players))
    seat = players[winner].seat
    prize = total - rake
    stacks = stacks[:]
    stacks[winner] += prize
    events: list[Event] = []
    if rake:
        events.append(new_event("rake", {"amount": rake, "per_pot": [rake]}))
    seats = [p.seat for p in players]
    final_stacks = tuple(zip(seats, stacks, strict=True))
    events.append(
        new_event(
            "pot_awarded",
            {"pot": 0, "seat": seat, "amount": prize, "half": "whole", "hand": "", "five": []},
        )
    )
    events.append(_hand_end_event(rake, final_stacks))
    award = new_award(seat, prize, "whole", "", ())
    pot = new_pot_result(total, rake, (seat,), (award,))
    result = new_hand_result((pot,), rake, uncalled, False, (), (), (), final_stacks)
    return result, events, stacks
