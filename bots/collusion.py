"""Bot policies for proving the room's collusion signals (issue #25): honest ones, and three
colluding pairs.

A policy decides from what its seat may see (``Seen``: its own cards, every up card, the
pot and the price) and the offers the room made; a colluding pair also shares a
``SideChannel`` the room knows nothing of:

- ``honest``: goes on when its equity against the live hands (random run-outs through the
  stud evaluator, from what it can see) pays the price; raises a strong favourite; a little
  noise. ``loose``: calls most bets, raises now and then (the client's "call" style).
- ``card_sharing``: ``honest``, but each posts its down cards on the side channel at the
  deal, and once the partner has folded the partner's down cards count as dead, and it
  decides decisively on them (eight times the run-outs, no noise at the price);
- ``soft_play``: ``honest``, but never bets or raises into the partner heads-up;
- ``chip_dump``: the dumper folds to the partner's bet whatever it holds; the receiver bets
  and raises whenever the dumper is in the hand.

The policies know no rule of poker beyond the offers: the room says what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from stud.cards import FULL_DECK, Card
from stud.evaluate import high_rank

HONEST_POLICIES = ("honest", "loose")
COLLUDING_POLICIES = ("card_sharing", "soft_play", "chip_dump", "chip_receive")
SAMPLES = 24


@dataclass
class SideChannel:
    """What a colluding pair tells each other outside the room: each one's down cards, per
    hand."""

    down_cards: dict[tuple[int, int], tuple[Card, ...]] = field(default_factory=dict)

    def post(self, hand_id: int, seat: int, cards: Sequence[Card]) -> None:
        self.down_cards[(hand_id, seat)] = tuple(cards)

    def read(self, hand_id: int, seat: int) -> tuple[Card, ...]:
        return self.down_cards.get((hand_id, seat), ())


@dataclass(frozen=True)
class Seen:
    """One seat's view at its turn."""

    hand_id: int
    seat: int
    down: tuple[Card, ...]
    up: Mapping[int, tuple[Card, ...]]  # every seat's up cards
    live: tuple[int, ...]  # seats not folded
    folded: tuple[int, ...]
    pot: int
    to_call: int
    bettor: int | None


def equity(
    mine: Sequence[Card],
    opponents: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    samples: int = SAMPLES,
) -> float:
    """Share of the pot won at showdown by random run-outs (high)."""
    seen = set(mine) | set(dead)
    for up in opponents:
        seen |= set(up)
    pool = [c for c in FULL_DECK if c not in seen]
    need = 7 - len(mine) + sum(7 - len(up) for up in opponents)
    if need > len(pool):
        return 1 / (len(opponents) + 1)
    won = 0.0
    for _ in range(samples):
        run_out = rng.sample(pool, need)  # only the cards dealt, not a whole shuffled deck
        k = 7 - len(mine)
        best = high_rank(list(mine) + run_out[:k])
        ties, beaten = 1, False
        for up in opponents:
            n = 7 - len(up)
            theirs = high_rank(list(up) + run_out[k : k + n])
            k += n
            if theirs > best:
                beaten = True
                break
            ties += theirs == best
        if not beaten:
            won += 1 / ties
    return won / samples


def _offer(offers: Sequence[Mapping[str, Any]], *kinds: str) -> Mapping[str, Any] | None:
    for kind in kinds:
        sizes = [o for o in offers if o["kind"] == kind]
        if sizes:
            return min(sizes, key=lambda o: int(o.get("amount", 0)))
    return None


def _passive(offers: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    return _offer(offers, "check", "call", "bring_in") or offers[0]


def _aggressive(offers: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    return _offer(offers, "complete", "bet", "raise")


@dataclass
class Policy:
    """A bot's way of playing: `kind` one of HONEST_POLICIES + COLLUDING_POLICIES; a
    colluder's `partner` seat and `channel`."""

    kind: str
    rng: random.Random
    partner: int | None = None
    channel: SideChannel | None = None

    def at_deal(self, seen: Seen) -> None:
        if self.kind == "card_sharing" and self.channel is not None:
            self.channel.post(seen.hand_id, seen.seat, seen.down)

    def decide(self, seen: Seen, offers: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        if self.kind == "loose":
            return self._loose(offers)
        partner_in = self.partner is not None and self.partner in seen.live
        if self.kind == "chip_dump" and partner_in and seen.bettor == self.partner:
            fold = _offer(offers, "fold")
            if fold is not None:
                return fold
        if self.kind == "chip_receive" and partner_in:
            return _aggressive(offers) or _passive(offers)
        dead = [c for s in seen.folded for c in seen.up.get(s, ())]
        shared: tuple[Card, ...] = ()
        if self.kind == "card_sharing" and self.channel is not None and self.partner in seen.folded:
            shared = self.channel.read(seen.hand_id, self.partner)
            dead += shared
        mine = list(seen.down) + list(seen.up.get(seen.seat, ()))
        opponents = [seen.up.get(s, ()) for s in seen.live if s != seen.seat]
        # With the partner's folded cards in hand a sharer plays them decisively: an equity
        # from eight times the run-outs and no noise at the price, so the cards decide what it does.
        share = equity(mine, opponents, dead, self.rng, samples=SAMPLES * 8 if shared else SAMPLES)
        fold = _offer(offers, "fold")
        price = seen.to_call / (seen.pot + seen.to_call) if seen.to_call else 0.0
        noise = 0.0 if shared else self.rng.uniform(-0.03, 0.03)
        if fold is not None and share + noise < price:
            return fold
        aggressive = _aggressive(offers)
        soft = self.kind == "soft_play" and partner_in and len(seen.live) == 2
        if aggressive is not None and not soft and share > 0.55 + self.rng.uniform(-0.1, 0.1):
            return aggressive
        return _passive(offers)

    def _loose(self, offers: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        aggressive = _aggressive(offers)
        if aggressive is not None and self.rng.random() < 0.2:
            return aggressive
        fold = _offer(offers, "fold")
        if fold is not None and self.rng.random() < 0.15:
            return fold
        return _passive(offers)
