"""Main and side pots (R-POT-1), equal splits and the odd chip (R-POT-3, R-POT-4).

Players are numbered by their place in the deal (0 = nearest the dealer's left), so "nearest
the button's left" is simply the smallest number.
"""

from __future__ import annotations

from collections.abc import Sequence


def build_pots(
    layers: Sequence[Sequence[int]], live: Sequence[bool], *, dead_antes: Sequence[int] = ()
) -> list[tuple[int, tuple[int, ...]]]:
    """The pots, main pot first, as ``(amount, eligible players)``.

    ``layers`` are contributions per player, layer by layer: normally one layer (antes and
    bets together). With dealer-only antes the ante is its own layer (R-ANTE-3), so a dealer
    all-in from the ante is eligible only for the antes. ``live``: still in the hand (not
    folded). A player can win from each opponent only what they put in themselves; pots with
    the same eligible players are merged. ``dead_antes`` (dealer-only antes, R-ANTE-3) are a
    first pot every live player can win, matched by nobody.
    """
    pots: list[tuple[int, tuple[int, ...]]] = []
    if sum(dead_antes):
        pots.append((sum(dead_antes), tuple(i for i, alive in enumerate(live) if alive)))
    for layer in layers:
        levels = sorted({amount for amount, alive in zip(layer, live, strict=True) if alive})
        previous = 0
        for level in levels:
            if level <= previous:
                continue
            amount = 0
            for contributed in layer:
                if contributed > previous:
                    amount += (level if contributed > level else contributed) - previous
            eligible = tuple(
                index
                for index, contributed in enumerate(layer)
                if live[index] and contributed >= level
            )
            pots.append((amount, eligible))
            previous = level
        # Folded money above every live player's level (not normally possible once uncalled
        # bets are returned) still belongs to the last pot of this layer.
        excess = sum(contributed - previous for contributed in layer if contributed > previous)
        if excess:
            if pots:
                amount, eligible = pots[-1]
                pots[-1] = (amount + excess, eligible)
            else:
                everyone = tuple(index for index, alive in enumerate(live) if alive)
                pots.append((excess, everyone))
    merged: list[tuple[int, tuple[int, ...]]] = []
    for amount, eligible in pots:
        if not amount:
            continue
        if merged and merged[-1][1] == eligible:
            merged[-1] = (merged[-1][0] + amount, eligible)
        else:
            merged.append((amount, eligible))
    return merged


def split_evenly(amount: int, winners_in_odd_chip_order: Sequence[int]) -> list[tuple[int, int]]:
    """R-POT-3: equal shares; the odd chips go one each to the first winners in the order
    given (R-POT-4 decides that order). Returns ``(player, chips)`` in the order given."""
    count = len(winners_in_odd_chip_order)
    share, odd = divmod(amount, count)
    return [
        (player, share + (1 if place < odd else 0))
        for place, player in enumerate(winners_in_odd_chip_order)
    ]
