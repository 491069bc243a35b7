"""PHH round trip, 1,000 random hands a game: ours out, PokerKit in and replayed, ours in.

    python benchmarks/phh_round_trip.py [hands-per-game]

Each hand (2 to 6 players, deep stacks, one size of each bet: PokerKit deals no open-pair
big bet) is written by ``stud.phh.render_phh`` with every down card, replayed by PokerKit
0.7.7's ``HandHistory`` to its final stacks, and read back by ``stud.phh.read_phh``; a hand
that loses anything (another stack, another log or result) is printed and counted. The
shorter suite version is tests/stud/test_phh.py (150 a game).
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pokerkit  # noqa: E402

from stud import ActionKind, Game, GameConfig, OddChip, SeatSetup, StudHand  # noqa: E402
from stud.phh import ALL_DOWN_CARDS, read_phh, render_phh  # noqa: E402


def random_hand(game: Game, rng: random.Random) -> StudHand:
    table = GameConfig(
        game=game, small_bet=100, big_bet=200, ante=10, bring_in=25,
        heads_up_raises=3, odd_chip=OddChip.LEFT_OF_BUTTON,
    )  # fmt: skip
    count = rng.randint(2, 6)
    seats = [SeatSetup(seat, f"P{seat}", rng.choice([5000, 8000])) for seat in range(1, count + 1)]
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(table, seats, deck, button=rng.randint(1, count))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        by_kind = {}
        for offer in hand.legal_actions(seat):
            by_kind.setdefault(offer.kind, offer)
        if ActionKind.CHECK in by_kind:
            del by_kind[ActionKind.FOLD]
        hand, _ = hand.apply(rng.choice(list(by_kind.values())).for_seat(seat))
    return hand


def main() -> int:
    warnings.simplefilter("ignore")
    per_game = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    lost = 0
    for game in Game:
        rng = random.Random(f"round-trip-{game.value}")
        began = time.perf_counter()
        for number in range(per_game):
            hand = random_hand(game, rng)
            assert hand.result is not None
            text = render_phh(hand, hand_id=number, table_name="PHH", viewer=ALL_DOWN_CARDS)
            *_, final = pokerkit.HandHistory.loads(text)
            stacks = dict(hand.result.final_stacks)
            ours = [stacks[player.seat] for player in hand.players]
            again = read_phh(text)
            if list(final.stacks) != ours or again.log != hand.log or again.result != hand.result:
                lost += 1
                print(f"{game.value} hand {number} lost something:\n{text}")
        elapsed = time.perf_counter() - began
        print(f"{game.value:>6}: {per_game} hands round-tripped in {elapsed:.1f} s")
    print(f"hands that lost anything: {lost}")
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
