"""static/js/table/store.js in Chromium: the live table's state fed by frames
(docs/protocol.md): order by (hand_id, seq), resync on a gap, the deadlines from `ms_left`."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.asyncio

CHECKS = "/tests/js/store_checks.js"
ALICE = 11  # player ids
BOB = 12


def seat_view(number: int, name: str, down: list[int] | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seat": number,
        "name": name,
        "stack": 1975,
        "status": "active",
        "bet": 0,
        "in_pot": 25,
        "up": [number * 4],
        "down_count": 2,
    }
    if down is not None:
        entry["down"] = down
    return entry


def snapshot(*, seq: int = 5, viewer_seat: int | None = 1, **hand: Any) -> dict[str, Any]:
    """Alice (seat 1) and Bob (seat 2) in hand 7 at `seq`, seen by Alice (or a watcher)."""
    state = {
        "game": "stud",
        "small_bet": 200,
        "big_bet": 400,
        "ante": 25,
        "bring_in": 50,
        "button": 2,
        "street": 3,
        "to_act": 2,
        "bring_in_seat": 2,
        "current_bet": 0,
        "pot": 50,
        "community_card": None,
        "seats": [seat_view(1, "Alice", [1, 2] if viewer_seat == 1 else None), seat_view(2, "Bob")],
        "is_over": False,
        "legal_actions": [],
        "viewer": viewer_seat,
    }
    return {
        "type": "snapshot",
        "table": {"id": 3, "name": "Main", "seats": 6, "action_clock": 20, "buy_in": 2000},
        "seats": [
            {"number": 1, "player_id": ALICE, "name": "Alice", "stack": 1975},
            {"number": 2, "player_id": BOB, "name": "Bob", "stack": 1975},
        ],
        "viewer": None if viewer_seat is None else {"player_id": ALICE, "seat": viewer_seat},
        "hand": {
            "id": 7,
            "number": 4,
            "seq": seq,
            "button": 2,
            "action_deadline": "2026-12-01T12:00:20+00:00",
            "ms_left": 20_000,
            **hand,
            "state": state,
        },
        "next_hand_at": None,
        "waiting_list": [],
        "last_hands": [],
    }


def event(seq: int, kind: str, payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "event",
        "table_id": 3,
        "hand_id": 7,
        "hand_number": 4,
        "seq": seq,
        "kind": kind,
        "payload": payload,
        "to_act": None,
        "action_deadline": None,
        "ms_left": None,
        **extra,
    }


def bring_in(seq: int, **extra: Any) -> dict[str, Any]:
    payload = {"seat": 2, "action": "bring_in", "to": 50, "amount": 50, "stack": 1925}
    return event(seq, "action", payload, **extra)


async def test_a_gap_asks_for_one_snapshot_and_the_frames_wait_for_it(modules):
    """docs/protocol.md: seq 7 after 5 is a gap. The store asks for a snapshot (once, however
    many frames come), keeps the frames, and applies those after the snapshot's seq."""
    early = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), bring_in(7), event(8, "street", {"street": 4})],
        {"playerId": ALICE},
    )
    assert early["effects"] == [[], [{"type": "snapshot"}], []]
    assert early["awaiting"] is True and early["queued"] == [7, 8]
    assert early["facts"]["seq"] == 5

    resynced = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), bring_in(7), event(8, "street", {"street": 4}), snapshot(seq=7)],
        {"playerId": ALICE},
    )
    assert resynced["awaiting"] is False and resynced["queued"] == []
    assert resynced["facts"]["seq"] == 8  # seq 7 was in the snapshot, 8 applied after it
    assert resynced["facts"]["hand"]["street"] == 4


