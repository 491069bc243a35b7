"""PHH round trip, 1,000 random hands a game: ours out, PokerKit in and replayed, ours in.

    python benchmarks/phh_round_trip.py [hands-per-game] [game ...]   (games: stud stud8 razz)

Each hand (2 to 6 players, deep stacks, one size of each bet: PokerKit deals no open-pair
big bet) is written by ``stud.phh.render_phh`` with every down card, replayed by PokerKit
0.7.7's ``HandHistory`` to its final stacks, and read back by ``stud.phh.read_phh``; a hand
that loses anything (another stack, another log or result) is printed and counted. The hands
and the trip are benchmarks/phh_hands.py's, shared with the shorter suite version,
tests/stud/test_phh.py (150 a game).
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

from benchmarks.phh_hands import random_hand, round_trip_loss  # noqa: E402
from stud import Game  # noqa: E402


def main() -> int:
    warnings.simplefilter("ignore")
    per_game = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    games = [Game(name) for name in sys.argv[2:]] or list(Game)
    lost = 0
    for game in games:
        rng = random.Random(f"round-trip-{game.value}")
        began = time.perf_counter()
        for number in range(per_game):
            loss = round_trip_loss(random_hand(game, rng), number)
            if loss is not None:
                lost += 1
                print(f"{game.value} hand {number} lost something: {loss}")
        elapsed = time.perf_counter() - began
        print(f"{game.value:>6}: {per_game} hands round-tripped in {elapsed:.1f} s")
    print(f"hands that lost anything: {lost}")
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
