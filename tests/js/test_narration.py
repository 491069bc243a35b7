"""static/js/table/narration.js in Chromium: what a dealer says, for a screen reader (issue
#27), from the same events the felt draws."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.asyncio

CHECKS = "/tests/js/narration_checks.js"
NARRATION = "/static/js/table/narration.js"

# card = rank * 4 + suit (clubs, diamonds, hearts, spades); rank 0 is a two, 11 a king.
KD, KS, AS, AH, FIVE_C, TWO_C = 11 * 4 + 1, 11 * 4 + 3, 12 * 4 + 3, 12 * 4 + 2, 3 * 4, 0


def hand_events() -> list[dict[str, Any]]:
    """Ann (seat 1) and Bob (seat 2): 3rd and 4th street, Bob's own down cards sent to him."""
    return [
        {
            "kind": "hand_start",
            "hand_number": 7,
            "payload": {
                "game": "stud",
                "button": 1,
                "small_bet": 200,
                "big_bet": 400,
                "ante": 25,
                "bring_in": 50,
                "seats": [
                    {"seat": 1, "name": "Ann", "stack": 2000},
                    {"seat": 2, "name": "Bob", "stack": 2000},
                ],
            },
        },
        {
            "kind": "antes",
            "payload": {"posts": [{"seat": 1, "amount": 25}, {"seat": 2, "amount": 25}]},
        },
        {"kind": "street", "payload": {"street": 3}},
        {"kind": "down_cards", "payload": {"seat": 1, "street": 3, "cards": [AS, AH]}},
        {"kind": "down_cards", "payload": {"seat": 2, "street": 3, "cards": [TWO_C, AH]}},
        {
            "kind": "cards_dealt",
            "payload": {
                "street": 3,
                "seats": [
                    {"seat": 1, "up": [FIVE_C], "down_count": 2},
                    {"seat": 2, "up": [KS], "down_count": 2},
                ],
            },
        },
        {"kind": "bring_in_due", "payload": {"seat": 1}, "to_act": 1},
        {
            "kind": "action",
            "payload": {"seat": 1, "action": "bring_in", "to": 50, "amount": 50, "stack": 1925},
            "to_act": 2,
        },
        {
            "kind": "action",
            "payload": {"seat": 2, "action": "complete", "to": 200, "amount": 200, "stack": 1775},
            "to_act": 1,
        },
        {
            "kind": "action",
            "payload": {"seat": 1, "action": "call", "to": 200, "amount": 150, "stack": 1775},
        },
        {"kind": "street", "payload": {"street": 4}},
        {
            "kind": "cards_dealt",
            "payload": {
                "street": 4,
                "seats": [
                    {"seat": 1, "up": [TWO_C], "down_count": 0},
                    {"seat": 2, "up": [KD], "down_count": 0},
                ],
            },
            "to_act": 2,
        },
    ]


async def test_a_watcher_hears_the_deal_and_actions_but_no_down_card_r_hist_2(modules):
    """R-HIST-2: a watcher (no seat) hears each street's up cards, what each board shows,
    each action with its amount and whose turn it is; a down card event (even if one came)
    is never said."""
    lines = await modules.call(CHECKS, "narrate", hand_events(), {"viewerSeat": None})
    assert lines == [
        "New hand #7, 2 players.",
        "Antes in: 50 in the pot.",
        "3rd street. Seat 1, Ann, gets the five of clubs.",
        "Seat 2, Bob, gets the king of spades.",
        "Seat 1, Ann, to act.",
        "Seat 1, Ann, brings in for 50.",
        "Seat 2, Bob, to act, facing 50.",
        "Seat 2, Bob, completes to 200.",
        "Seat 1, Ann, to act, facing 150.",
        "Seat 1, Ann, calls 150.",
        "4th street. Seat 1, Ann, gets the two of clubs: five high showing.",
        "Seat 2, Bob, gets the king of diamonds: a pair of kings showing.",
        "Seat 2, Bob, to act.",
    ]
    assert not any("ace" in line for line in lines)