async def test_a_duplicate_is_dropped_and_a_private_copy_counted_once(modules):
    """The placeholder and the private copy share a seq: the player keeps the real cards once;
    a repeated public frame changes nothing."""
    placeholder = event(6, "private", {}, seat=1)
    private = event(6, "down_cards", {"seat": 1, "cards": [3]}, private=True)
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), placeholder, private, private, bring_in(7), bring_in(7)],
        {"playerId": ALICE},
    )
    alice, bob = fed["facts"]["hand"]["seats"]
    assert alice["down"] == [1, 2, 3] and alice["down_count"] == 3
    assert bob["stack"] == 1925 and fed["facts"]["hand"]["pot"] == 100
    assert fed["notes"] == ["Bob brings in for $0.50"]


async def test_the_countdown_comes_from_ms_left_not_the_wall_clock(modules):
    """Issue #12: a client whose wall clock is an hour off still counts the 12 seconds the
    server says are left: the deadline is the receipt's local time plus `ms_left`."""
    an_hour_late = 1_796_126_400_000 + 3_600_000  # the client's Date.now(), an hour off
    frame = bring_in(6, to_act=1, action_deadline="2026-12-01T12:00:12+00:00", ms_left=12_000)
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), frame],
        {"playerId": ALICE, "now": 500, "wallNow": an_hour_late},
    )
    assert fed["deadline"] == 501 + 12_000  # received at local time 501
    assert fed["facts"]["hand"]["to_act"] == 1


async def test_the_countdown_never_shows_more_than_the_tables_clock(modules):
    """R-TIME-1: the table gives 20 s; a frame saying more is drawn as 20 s."""
    frame = bring_in(6, to_act=1, ms_left=95_000)
    fed = await modules.call(
        CHECKS, "feed", [snapshot(seq=5), frame], {"playerId": ALICE, "now": 0}
    )
    assert fed["deadline"] == 1 + 20_000


async def test_an_older_server_without_ms_left_counts_from_the_iso_deadline(modules):
    """Compatibility: no `ms_left`, the ISO deadline against the wall clock (as before)."""
    wall = 1_796_126_400_000  # 2026-12-01T12:00:00Z
    frame = bring_in(6, to_act=1, action_deadline="2026-12-01T12:00:05+00:00")
    del frame["ms_left"]
    fed = await modules.call(
        CHECKS, "feed", [snapshot(seq=5), frame], {"playerId": ALICE, "now": 0, "wallNow": wall}
    )
    assert fed["deadline"] == 1 + 5_000


async def test_the_seat_offer_and_the_ante_prompt_count_from_ms_left(modules):
    """The waiting list's held seat and R-ANTE-1's prompt use `ms_left` too."""
    offer = {
        "type": "seat_offer",
        "table_id": 3,
        "entry_id": 1,
        "until": "2000-01-01T00:00:00+00:00",
        "ms_left": 30_000,
    }
    ante = {
        "type": "ante_confirm",
        "table_id": 3,
        "deadline": "2000-01-01T00:00:00+00:00",
        "ms_left": 4_000,
    }
    fed = await modules.call(
        CHECKS, "feed", [snapshot(seq=5), offer, ante], {"playerId": ALICE, "now": 0}
    )
    assert fed["offer"] == 1 + 30_000
    assert fed["anteDeadline"] == 2 + 4_000


async def test_r_ante_1_the_snapshot_carries_the_prompt_and_the_table_frames_move_it(modules):
    """Issue #14: between hands the snapshot names the seats awaited (a reload shows the
    prompt, counting down to the next hand, or with no deadline when the table waits); a
    next_hand frame that no longer names the viewer takes the prompt away."""
    between = {**snapshot(seq=5), "hand": None, "awaiting_ante": [1]}
    timed = {**between, "next_hand_at": "2000-01-01T00:00:00+00:00", "next_hand_ms_left": 5_000}
    confirmed = {"type": "next_hand", "table_id": 3, "at": None, "awaiting_ante": [2]}

    fed = await modules.call(CHECKS, "feed", [timed], {"playerId": ALICE, "now": 0})
    assert (fed["anteAsked"], fed["anteDeadline"]) == (True, 5_000)
    fed = await modules.call(CHECKS, "feed", [between], {"playerId": ALICE, "now": 0})
    assert (fed["anteAsked"], fed["anteDeadline"]) == (True, None)
    fed = await modules.call(CHECKS, "feed", [between, confirmed], {"playerId": ALICE, "now": 0})
    assert (fed["anteAsked"], fed["anteDeadline"]) == (False, None)


