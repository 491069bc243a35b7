"""Evaluator speed: ours against treys, eval7 and PokerKit, in one run on the same hands.

    python benchmarks/engine.py            # also runs benchmarks/engine_hands.py if present
    python benchmarks/engine.py --quick    # fewer hands, for a smoke test

Seven-card high hands: ours (phevaluator's C perfect hash behind ``high_rank``) against
treys 0.1.8, eval7 0.1.11 and PokerKit 0.7.7's StandardHighHand. Eight-or-better lows: ours
(a 256-entry table) against PokerKit's EightOrBetterLowHand. Razz's ace-to-five lows (an
8192-entry table read by pairs of cards, paired hands remembered by their values) against
PokerKit's RegularLowHand, and against our eight-or-better low. Goals: high >= 1,000,000/s
and >= 10x treys; low and Razz >= 50x PokerKit, Razz about as fast as the eight-or-better
low. Every evaluator sees the same seeded random hands, already converted to its own card
type, so only evaluation is timed.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import random
import runpy
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import eval7  # noqa: E402
import pokerkit  # noqa: E402
import treys  # noqa: E402

from stud.cards import card_text  # noqa: E402
from stud.evaluate import (  # noqa: E402
    high_rank,
    high_rank7,
    low8_rank,
    low8_rank7,
    razz_rank,
    razz_rank7,
)

GOAL_HIGH_RATE = 1_000_000
GOAL_HIGH_VS_TREYS = 10.0
GOAL_LOW_VS_POKERKIT = 50.0


def seven_card_hands(count: int, seed: int = 2024) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 7) for _ in range(count)]


def rate(label: str, run: Callable[[], object], hands: int, repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in evaluations per second of this process's CPU time (on a
    shared machine the wall clock counts the other processes' turns too)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    per_second = hands / best
    print(f"  {label:<44} {per_second:>14,.0f} /s")
    return per_second


def bench_high(hands: Sequence[list[int]], slow_hands: Sequence[list[int]]) -> dict[str, float]:
    print(f"7-card high hands ({len(hands):,}; PokerKit on {len(slow_hands):,})")
    evaluator = treys.Evaluator()
    treys_card = [treys.Card.new(card_text(card)) for card in range(52)]
    treys_hands = [([treys_card[c] for c in h[:2]], [treys_card[c] for c in h[2:]]) for h in hands]
    eval7_card = [eval7.Card(card_text(card)) for card in range(52)]
    eval7_hands = [[eval7_card[c] for c in h] for h in hands]
    pk_card = [next(iter(pokerkit.Card.parse(card_text(card)))) for card in range(52)]
    pk_hands = [([pk_card[c] for c in h[:2]], [pk_card[c] for c in h[2:]]) for h in slow_hands]
    tuples = [tuple(h) for h in hands]

    def ours() -> None:
        for hand in hands:
            high_rank(hand)

    def ours_seven() -> None:
        for a, b, c, d, e, f, g in tuples:
            high_rank7(a, b, c, d, e, f, g)

    def with_treys() -> None:
        evaluate = evaluator.evaluate
        for hole, board in treys_hands:
            evaluate(hole, board)

    def with_eval7() -> None:
        evaluate = eval7.evaluate
        for hand in eval7_hands:
            evaluate(hand)

    def with_pokerkit() -> None:
        from_game = pokerkit.StandardHighHand.from_game
        for hole, board in pk_hands:
            from_game(hole, board)

    return {
        "ours": rate("ours: high_rank(cards)", ours, len(hands)),
        "ours7": rate("ours: high_rank7(a, ..., g)", ours_seven, len(hands)),
        "treys": rate(f"treys {version('treys')}", with_treys, len(hands)),
        "eval7": rate(f"eval7 {version('eval7')}", with_eval7, len(hands)),
        "pokerkit": rate(
            f"PokerKit {version('pokerkit')} StandardHighHand", with_pokerkit, len(slow_hands), 1
        ),
    }


def bench_low(hands: Sequence[list[int]], slow_hands: Sequence[list[int]]) -> dict[str, float]:
    print(f"8-or-better lows from 7 cards ({len(hands):,}; PokerKit on {len(slow_hands):,})")
    pk_card = [next(iter(pokerkit.Card.parse(card_text(card)))) for card in range(52)]
    pk_hands = [([pk_card[c] for c in h[:2]], [pk_card[c] for c in h[2:]]) for h in slow_hands]
    tuples = [tuple(h) for h in hands]

    def ours() -> None:
        for hand in hands:
            low8_rank(hand)

    def ours_seven() -> None:
        for a, b, c, d, e, f, g in tuples:
            low8_rank7(a, b, c, d, e, f, g)

    def with_pokerkit() -> None:
        from_game = pokerkit.EightOrBetterLowHand.from_game
        for hole, board in pk_hands:
            with contextlib.suppress(ValueError):  # no low
                from_game(hole, board)

    return {
        "ours": rate("ours: low8_rank(cards)", ours, len(hands)),
        "ours7": rate("ours: low8_rank7(a, ..., g)", ours_seven, len(hands)),
        "pokerkit": rate(
            f"PokerKit {version('pokerkit')} EightOrBetterLowHand",
            with_pokerkit,
            len(slow_hands),
            1,
        ),
    }


def bench_razz(hands: Sequence[list[int]], slow_hands: Sequence[list[int]]) -> dict[str, float]:
    print(f"Ace-to-five lows (Razz) from 7 cards ({len(hands):,}; PokerKit on {len(slow_hands):,})")
    pk_card = [next(iter(pokerkit.Card.parse(card_text(card)))) for card in range(52)]
    pk_hands = [([pk_card[c] for c in h[:2]], [pk_card[c] for c in h[2:]]) for h in slow_hands]
    tuples = [tuple(h) for h in hands]

    def ours() -> None:
        for hand in hands:
            razz_rank(hand)

    def ours_seven() -> None:
        for a, b, c, d, e, f, g in tuples:
            razz_rank7(a, b, c, d, e, f, g)

    def with_pokerkit() -> None:
        from_game = pokerkit.RegularLowHand.from_game
        for hole, board in pk_hands:
            from_game(hole, board)

    return {
        "ours": rate("ours: razz_rank(cards)", ours, len(hands)),
        "ours7": rate("ours: razz_rank7(a, ..., g)", ours_seven, len(hands)),
        "pokerkit": rate(
            f"PokerKit {version('pokerkit')} RegularLowHand",
            with_pokerkit,
            len(slow_hands),
            1,
        ),
    }


def verdict(label: str, value: float, goal: float, unit: str) -> bool:
    ok = value >= goal
    target = f"  goal >= {goal:,.0f}{unit}  {'ok' if ok else 'MISSED'}" if goal else ""
    digits = 2 if value < 10 else 1  # a ratio near 1 (Razz beside the eight-or-better low)
    print(f"  {label:<44} {value:>14,.{digits}f}{unit}{target}")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands (a smoke test)")
    parser.add_argument("--no-hands", action="store_true", help="skip engine_hands.py")
    args = parser.parse_args(argv)
    count, slow = (20_000, 1_000) if args.quick else (500_000, 10_000)
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    hands = seven_card_hands(count)
    high = bench_high(hands, hands[:slow])
    low = bench_low(hands, hands[:slow])
    razz = bench_razz(hands, hands[:slow])
    print("Ratios")
    ok = all(
        [
            verdict("high: ours evaluations per second", high["ours"], GOAL_HIGH_RATE, "/s"),
            verdict("high: ours / treys", high["ours"] / high["treys"], GOAL_HIGH_VS_TREYS, "x"),
            verdict("high: ours / eval7", high["ours"] / high["eval7"], 0, "x"),
            verdict("high: ours / PokerKit", high["ours"] / high["pokerkit"], 0, "x"),
            verdict(
                "low: ours / PokerKit", low["ours"] / low["pokerkit"], GOAL_LOW_VS_POKERKIT, "x"
            ),
            verdict(
                "razz: ours / PokerKit",
                razz["ours"] / razz["pokerkit"],
                GOAL_LOW_VS_POKERKIT,
                "x",
            ),
            verdict("razz / low8_rank (as fast: ~1)", razz["ours"] / low["ours"], 0, "x"),
            verdict("razz7 / low8_rank7 (as fast: ~1)", razz["ours7"] / low["ours7"], 0, "x"),
        ]
    )
    whole_hands = Path(__file__).with_name("engine_hands.py")
    if whole_hands.exists() and not args.no_hands:
        print(f"\n--- {whole_hands.name} ---", flush=True)
        saved = sys.argv
        sys.argv = [str(whole_hands), *(["1"] if args.quick else [])]  # its argument: seconds
        try:
            runpy.run_path(str(whole_hands), run_name="__main__")
        except SystemExit as finished:
            if finished.code not in (0, None):
                ok = False
        finally:
            sys.argv = saved
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
