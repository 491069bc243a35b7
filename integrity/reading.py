"""A finished hand read decision by decision, with every card face up (the room's own view,
never a player's): who acted, on which street, facing whose bet, heads-up or not, and every
seat's cards at that moment. The signals (integrity.signals) are counted from these.

The hand is replayed from its log by the engine (``StudHand.start`` and ``apply``), so what
is read is exactly what was played; nothing here decides a rule of poker.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stud import Action, StudHand
from stud.actions import Abandon, TimeOut
from stud.cards import FULL_DECK, Card, card_rank
from stud.evaluate import HandCategory, high_category, high_rank

AGGRESSIVE = frozenset({"bet", "raise", "complete"})
CONTINUING = frozenset({"call", "bet", "raise", "complete", "check", "bring_in"})


@dataclass(frozen=True)
class Decision:
    """One action of a player, and the table as the room saw it just before."""

    seat: int
    kind: str  # fold, check, call, bring_in, complete, bet, raise
    street: int
    to_call: int  # chips the seat had to add to stay in (0: it could check)
    pot: int  # chips in the pot and in front of the players before the action
    bettor: int | None  # the seat whose bet or raise it faced (None: none this street)
    live: tuple[int, ...]  # seats still in the hand (not folded), the actor included
    could_raise: bool  # a bet, raise or completion was offered
    cards: Mapping[int, tuple[Card, ...]]  # every seat's cards so far (down and up)
    up: Mapping[int, tuple[Card, ...]]
    folded_cards: Mapping[int, tuple[Card, ...]]  # cards of the seats that had folded

    @property
    def heads_up(self) -> bool:
        return len(self.live) == 2

    @property
    def facing_bet(self) -> bool:
        return self.to_call > 0


@dataclass(frozen=True)
class ReadHand:
    hand_id: int
    game: str
    players: Mapping[int, int]  # seat -> player id
    decisions: tuple[Decision, ...]
    net: Mapping[int, int]  # seat -> chips won (+) or lost (-)
    final: StudHand


def _cards_now(engine: StudHand) -> dict[int, tuple[Card, ...]]:
    return {seat: engine.cards(seat) for seat in engine.seats}


def read_hand(
    *, hand_id: int, state: Mapping[str, Any], players: Mapping[str, int]
) -> ReadHand | None:
    """The hand's decisions, or None when it did not finish (abandoned before a result)."""
    final = StudHand.from_json(state)
    if final.result is None:
        return None
    engine, _ = StudHand.start(
        final.config, final.players, final.deck, final.button, reshuffle_seed=final.reshuffle_seed
    )
    decisions: list[Decision] = []
    folded_cards: dict[int, tuple[Card, ...]] = {}
    for record in final.log:
        if isinstance(record, Action):
            decisions.append(_decision(engine, record, folded_cards))
            engine, _ = engine.apply(record)
            if record.kind.value == "fold":
                folded_cards[record.seat] = engine.cards(record.seat)
        elif isinstance(record, TimeOut):
            engine, _ = engine.time_out(record.seat, record.protected)
        elif isinstance(record, Abandon):
            engine, _ = engine.abandon(record.seat)
        else:
            engine, _ = engine.show_cards(record.seat)
    result = final.result
    net = {p.seat: result.stack(p.seat) - p.stack for p in final.players}
    return ReadHand(
        hand_id=hand_id,
        game=final.config.game.value,
        players={int(seat): int(player) for seat, player in players.items()},
        decisions=tuple(decisions),
        net=net,
        final=final,
    )


def _decision(
    engine: StudHand, action: Action, folded_cards: Mapping[int, tuple[Card, ...]]
) -> Decision:
    seat = action.seat
    offers = engine.legal_actions(seat)
    to_call = max(0, engine.current_bet - engine.bet(seat))
    bettor = None
    if engine.last_aggressor >= 0 and engine.current_bet > 0:
        bettor = engine.players[engine.last_aggressor].seat
    live = tuple(s for s in engine.seats if engine.status_of(s) != "folded")
    return Decision(
        seat=seat,
        kind=action.kind.value,
        street=engine.street,
        to_call=to_call,
        pot=engine.pot,
        bettor=bettor if bettor != seat else None,
        live=live,
        could_raise=any(o.kind.value in AGGRESSIVE for o in offers),
        cards=_cards_now(engine),
        up={s: engine.up_cards(s) for s in engine.seats},
        folded_cards=dict(folded_cards),
    )


# --- the strength of cards so far ----------------------------------------------------------