async def test_the_player_hears_their_own_down_cards_never_anothers_r_hist_2(modules):
    """Bob (seat 2) hears his own down cards as "Your down cards" and his actions as "You";
    Ann's down cards, had they reached him, are never said (R-HIST-2)."""
    lines = await modules.call(CHECKS, "narrate", hand_events(), {"viewerSeat": 2})
    assert "Your down cards: two of clubs, ace of hearts." in lines
    assert "You complete to 200." in lines
    assert "You get the king of diamonds: a pair of kings showing." in lines
    assert not any("ace of spades" in line for line in lines)
    # His own turn comes with its offers (yourTurn), not from the batch's to_act.
    assert "Seat 2, Bob, to act." not in lines


async def test_only_my_turn_and_results_leaves_out_the_others_deal_and_actions(modules):
    """The "only my turn and results" detail: Bob hears his own cards and actions only."""
    lines = await modules.call(
        CHECKS, "narrate", hand_events(), {"viewerSeat": 2, "detail": "mine"}
    )
    assert lines == [
        "Your down cards: two of clubs, ace of hearts.",
        "3rd street. You get the king of spades.",
        "You complete to 200.",
        "4th street. You get the king of diamonds: a pair of kings showing.",
    ]


async def test_the_showdown_and_side_pots_are_said_with_the_winners_hands(modules):
    events = [
        *hand_events(),
        {"kind": "showdown", "payload": {}},
        {
            "kind": "show",
            "payload": {"seat": 2, "cards": [TWO_C, AH, KS, KD], "high": "a pair of Kings"},
        },
        {"kind": "muck", "payload": {"seat": 1}},
        {
            "kind": "pot_awarded",
            "payload": {"seat": 2, "pot": 0, "amount": 450, "hand": "a pair of Kings"},
        },
        {"kind": "pot_awarded", "payload": {"seat": 2, "pot": 1, "amount": 100}},
        {"kind": "hand_end", "payload": {"stacks": {"1": 1775, "2": 2325}}},
    ]
    lines = await modules.call(CHECKS, "narrate", events, {"viewerSeat": 1})
    assert lines[-5:] == [
        "Showdown.",
        "Seat 2, Bob, shows two of clubs, ace of hearts, king of spades, king of diamonds:"
        " Pair of kings.",
        "You muck.",
        "Seat 2, Bob, wins 450 from the main pot with Pair of kings.",
        "Seat 2, Bob, wins 100 from side pot 1.",
    ]


async def test_the_players_turn_is_assertive_with_what_they_face_and_the_clock(modules):
    hand = {"legal_actions": [{"kind": "fold"}, {"kind": "call", "amount": 200}]}
    turn = await modules.call(NARRATION, "yourTurn", hand, 2, 9_400)
    assert turn == {"text": "Your turn: 200 to call, 10 seconds.", "urgent": True}


async def test_clock_warnings_follow_the_setting(modules):
    """ "each": every one of the last 5 seconds once; "five": once at 5; "off": never."""
    said: dict[str, list[str]] = {}
    for setting in ("each", "five", "off"):
        last = None
        said[setting] = []
        for second in (8, 7, 6, 5, 5, 4, 3, 2, 1):
            warning = await modules.call(NARRATION, "clockWarning", second, last, setting)
            if warning:
                said[setting].append(warning["text"])
                last = second
    assert said["each"] == ["5 seconds.", "4 seconds.", "3 seconds.", "2 seconds.", "1 second."]
    assert said["five"] == ["5 seconds."]
    assert said["off"] == []


async def test_what_up_cards_show(modules):
    assert await modules.call(NARRATION, "showing", [KD, KS, FIVE_C]) == "a pair of kings"
    assert await modules.call(NARRATION, "showing", [KD, KS, AS, AH]) == "two pair, aces and kings"
    assert await modules.call(NARRATION, "showing", [FIVE_C, TWO_C]) == "five high"
