"""Whole-hand speed of our Seven Card Stud engine against PokerKit 0.7.7, in the same run.

Two policies, six players, 1,000-cent stacks, stakes 100/200 with a 10 ante and 25 bring-in:

- random: every decision a uniform random choice among the legal actions;
- call down: always check or call (the bring-in posts), so every hand reaches the showdown
  and the pots are settled.

Run: ``python -m benchmarks.engine_hands [seconds-per-policy]`` (default 20 s, so the whole
run stays under a minute). Each policy alternates slices of both engines, so a busy machine
slows both alike and the ratio stays fair. The goal is 10x PokerKit: >= 3,600 random hands/s and
>= 860 call-down hands/s on the reference machine.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable

from stud import ActionKind, Game, GameConfig, SeatSetup, StudHand

PLAYERS = 6
STACK = 1000
ANTE, BRING_IN, SMALL_BET, BIG_BET = 10, 25, 100, 200

CONFIG = GameConfig(
    game=Game.STUD, small_bet=SMALL_BET, big_bet=BIG_BET, ante=ANTE, bring_in=BRING_IN
)
SEATS = [SeatSetup(seat=s, name=f"p{s}", stack=STACK) for s in range(1, PLAYERS + 1)]
_PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


def ours_random(rng: random.Random) -> None:
    # One random.shuffle of 52 cards a hand, as PokerKit makes inside its state (it shuffles
    # its own deck with random.shuffle): the same work for both engines. For ours it is
    # about an eighth of a random hand's time; for PokerKit's about a hundredth.
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(CONFIG, SEATS, deck, button=PLAYERS)
    choice = rng.choice
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        hand, _ = hand.apply(choice(hand.legal_actions(seat)).for_seat(seat))


def ours_call_down(rng: random.Random) -> None:
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(CONFIG, SEATS, deck, button=PLAYERS)
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        for offer in hand.legal_actions(seat):
            if offer.kind in _PASSIVE:
                hand, _ = hand.apply(offer.for_seat(seat))
                break


def _pokerkit_state() -> object:
    from pokerkit import Automation, FixedLimitSevenCardStud, Mode

    return FixedLimitSevenCardStud.create_state(
        tuple(Automation),
        True,
        ANTE,
        BRING_IN,
        SMALL_BET,
        BIG_BET,
        STACK,
        PLAYERS,
        mode=Mode.CASH_GAME,
    )


def pokerkit_random(rng: random.Random) -> None:
    state: object = _pokerkit_state()
    s = state  # PokerKit's State; typed loosely so the engine's mypy run need not know it
    while s.status:  # type: ignore[attr-defined]
        options: list[Callable[[], object]] = []
        if s.can_post_bring_in():  # type: ignore[attr-defined]
            options.append(s.post_bring_in)  # type: ignore[attr-defined]
        if s.can_fold():  # type: ignore[attr-defined]
            options.append(s.fold)  # type: ignore[attr-defined]
        if s.can_check_or_call():  # type: ignore[attr-defined]
            options.append(s.check_or_call)  # type: ignore[attr-defined]
        if s.can_complete_bet_or_raise_to():  # type: ignore[attr-defined]
            options.append(s.complete_bet_or_raise_to)  # type: ignore[attr-defined]
        rng.choice(options)()


def pokerkit_call_down(rng: random.Random) -> None:
    s: object = _pokerkit_state()
    while s.status:  # type: ignore[attr-defined]
        if s.can_post_bring_in():  # type: ignore[attr-defined]
            s.post_bring_in()  # type: ignore[attr-defined]
        else:
            s.check_or_call()  # type: ignore[attr-defined]


def hands_per_second(
    ours: Callable[[random.Random], None],
    theirs: Callable[[random.Random], None],
    seconds: float,
) -> tuple[float, float]:
    """Both engines' rates, measured in alternating slices so that a change in the machine's
    load during the run falls on both alike."""
    rates: list[list[float]] = [[0.0, 0.0], [0.0, 0.0]]  # [hands, elapsed] per engine
    slices = 12
    for _ in range(slices):
        for which, play in enumerate((ours, theirs)):
            rng = random.Random(2024)
            hands = 0
            began = time.perf_counter()
            deadline = began + seconds / (2 * slices)
            now = began
            while now < deadline:
                for _ in range(5):
                    play(rng)
                hands += 5
                now = time.perf_counter()
            rates[which][0] += hands
            rates[which][1] += now - began
    return rates[0][0] / rates[0][1], rates[1][0] / rates[1][1]


def main() -> None:
    warnings.simplefilter("ignore")  # PokerKit warns when a random player folds for nothing
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    print(f"Seven Card Stud, {PLAYERS} players, {seconds:g} s per policy (both engines)")
    for policy, ours, theirs, goal in (
        ("random legal action", ours_random, pokerkit_random, 3600),
        ("call/check down", ours_call_down, pokerkit_call_down, 860),
    ):
        ours_rate, theirs_rate = hands_per_second(ours, theirs, seconds)
        print(
            f"{policy:>20}: engine {ours_rate:8.0f} hands/s   PokerKit {theirs_rate:7.0f} hands/s"
            f"   ratio {ours_rate / theirs_rate:5.1f}x   (goal {goal} hands/s, 10x)"
        )


if __name__ == "__main__":
    main()