async def test_your_turn_brings_the_offers_and_one_click_sends_one_act(modules):
    """The offers come in your_turn at the store's seq; acting sends the seq and hand id once
    (a second click while the first is on its way sends nothing) and clears the buttons."""
    snap = snapshot(seq=5, to_act=1)
    snap["hand"]["state"]["to_act"] = 1
    turn = {
        "type": "your_turn",
        "hand_id": 7,
        "seq": 5,
        "seat": 1,
        "legal_actions": [
            {"kind": "call", "amount": 50, "adds": 50},
            {"kind": "fold", "amount": 0, "adds": 0},
        ],
        "ms_left": 20_000,
    }
    acted = await modules.call(
        CHECKS, "actTwice", [snap, turn], {"kind": "call", "amount": 50}, {"playerId": ALICE}
    )
    assert acted["first"] == {"type": "act", "seq": 5, "hand_id": 7, "kind": "call", "amount": 50}
    assert acted["second"] is None
    assert acted["offersLeft"] == []


async def test_a_turn_without_offers_asks_for_them_after_a_moment(modules):
    """The player is to act but your_turn has not come: the store asks the page to check again
    after TURN_OFFERS_WAIT_MS (then a snapshot brings the offers)."""
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), bring_in(6, to_act=1, ms_left=20_000)],
        {"playerId": ALICE},
    )
    assert fed["effects"][1] == [{"type": "check_offers", "seq": 6, "delay": 500}]


async def test_a_watcher_never_gets_down_cards_and_a_new_hand_starts_at_seq_1(modules):
    """A watcher applies the placeholder only; the next hand's seq 1 starts it afresh."""
    start = {
        **event(
            1,
            "hand_start",
            {
                "game": "stud",
                "button": 1,
                "small_bet": 200,
                "big_bet": 400,
                "ante": 25,
                "bring_in": 50,
                "seats": [
                    {"seat": 1, "name": "Alice", "stack": 1975},
                    {"seat": 2, "name": "Bob", "stack": 2025},
                ],
            },
        ),
        "hand_id": 8,
        "hand_number": 5,
    }
    fed = await modules.call(
        CHECKS, "feed", [snapshot(seq=5, viewer_seat=None), event(6, "private", {}, seat=1), start]
    )
    assert fed["facts"]["handId"] == 8 and fed["facts"]["seq"] == 1 and fed["facts"]["button"] == 1
    assert all("down" not in seat for seat in fed["facts"]["hand"]["seats"])


def ended(snap: dict[str, Any]) -> dict[str, Any]:
    """The table's snapshot once hand 7 is over: no hand in play, hand 7 in the last hands."""
    return {
        **snap,
        "hand": None,
        "last_hands": [{"id": 7, "number": 4, "pot": 100, "winners": [2]}],
    }


async def test_a_snapshot_that_comes_after_the_hand_ended_lets_the_queued_frames_finish_it(modules):
    """The page asked for a snapshot near the end of a hand (the offers were late); the hand's
    last frames came while it waited, then the snapshot, built after the end: no hand. The
    queued frames finish the hand drawn (the winner shows), and nothing more is asked for."""
    fed = await modules.call(
        CHECKS,
        "feed",
        [
            snapshot(seq=5),
            {"type": "ask"},
            bring_in(6),
            event(7, "action", {"seat": 1, "action": "fold", "to": 0, "amount": 0, "stack": 1975}),
            event(8, "pot_awarded", {"seat": 2, "amount": 100, "pot": 0, "half": None}),
            event(9, "hand_end", {"stacks": {"1": 1975, "2": 2075}}),
            ended(snapshot(seq=5)),
        ],
        {"playerId": ALICE},
    )
    # Issue #23: no snapshot asked for after the hand (its last_hands frame says the rest).
    assert [e["type"] for e in fed["effects"][-1]] == ["fly_chips"]
    assert fed["awaiting"] is False and fed["queued"] == []
    assert fed["isOver"] is True and fed["winners"] == [2]


