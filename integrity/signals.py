"""Signals of collusion between two players, counted from the hand log (issue #25).

Every signal compares how a player treats one opponent twice: with how the same player
treats everyone else in the same spots, so the player's style (a player who never raises, a
player who folds a lot) is not taken for collusion; and with how everyone else treats the same
opponent, so the opponent's style is not either (a loose player bets junk, so everyone folds
better hands to them). A signal is flagged only when both comparisons pass (``Z_FLAG``). Each
player's tally therefore holds, under "toward", the counts of everyone's play toward them:

- soft play: raises heads-up against the partner, against raises heads-up against others;
- chip dumping: folds to the partner's bet with the hand that was ahead (every card known to
  the room), and folds of trips or better to the partner's bet, against the same folds to
  others; with the chips that went from one to the other;
- stud's own: when the partner had folded, the player's equity is taken with and without the
  partner's folded cards known (random run-outs through the stud evaluator); where the two
  disagree on whether the price justified going on, did the player make the play only the
  partner's cards justify? Against the same count with other folded players' cards;
- sitting together: hands played at the same tables, and seats taken at one table from one
  network address.

Counts are plain JSON (``Counts``), added hand by hand, so the periodic scan reads only new
hands. ``pair_signals`` turns a pair's counts into signals, each in words with its hands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from integrity.reading import (
    ReadHand,
    equity_with_and_without,
    is_strong,
    strength,
    strength_name,
)

# Random run-outs per equity estimate; the stud's-own signal counts only decisions where the
# two estimates fall clearly on two sides of the price (MARGIN), so sampling noise alone
# rarely makes one.
EQUITY_SAMPLES = 48
MARGIN = 0.06
EVIDENCE_KEPT = 12  # hand ids kept per signal and direction
# A signal is flagged at this many standard errors from the player's own rate with others,
# with at least MIN_SPOTS spots against the partner (many pairs are compared: a strict bar).
Z_FLAG = 4.0
MIN_SPOTS = 8
QUANTITIES = (
    "hu_chances",
    "hu_raises",
    "facing",
    "folds_ahead",
    "folds_strong",
    "info_spots",
    "info_used",
)

Counts = MutableMapping[str, Any]


def _bump(counts: Counts, key: str, by: int = 1) -> None:
    counts[key] = int(counts.get(key, 0)) + by


def _keep(counts: Counts, key: str, hand_id: int) -> None:
    kept = counts.setdefault(key, [])
    if hand_id not in kept:
        kept.append(hand_id)
        del kept[:-EVIDENCE_KEPT]


@dataclass
class HandCounts:
    """What one hand adds: per player (their totals) and per directed pair "x>y"."""

    players: dict[int, dict[str, Any]]
    pairs: dict[tuple[int, int], dict[str, Any]]  # (actor, opponent) player ids
    together: list[tuple[int, int]]  # pairs dealt in together (low id first)


def count_hand(read: ReadHand, *, rng: random.Random | None = None) -> HandCounts:
    rng = rng or random.Random(read.hand_id)
    who = read.players
    players: dict[int, dict[str, Any]] = {pid: {} for pid in who.values()}
    pairs: dict[tuple[int, int], dict[str, Any]] = {}

    def pair(x: int, y: int) -> dict[str, Any]:
        return pairs.setdefault((who[x], who[y]), {})

    high_game = read.game != "razz"
    for decision in read.decisions:
        x = decision.seat
        mine, totals = decision.cards[x], players[who[x]]
        y = decision.bettor
        if decision.heads_up and decision.could_raise:
            (other,) = [s for s in decision.live if s != x]
            raised = decision.kind in ("bet", "raise", "complete")
            for counts in (totals, pair(x, other)):
                _bump(counts, "hu_chances")
                if raised:
                    _bump(counts, "hu_raises")
            if raised:
                _keep(pair(x, other), "hu_raise_hands", read.hand_id)
            else:
                _keep(pair(x, other), "hu_soft_hands", read.hand_id)
        if decision.facing_bet and y is not None and high_game:
            folded = decision.kind == "fold"
            ahead = strength(mine) > strength(decision.cards[y])
            strong = is_strong(mine)
            for counts in (totals, pair(x, y)):
                _bump(counts, "facing")
                if folded and ahead:
                    _bump(counts, "folds_ahead")
                if folded and strong:
                    _bump(counts, "folds_strong")
            if folded and ahead:
                _keep(pair(x, y), "fold_ahead_hands", read.hand_id)
            if folded and strong:
                _keep(pair(x, y), "fold_strong_hands", read.hand_id)
                names = pair(x, y).setdefault("fold_strong_names", {})
                names[strength_name(mine)] = int(names.get(strength_name(mine), 0)) + 1
        if decision.facing_bet and decision.folded_cards and high_game and len(mine) >= 4:
            _count_information(read, decision, totals, pair, rng)
    _count_chip_flow(read, pair)
    # Each player's treatment by everyone: the same quantities, counted toward the player
    # (the second baseline, which takes the partner's own style out of a signal).
    for (_actor, opponent), counts in pairs.items():
        toward = players[opponent].setdefault("toward", {})
        for quantity in QUANTITIES:
            if counts.get(quantity):
                toward[quantity] = int(toward.get(quantity, 0)) + int(counts[quantity])
    ids = sorted(set(who.values()))
    together = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    return HandCounts(players=players, pairs=pairs, together=together)


def _count_information(
    read: ReadHand, decision: Any, totals: Counts, pair: Any, rng: random.Random
) -> None:
    """Stud's own: for each player who had folded, would knowing their folded cards change
    whether going on is worth the price? If so, which way did the player go?"""
    x = decision.seat
    opponents = [
        (decision.up[s], ()) for s in decision.live if s != x
    ]  # the live opponents' up cards
    need = sum(7 - len(up) for up, _ in opponents) + 7 - len(decision.cards[x])
    public_dead = [c for f in decision.folded_cards for c in decision.up[f]]
    hidden = sum(len(cards) - len(decision.up[f]) for f, cards in decision.folded_cards.items())
    if (
        52
        - len(decision.cards[x])
        - len(public_dead)
        - hidden
        - sum(len(up) for up, _ in opponents)
        < need
    ):
        return  # no run-out possible without the folded cards (a full table to the river)
    price = decision.to_call / (decision.pot + decision.to_call)
    went_on = decision.kind != "fold"
    mine = decision.cards[x]
    downs = {
        f: [c for c in cards if c not in decision.up[f]]
        for f, cards in decision.folded_cards.items()
    }
    downs = {f: down for f, down in downs.items() if down}
    # One set of run-outs for every estimate (common random numbers): a difference between
    # "without" and "with f's cards" is the cards' effect, not two samples' noise.
    without, withs = equity_with_and_without(
        hero=mine,
        opponents=opponents,
        dead=public_dead,
        known=list(downs.values()),
        samples=EQUITY_SAMPLES,
        rng=rng,
    )
    for f, with_theirs in zip(downs, withs, strict=True):
        worth_without = without >= price
        worth_with = with_theirs >= price
        if worth_without == worth_with or abs(with_theirs - without) < MARGIN:
            continue
        used = went_on == worth_with
        for counts in (totals, pair(x, f)):
            _bump(counts, "info_spots")
            if used:
                _bump(counts, "info_used")
        if used:
            _keep(pair(x, f), "info_hands", read.hand_id)


def _count_chip_flow(read: ReadHand, pair: Any) -> None:
    """Chips from each loser to each winner, in proportion to what the winners won."""
    won = {s: n for s, n in read.net.items() if n > 0}
    total = sum(won.values())
    if not total:
        return
    for loser, net in read.net.items():
        if net >= 0:
            continue
        for winner, amount in won.items():
            moved = round(-net * amount / total)
            if moved:
                _bump(pair(loser, winner), "chips_to", moved)
                _keep(pair(loser, winner), "flow_hands", read.hand_id)


def merge(into: Counts, more: Mapping[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, list):
            for hand_id in value:
                _keep(into, key, hand_id)
        elif isinstance(value, dict):
            inner = into.setdefault(key, {})
            for name, n in value.items():
                inner[name] = int(inner.get(name, 0)) + int(n)
        else:
            _bump(into, key, int(value))


# --- from counts to signals, in words ------------------------------------------------------


@dataclass(frozen=True)
class Signal:
    kind: str  # soft_play, chip_dumping, strong_folds, folded_cards, sitting_together
    actor: int  # the player whose play it is about
    partner: int
    words: str
    hands: tuple[int, ...]
    z: float  # standard errors: the smaller of the two comparisons (directed_signals)
    flagged: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "actor": self.actor,
            "partner": self.partner,
            "words": self.words,
            "hands": list(self.hands),
            "z": round(self.z, 2),
            "flagged": self.flagged,
        }


def _z(k1: int, n1: int, k0: int, n0: int) -> float:
    """Two-proportion z: how far the rate with the partner (k1/n1) is from the rate with
    everyone else (k0/n0), in standard errors. 0 when either has no spots."""
    if n1 <= 0 or n0 <= 0:
        return 0.0
    pooled = (k1 + k0) / (n1 + n0)
    spread = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / n1 + 1 / n0))
    return (k1 / n1 - k0 / n0) / spread


def _pct(k: int, n: int) -> str:
    return f"{round(100 * k / n)}%" if n else "no"


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


@dataclass(frozen=True)
class _Baseline:
    """The second comparison of a signal: the actor's rate toward the partner against
    everyone else's rate toward the same partner. A partner's own style (a loose player bets
    junk, so everyone folds better hands to them and raises them less) moves both rates
    alike, so it does not pass this one; a collusion toward that partner does."""

    z: float | None  # None: too few spots of everyone else toward the partner to compare
    words: str

    def passes(self) -> bool:
        return self.z is not None and self.z >= Z_FLAG


def _baseline(
    *, k: int, n: int, k_t: int, n_t: int, sign: float, said: Any, partner: str
) -> _Baseline:
    if n_t < MIN_SPOTS:
        return _Baseline(
            None,
            f"; too few spots of everyone else toward {partner} ({n_t}) to tell {partner}'s "
            "own style apart, so not flagged yet",
        )
    return _Baseline(sign * _z(k, n, k_t, n_t), said(k_t, n_t))


def directed_signals(
    *,
    actor: int,
    partner: int,
    names: Mapping[int, str],
    mine: Mapping[str, Any],
    totals: Mapping[str, Any],
    money: Any,
    toward: Mapping[str, Any] | None = None,
) -> list[Signal]:
    """The signals of `actor`'s play toward `partner`: `mine` the counts toward them,
    `totals` the actor's counts toward everyone, `toward` everyone's counts toward the
    partner (the partner's tally's "toward").

    Each signal compares the actor's rate toward the partner twice: with the actor's own rate
    toward everyone else (which takes the actor's style out), and with everyone else's rate
    toward the partner (which takes the partner's style out). It is flagged only when both
    comparisons pass Z_FLAG standard errors; its z is the smaller of the two."""
    a, b = names[actor], names[partner]
    toward = toward or {}

    def others(key: str) -> int:
        return int(totals.get(key, 0)) - int(mine.get(key, 0))

    def others_toward(key: str) -> int:
        return int(toward.get(key, 0)) - int(mine.get(key, 0))

    def signal(kind: str, words: str, hands: Any, z_own: float, second: _Baseline) -> Signal:
        z = z_own if second.z is None else min(z_own, second.z)
        return Signal(
            kind,
            actor,
            partner,
            words + second.words,
            tuple(hands),
            z,
            z_own >= Z_FLAG and second.passes(),
        )

    found: list[Signal] = []
    n, k = int(mine.get("hu_chances", 0)), int(mine.get("hu_raises", 0))
    n0, k0 = others("hu_chances"), others("hu_raises")
    z = -_z(k, n, k0, n0)  # fewer raises at the partner is the sign
    if n >= MIN_SPOTS and n0 >= MIN_SPOTS and z > 1.5:
        second = _baseline(
            k=k,
            n=n,
            k_t=others_toward("hu_raises"),
            n_t=others_toward("hu_chances"),
            sign=-1.0,
            said=lambda kt, nt: (
                f"; everyone else raised {b} heads-up in {_pct(kt, nt)} of {nt} chances"
            ),
            partner=b,
        )
        found.append(
            signal(
                "soft_play",
                f"{a} raised {b} heads-up {_times(k) if k else 'never'} in {n} chances "
                f"({_pct(k, n)}), against {_pct(k0, n0)} of {n0} heads-up chances against "
                "everyone else",
                mine.get("hu_soft_hands", []),
                z,
                second,
            )
        )
    n, n0 = int(mine.get("facing", 0)), others("facing")
    n_t = others_toward("facing")
    k, k0 = int(mine.get("folds_ahead", 0)), others("folds_ahead")
    z = _z(k, n, k0, n0)
    if n >= MIN_SPOTS and k >= 3 and z > 1.5:
        second = _baseline(
            k=k,
            n=n,
            k_t=others_toward("folds_ahead"),
            n_t=n_t,
            sign=1.0,
            said=lambda kt, nt: (
                f"; everyone else folded the better hand to {b}'s bets in {_pct(kt, nt)} "
                f"of {nt} bets faced"
            ),
            partner=b,
        )
        found.append(
            signal(
                "chip_dumping",
                f"{a} folded the better hand to {b}'s bet {_times(k)} in {n} bets faced "
                f"({_pct(k, n)}), against {_pct(k0, n0)} to everyone else's bets"
                + second.words
                + f"; {money(int(mine.get('chips_to', 0)))} went from {a} to {b} in all",
                mine.get("fold_ahead_hands", []),
                z,
                _Baseline(second.z, ""),
            )
        )
    k, k0 = int(mine.get("folds_strong", 0)), others("folds_strong")
    z = _z(k, n, k0, n0)
    if n >= MIN_SPOTS and k >= 2 and z > 1.5:
        kinds = mine.get("fold_strong_names", {})
        named = ", ".join(f"{name} {_times(int(c))}" for name, c in sorted(kinds.items()))
        second = _baseline(
            k=k,
            n=n,
            k_t=others_toward("folds_strong"),
            n_t=n_t,
            sign=1.0,
            said=lambda kt, nt: (
                f"; everyone else folded trips or better to {b}'s bets "
                f"{_times(kt) if kt else 'never'} in {nt} bets faced"
            ),
            partner=b,
        )
        found.append(
            signal(
                "strong_folds",
                f"{a} folded trips or better to {b}'s bet {_times(k)} ({named}), against "
                f"{_times(k0) if k0 else 'never'} in {n0} bets faced from everyone else",
                mine.get("fold_strong_hands", []),
                z,
                second,
            )
        )
    n, k = int(mine.get("info_spots", 0)), int(mine.get("info_used", 0))
    n0, k0 = others("info_spots"), others("info_used")
    z = _z(k, n, k0, n0) if n0 >= MIN_SPOTS else _z(k, n, n, 2 * n)  # else: against a half
    if n >= MIN_SPOTS and z > 1.5:
        second = _baseline(
            k=k,
            n=n,
            k_t=others_toward("info_used"),
            n_t=others_toward("info_spots"),
            sign=1.0,
            said=lambda kt, nt: (
                f"; everyone else made the play only {b}'s folded cards justify in "
                f"{_pct(kt, nt)} of {nt} such spots"
            ),
            partner=b,
        )
        found.append(
            signal(
                "folded_cards",
                f"{b}'s folded cards changed whether {a}'s call was worth its price "
                f"{_times(n)}; {a} made the play only {b}'s folded cards justify "
                f"{_times(k)} ({_pct(k, n)}), against {_pct(k0, n0)} with other players' "
                "folded cards",
                mine.get("info_hands", []),
                z,
                second,
            )
        )
    return found


@dataclass(frozen=True)
class PairFindings:
    signals: tuple[Signal, ...]
    score: float
    flagged: bool


def pair_findings(
    *,
    low: int,
    high: int,
    names: Mapping[int, str],
    counts: Mapping[str, Any],
    totals: Mapping[int, Mapping[str, Any]],
    hands_together: int,
    shared_address_seats: int,
    money: Any,
) -> PairFindings:
    """A pair's signals (both directions), a score to rank by (the largest z, the address
    counted as flagged) and whether staff should look."""
    found: list[Signal] = []
    for actor, partner, key in ((low, high, "low>high"), (high, low, "high>low")):
        found += directed_signals(
            actor=actor,
            partner=partner,
            names=names,
            mine=counts.get(key, {}),
            totals=totals.get(actor, {}),
            money=money,
            toward=totals.get(partner, {}).get("toward", {}),
        )
    if shared_address_seats:
        found.append(
            Signal(
                "sitting_together",
                low,
                high,
                f"{names[low]} and {names[high]} took seats at one table from one network "
                f"address {_times(shared_address_seats)}; {hands_together} hands together",
                tuple(counts.get("together_hands", [])),
                Z_FLAG,
                True,
            )
        )
    score = max((s.z for s in found), default=0.0)
    return PairFindings(tuple(found), score, any(s.flagged for s in found))


def together_words(hands_together: int, tables: Iterable[str]) -> str:
    listed = ", ".join(sorted(tables))
    return f"{hands_together} hands together at {listed}" if listed else ""
