"""The stored form of a hand does not move (issue #12).

Hands in play and finished are kept in the database as ``StudHand.to_json()`` and read back
with ``StudHand.from_json``. ``data/hand_json_v1.json`` was written by the engine *before*
``StudHand``'s fields were declared once (issue #12, commit "tests (engine): freeze ..."):
for seeded random hands (2 to 8 players, both games, short and deep stacks, rake, the
reshuffle and community card, time-outs, abandons and voluntary shows) it holds every state's
``to_json`` as a digest of its JSON text (key order included) and each hand's last state in
full. The engine of today must write the same bytes and read the old ones back unchanged.

Regenerate only with a deliberate format change (and a new ``version``):
``python -m tests.stud.test_hand_json_format --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from stud import Action, Game, GameConfig, OddChip, SeatSetup, StudHand
from stud.rake import MIDDLE_STAKES_RAKE, SMALL_STAKES_RAKE

FIXTURE = Path(__file__).with_name("data") / "hand_json_v1.json"
HANDS = 400
KEEP_EVERY = 3  # the last state in full of every third hand (the file stays small)


def _text(data: dict[str, object]) -> str:
    """The JSON text of a hand as a database adapter would write it (key order kept)."""
    return json.dumps(data, separators=(",", ":"))


def _digest(data: dict[str, object]) -> str:
    return hashlib.sha256(_text(data).encode()).hexdigest()[:20]


def _table(rng: random.Random) -> tuple[GameConfig, list[SeatSetup], list[int], int]:
    small = rng.choice([2, 10, 100, 400])
    config = GameConfig(
        game=rng.choice([Game.STUD, Game.STUD8]),  # the games of the recorded bytes
        small_bet=small,
        big_bet=rng.choice([small, 2 * small]),
        ante=rng.randint(0, small // 2),
        bring_in=rng.randint(1, small + 5),
        heads_up_raises=rng.choice([None, 0, 2, 6]),
        odd_chip=rng.choice(list(OddChip)),
        dealer_only_ante=rng.random() < 0.2,
        max_raises=rng.randint(1, 4),
        rake=rng.choice([None, SMALL_STAKES_RAKE, MIDDLE_STAKES_RAKE]),
    )
    # eight players deep-stacked often enough to reach the reshuffle and community card
    count = 8 if rng.random() < 0.3 else rng.randint(2, 8)
    numbers = sorted(rng.sample(range(1, 9), count))
    deep = rng.random() < 0.5
    seats = [
        SeatSetup(
            seat=n,
            name=f"P{n}",
            stack=rng.randint(1, 60) if not deep and rng.random() < 0.5 else rng.randint(1, 5000),
            auto_muck=rng.random() < 0.7,
        )
        for n in numbers
    ]
    deck = list(range(52))
    rng.shuffle(deck)
    return config, seats, deck, rng.randint(1, 8)


def play(seed: int) -> list[dict[str, object]]:
    """Every state of one seeded hand, as ``to_json``, from the deal to the last show."""
    rng = random.Random(seed)
    config, seats, deck, button = _table(rng)
    passive = rng.random() < 0.3  # call down: the showdown and its side pots
    hand, _ = StudHand.start(config, seats, deck, button, reshuffle_seed=seed)
    states = [hand.to_json()]
    while not hand.is_over:
        roll = rng.random()
        seat = hand.to_act
        assert seat is not None
        live = [s for s in hand.seats if hand.status_of(s) != "folded"]
        if roll < 0.03:
            hand, _ = hand.abandon(rng.choice(live))
        elif roll < 0.08:
            hand, _ = hand.time_out(seat, protected=rng.random() < 0.5)
        else:
            offers = hand.legal_actions(seat)
            if passive:
                chosen = next((o for o in offers if o.kind in ("check", "call")), offers[0])
            else:
                chosen = rng.choice(offers)
            hand, _ = hand.apply(Action(seat, chosen.kind, chosen.amount))
        states.append(hand.to_json())
    for seat in hand.seats:
        if hand.may_show(seat) and rng.random() < 0.5:
            hand, _ = hand.show_cards(seat)
            states.append(hand.to_json())
    return states


def _fixture() -> dict[str, Any]:
    hands = []
    for seed in range(HANDS):
        states = play(seed)
        entry: dict[str, Any] = {"seed": seed, "states": [_digest(s) for s in states]}
        if seed % KEEP_EVERY == 0:
            entry["last"] = states[-1]
        hands.append(entry)
    return {"version": 1, "hands": hands}


def _stored() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def _stored_hands() -> list[dict[str, Any]]:
    """The hands stored in full (``last``), as rows of the database would hold them."""
    return [entry["last"] for entry in _stored()["hands"] if "last" in entry]


def test_to_json_writes_the_bytes_the_engine_wrote_before_issue_12() -> None:
    stored = _stored()
    assert len(stored["hands"]) == HANDS
    for entry in stored["hands"]:
        states = play(entry["seed"])
        digests = [_digest(s) for s in states]
        for step, (now, before) in enumerate(zip(digests, entry["states"], strict=False)):
            assert now == before, f"hand {entry['seed']}, state {step}: to_json changed"
        assert len(digests) == len(entry["states"]), f"hand {entry['seed']} played differently"
        if "last" in entry:
            assert _text(states[-1]) == _text(entry["last"])


def test_hands_stored_before_issue_12_load_and_write_back_the_same() -> None:
    stored = _stored_hands()
    assert len(stored) == len(range(0, HANDS, KEEP_EVERY))
    for old in stored:
        hand = StudHand.from_json(old)
        assert _text(hand.to_json()) == _text(old)
        assert hand == StudHand.from_json(json.loads(_text(old)))


def test_the_fixture_covers_what_a_stored_hand_can_hold() -> None:
    """The comparison above means something only if the hands reach every kind of state."""
    last = _stored_hands()
    assert any(h["community"] is not None for h in last), "a community card"
    assert any(h["reshuffled"] and h["community"] is None for h in last), "a reshuffle"
    assert any(h["volunteered"] for h in last), "a voluntary show"
    assert any(len(h["result"]["pots"]) > 1 for h in last), "a side pot"
    assert any(h["result"]["rake"] for h in last), "rake taken"
    assert any(h["result"]["showdown"] for h in last), "a showdown"
    assert any(not h["result"]["showdown"] for h in last), "a hand won uncalled"
    kinds = {record["type"] for h in last for record in h["log"]}
    assert kinds == {"action", "timeout", "abandon", "show"}, kinds


def test_a_hand_stored_before_voluntary_shows_loads_with_none_shown() -> None:
    """R-SHOW-3 added ``volunteered``; rows written before it have no such key."""
    old = dict(_stored_hands()[0])
    del old["volunteered"]
    hand = StudHand.from_json(old)
    assert hand.volunteered == ()
    assert hand.shown_by_choice == ()


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(_fixture(), separators=(",", ":")) + "\n")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size:,} bytes)")
