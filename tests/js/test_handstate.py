"""static/js/handstate.js in Chromium: a hand as one viewer sees it, rebuilt from events (the
live table and the replayer both draw from it)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.asyncio

HANDSTATE = "/static/js/handstate.js"


def start(seats: list[tuple[int, str, int]]) -> dict[str, Any]:
    return {
        "kind": "hand_start",
        "payload": {
            "game": "stud",
            "button": seats[0][0],
            "small_bet": 200,
            "big_bet": 400,
            "ante": 25,
            "bring_in": 50,
            "seats": [{"seat": s, "name": n, "stack": stack} for s, n, stack in seats],
        },
    }


async def replay(modules: Any, events: list[dict[str, Any]], viewer: int | None = None) -> Any:
    hand = await modules.call(HANDSTATE, "emptyHand")
    for event in events:
        hand = await modules.call(HANDSTATE, "applyEvent", hand, event, {"viewerSeat": viewer})
    return hand


async def test_a_short_all_in_makes_a_main_pot_and_a_side_pot(modules):
    """R-POT-1: seat 1 is all-in for 100 of its stack; seats 2 and 3 go on to 300
    each. On the felt: a main pot of 3 x 100 and a side pot of 2 x 200."""
    hand = await replay(
        modules,
        [
            start([(1, "Ann", 100), (2, "Bob", 2000), (3, "Cy", 2000)]),
            {"kind": "street", "payload": {"street": 3}},
            {
                "kind": "action",
                "payload": {
                    "seat": 1,
                    "action": "bet",
                    "to": 100,
                    "amount": 100,
                    "stack": 0,
                    "all_in": True,
                },
            },
            {
                "kind": "action",
                "payload": {"seat": 2, "action": "raise", "to": 300, "amount": 300, "stack": 1700},
            },
            {
                "kind": "action",
                "payload": {"seat": 3, "action": "call", "to": 300, "amount": 300, "stack": 1700},
            },
        ],
    )
    assert await modules.call(HANDSTATE, "potsOf", hand) == [300, 400]
    assert hand["pot"] == 700
    assert [s["status"] for s in hand["seats"]] == ["all_in", "active", "active"]
    assert hand["notes"][-1] == "Cy calls 300"


async def test_a_private_copy_after_a_snapshot_never_adds_a_card_twice(modules):
    """The viewer's own down cards: a snapshot that already holds them, then the private
    event's copy arriving late, still shows two down cards, not four."""
    view = {
        "seats": [
            {
                "seat": 2,
                "name": "Bob",
                "stack": 1975,
                "status": "active",
                "bet": 0,
                "in_pot": 25,
                "up": [],
                "down_count": 2,
                "down": [12, 40],
            }
        ],
        "viewer": 2,
    }
    hand = await modules.call(HANDSTATE, "fromView", view)
    hand = await modules.call(
        HANDSTATE,
        "applyEvent",
        hand,
        {"kind": "down_cards", "payload": {"seat": 2, "cards": [12, 40]}},
        {"viewerSeat": 2},
    )
    assert hand["seats"][0]["down"] == [12, 40]
    assert hand["seats"][0]["down_count"] == 2


async def test_an_event_leaves_the_hand_it_was_applied_to_untouched(modules):
    """applyEvent returns a new hand: the store may keep the one before (the chips fly from it)."""
    result = await modules.page.evaluate(
        """async () => {
            const { applyEvent, emptyHand } = await import("/static/js/handstate.js");
            const before = applyEvent(emptyHand(), {kind: "hand_start", payload: {game: "stud",
                button: 1, small_bet: 200, big_bet: 400, ante: 25, bring_in: 50,
                seats: [{seat: 1, name: "Ann", stack: 1000}]}});
            const after = applyEvent(before,
                {kind: "antes", payload: {posts: [{seat: 1, amount: 25}]}});
            return [before.pot, before.seats[0].stack, after.pot, after.seats[0].stack];
        }"""
    )
    assert result == [0, 1000, 25, 975]


async def test_hand_end_sets_the_final_stacks_and_empties_the_pot(modules):
    """After hand_end the seats show the stacks the server settled, no bet, no pot, no turn."""
    hand = await replay(
        modules,
        [
            start([(1, "Ann", 1000), (2, "Bob", 1000)]),
            {
                "kind": "antes",
                "payload": {"posts": [{"seat": 1, "amount": 25}, {"seat": 2, "amount": 25}]},
            },
            {"kind": "pot_awarded", "payload": {"seat": 2, "amount": 50, "pot": 0, "half": None}},
            {"kind": "hand_end", "payload": {"stacks": {"1": 975, "2": 1025}}},
        ],
    )
    assert hand["is_over"] is True
    assert hand["pot"] == 0 and hand["to_act"] is None
    assert [(s["seat"], s["stack"], s["bet"]) for s in hand["seats"]] == [(1, 975, 0), (2, 1025, 0)]
    assert hand["winners"] == [2]
    assert hand["notes"][-1] == "Bob wins 50 from the pot"