async def test_frames_of_a_finished_hand_with_a_gap_never_ask_again_and_again(modules):
    """Frames of hand 7 with a gap, and a snapshot saying hand 7 is over: no snapshot can fill
    the gap, so the frames are dropped instead of asking for the same snapshot forever (the
    page flooded the server until it was rate limited)."""
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), bring_in(7), event(8, "street", {"street": 4}), ended(snapshot(seq=5))],
        {"playerId": ALICE},
    )
    assert fed["effects"][1] == [{"type": "snapshot"}]
    assert fed["effects"][3] == []  # the snapshot that says the hand is over asks for nothing
    assert fed["awaiting"] is False and fed["queued"] == []
    assert fed["facts"]["hand"] is None and fed["facts"]["handId"] is None


def time_bank(seq: int, *, ms_left: int, bank: int) -> dict[str, Any]:
    return {
        "type": "time_bank",
        "table_id": 3,
        "hand_id": 7,
        "seq": seq,
        "seat": 2,
        "time_bank_ms": bank,
        "action_deadline": "2026-12-01T12:00:50+00:00",
        "ms_left": ms_left,
    }


async def test_r_bet_7_the_bar_runs_on_into_the_time_bank(modules):
    """R-BET-7: the 20 s clock ran out; the `time_bank` frame (same seq) gives the bank's
    30 s, more than the table's clock, and the bar measures against the bank."""
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5), time_bank(5, ms_left=30_000, bank=30_000)],
        {"playerId": ALICE, "now": 0},
    )
    assert fed["deadline"] == 1 + 30_000
    assert fed["timeBankMs"] == 30_000
    assert fed["facts"]["seq"] == 5


async def test_r_bet_7_a_snapshot_taken_on_the_bank_shows_the_bank_left(modules):
    fed = await modules.call(
        CHECKS,
        "feed",
        [snapshot(seq=5, ms_left=25_000, time_bank_seat=2)],
        {"playerId": ALICE, "now": 0},
    )
    assert fed["deadline"] == 25_000 and fed["timeBankMs"] == 25_000


async def test_r_bet_7_the_next_turn_is_on_the_plain_clock_again(modules):
    fed = await modules.call(
        CHECKS,
        "feed",
        [
            snapshot(seq=5),
            time_bank(5, ms_left=30_000, bank=30_000),
            bring_in(6, to_act=1, ms_left=20_000),
        ],
        {"playerId": ALICE, "now": 0},
    )
    assert fed["timeBankMs"] is None and fed["deadline"] == 2 + 20_000


async def test_the_header_names_the_hand_by_the_number_its_history_gives_it(modules):
    """Issue #14: one hand number everywhere. The hand with id 7 is the table's 4th; its
    history, download and PokerStars text say #7, so the table's header says #7 too."""
    header = await modules.call(CHECKS, "headerAfter", [snapshot(seq=5)], {"playerId": ALICE})
    assert header["number"].startswith("Hand #7 ")


async def test_the_hand_log_numbers_its_lines_from_the_hands_first_note(modules):
    """Issue #14: "This hand" shows the last 12 notes of 15; they are numbered 4 to 15 (the
    13th line of the hand says 13), never 1 to 12 again."""
    calls = [
        event(
            6 + i,
            "action",
            {"seat": 1 + i % 2, "action": "check", "to": 0, "amount": 0, "stack": 1975},
        )
        for i in range(15)
    ]
    log = await modules.call(CHECKS, "logAfter", [snapshot(seq=5), *calls], {"playerId": ALICE})
    assert log["start"] == 4
    assert len(log["lines"]) == 12
    assert log["lines"][0] == "Bob checks"  # the 4th note: seats 1, 2, 1, then 2