def strength(cards: Sequence[Card]) -> tuple[int, ...]:
    """A comparable strength of 3 to 7 cards (high): the evaluator's rank from five cards on;
    below five, by groups of rank (trips, a pair, then high cards), as the board is ranked."""
    if len(cards) >= 5:
        return (1, high_rank(cards))
    groups = sorted(Counter(card_rank(c) for c in cards).items(), key=lambda g: (-g[1], -g[0]))
    return (0, *[count for _, count in groups], *[rank for rank, _ in groups])


def is_strong(cards: Sequence[Card]) -> bool:
    """Trips or better (the hands a player does not fold to one bet)."""
    if len(cards) >= 5:
        return high_category(high_rank(cards)) >= HandCategory.THREE_OF_A_KIND
    return max(Counter(card_rank(c) for c in cards).values()) >= 3


def strength_name(cards: Sequence[Card]) -> str:
    if len(cards) >= 5:
        return high_category(high_rank(cards)).name.replace("_", " ").lower()
    most = max(Counter(card_rank(c) for c in cards).values())
    return {4: "four of a kind", 3: "trips", 2: "a pair"}.get(most, "high card")


# --- equity with and without the partner's folded cards ------------------------------------


def _showdown_share(
    hero: Sequence[Card], opponents: Sequence[Sequence[Card]], run_out: Sequence[Card]
) -> float:
    """The hero's share of the pot when ``run_out`` deals, in order, the hero's missing cards
    and then each opponent's."""
    k = 7 - len(hero)
    best = high_rank(list(hero) + list(run_out[:k]))
    ties = 1
    for up in opponents:
        need = 7 - len(up)
        theirs = high_rank(list(up) + list(run_out[k : k + need]))
        k += need
        if theirs > best:
            return 0.0
        if theirs == best:
            ties += 1
    return 1 / ties


def equity(
    *,
    hero: Sequence[Card],
    opponents: Sequence[tuple[Sequence[Card], Sequence[Card]]],
    dead: Sequence[Card],
    samples: int,
    rng: random.Random,
) -> float:
    """The hero's share of the pot at showdown (high), by random run-outs: the hero has
    ``hero``; each opponent (``up``, ``known``) shows up cards, their other cards unknown;
    ``dead`` are cards known out of play. Unknown cards come from the rest of the deck."""
    without, _ = equity_with_and_without(
        hero=hero, opponents=opponents, dead=dead, known=(), samples=samples, rng=rng
    )
    return without


def equity_with_and_without(
    *,
    hero: Sequence[Card],
    opponents: Sequence[tuple[Sequence[Card], Sequence[Card]]],
    dead: Sequence[Card],
    known: Sequence[Sequence[Card]],
    samples: int,
    rng: random.Random,
) -> tuple[float, list[float]]:
    """The hero's equity as ``equity`` gives it, and, for each set of cards in ``known``
    (a folded player's down cards), the equity with those cards also known out of play,
    all from the SAME random run-outs (common random numbers), so the differences between
    the estimates are the cards' effect, not sampling noise.

    Each sample is a uniformly random ordered selection of the unknown cards, a few longer
    than a run-out needs. The run-out without a set known is its head; with the set known,
    the head of what is left once that set's cards are taken out, which is a uniformly
    random ordered selection of the cards left (the order of a random shuffle, restricted to
    a subset, is a random shuffle of that subset). Where no card of the set falls in the
    head, both run-outs are the same and so is their result."""
    seen = set(hero) | set(dead)
    for up, _known in opponents:
        seen |= set(up)
    pool = [card for card in FULL_DECK if card not in seen]
    ups = [tuple(up) for up, _known in opponents]
    # Each run-out draws only the cards it deals (plus the most any known set can take out),
    # not a whole shuffled deck: the scan's dearest step.
    dealt = min(len(pool), 7 - len(hero) + sum(7 - len(up) for up in ups))
    sets = [frozenset(cards) & frozenset(pool) for cards in known]
    longest = min(len(pool), dealt + max((len(cards) for cards in sets), default=0))
    without = 0.0
    with_known = [0.0] * len(sets)
    for _ in range(samples):
        drawn = rng.sample(pool, longest)
        head = drawn[:dealt]
        share = _showdown_share(hero, ups, head)
        without += share
        for i, cards in enumerate(sets):
            if cards.isdisjoint(head):
                with_known[i] += share
            else:
                left = [card for card in drawn if card not in cards]
                with_known[i] += _showdown_share(hero, ups, left[:dealt])
    return without / samples, [total / samples for total in with_known]
