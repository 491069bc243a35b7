"""Settling a finished hand: rake, pots, winners, odd chips, show or muck.

R-SHOW-1..4, R-POT-1..5, R-HILO-1..4, R-RAKE-1. Works on the hand's plain numbers; players are
numbered in the order of the deal (0 = nearest the dealer's left).
"""

from __future__ import annotations

from dataclasses import dataclass

from stud.actions import Event, new_event
from stud.cards import Card
from stud.config import Game, GameConfig, OddChip, SeatSetup
from stud.evaluate import (
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    high_rank,
    high_rank7,
    low8_rank7,
)
from stud.pots import build_pots, split_evenly
from stud.rake import split_rake
from stud.result import Award, HandResult, PotResult, new_award, new_hand_result, new_pot_result


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
    """The result, its events, and the final stacks (in deal order)."""
    config = table.config
    players = table.players
    count = len(players)
    if config.dealer_only_ante:
        pots = build_pots([table.committed], table.live, dead_antes=table.antes)
    else:
        layers = [[a + c for a, c in zip(table.antes, table.committed, strict=True)]]
        pots = build_pots(layers, table.live)
    total = sum(amount for amount, _ in pots)
    rake = 0 if config.rake is None else config.rake.rake_for(total, count)
    rake_shares = split_rake(rake, [amount for amount, _ in pots])

    showdown = table.show_first >= 0
    high: dict[int, int] = {}
    low: dict[int, int | None] = {}
    seven: dict[int, tuple[Card, ...]] = {}
    if showdown:
        stud8 = config.game is Game.STUD8
        for index in range(count):
            if not table.live[index]:
                continue
            cards = table.cards[index]
            if table.community is not None:
                cards = (*cards, table.community)
            seven[index] = cards
            high[index] = high_rank7(*cards)
            if stud8:
                low[index] = low8_rank7(*cards)

    words = _HandWords(seven, high)
    events: list[Event] = []
    stacks = list(table.stacks)
    winners_of: list[list[tuple[int, int, str]]] = []  # per pot: (player, chips, half)
    for (amount, eligible), taken in zip(pots, rake_shares, strict=True):
        prize = amount - taken
        shares: list[tuple[int, int, str]] = []
        if not showdown or len(eligible) == 1:
            shares = [(p, c, "whole") for p, c in split_evenly(prize, eligible)]
        else:
            best_high = max(high[p] for p in eligible)
            high_winners = [p for p in eligible if high[p] == best_high]
            lows = [(low[p], p) for p in eligible if low.get(p) is not None]
            if lows:
                best_low = max(rank for rank, _ in lows if rank is not None)
                low_winners = [p for rank, p in lows if rank == best_low]
                low_half = prize // 2
                high_half = prize - low_half  # R-HILO-4: the odd chip goes high
                shares = [
                    (p, c, "high")
                    for p, c in split_evenly(
                        high_half, _odd_chip_order(config, high_winners, words, False)
                    )
                ]
                shares += [
                    (p, c, "low")
                    for p, c in split_evenly(
                        low_half, _odd_chip_order(config, low_winners, words, True)
                    )
                ]
            else:
                half = "high" if config.game is Game.STUD8 else "whole"
                shares = [
                    (p, c, half)
                    for p, c in split_evenly(
                        prize, _odd_chip_order(config, high_winners, words, False)
                    )
                ]
        winners_of.append(shares)

    # R-SHOW-2 / R-SHOW-3: show order, and who shows or mucks.
    show_order: list[int] = []
    shown: list[tuple[int, tuple[Card, ...]]] = []
    mucked: list[tuple[int, tuple[Card, ...]]] = []
    if showdown:
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
                payload: dict[str, object] = {
                    "seat": seat,
                    "cards": list(cards),
                    "high": words.high(index)[1],
                }
                if config.game is Game.STUD8:
                    payload["low"] = words.low(index)[1]
                events.append(new_event("show", payload))
            else:
                mucked.append((seat, cards))
                events.append(new_event("muck", {"seat": seat}))

    if rake:
        events.append(new_event("rake", {"amount": rake, "per_pot": list(rake_shares)}))

    pot_results: list[PotResult] = []
    for number, ((amount, eligible), taken, shares) in enumerate(
        zip(pots, rake_shares, winners_of, strict=True)
    ):
        awards: list[Award] = []
        for player, chips, half in shares:
            stacks[player] += chips
            hand_words = ""
            five: tuple[Card, ...] = ()
            if showdown:
                five, hand_words = words.low(player) if half == "low" else words.high(player)
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

    final_stacks = tuple((players[i].seat, stacks[i]) for i in range(count))
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
    events.append(
        new_event(
            "hand_end",
            {
                "rake": rake,
                "stacks": [{"seat": seat, "stack": stack} for seat, stack in final_stacks],
            },
        )
    )
    return result, events, stacks


class _HandWords:
    """Each player's best five cards and their words, worked out once and only if needed."""

    __slots__ = ("_high", "_low", "_rank", "_seven")

    def __init__(self, seven: dict[int, tuple[Card, ...]], rank: dict[int, int]) -> None:
        self._seven = seven
        self._rank = rank
        self._high: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._low: dict[int, tuple[tuple[Card, ...], str]] = {}

    def high(self, player: int) -> tuple[tuple[Card, ...], str]:
        found = self._high.get(player)
        if found is None:
            five = best_high_five(_five_of_rank(self._seven[player], self._rank[player]))
            found = self._high[player] = (tuple(five), describe_high(five))
        return found

    def low(self, player: int) -> tuple[tuple[Card, ...], str]:
        found = self._low.get(player)
        if found is None:
            five = best_low_five(self._seven[player])
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
            five = words.low(player)[0]
            # low value: ace 0, deuce 1, ... then the suit.
            return max((((card >> 2) + 1) % 13) * 4 + (card & 3) for card in five)
        return max(words.high(player)[0])

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
    events.append(
        new_event(
            "hand_end",
            {
                "rake": rake,
                "stacks": [{"seat": s, "stack": stack} for s, stack in final_stacks],
            },
        )
    )
    award = new_award(seat, prize, "whole", "", ())
    pot = new_pot_result(total, rake, (seat,), (award,))
    result = new_hand_result((pot,), rake, uncalled, False, (), (), (), final_stacks)
    return result, events, stacks
