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
    assert [n for n in fed["notes"] if "brings in" in n] == ["Bob brings in for $0.50"]


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


def a_whole_hand(*, alice: bool = True) -> list[dict[str, Any]]:
    """Hand 7 from its deal: Alice (seat 1) and Bob (seat 2) ante 25; Bob's 2c door brings
    in, Alice completes and Bob calls; on 4th street both check, then Alice bets and Bob
    folds. Alice's own down cards come to her (`alice`) as a private copy beside their
    placeholder."""
    ace_spades, king_hearts, two_clubs, nine_diamonds = 51, 46, 0, 29
    queen_clubs, five_hearts = 40, 14
    seats = [{"seat": 1, "name": "Alice", "stack": 2000}, {"seat": 2, "name": "Bob", "stack": 2000}]
    start = {"game": "stud", "button": 2, "small_bet": 200, "big_bet": 400, "ante": 25}
    posts = [{"seat": 1, "amount": 25}, {"seat": 2, "amount": 25}]

    def act(seq: int, seat: int, action: str, to: int, paid: int, stack: int) -> dict[str, Any]:
        payload = {"seat": seat, "action": action, "to": to, "amount": paid, "stack": stack}
        return event(seq, "action", payload)

    hers = {"seat": 1, "street": 3, "cards": [ace_spades, king_hearts]}
    return [
        event(1, "hand_start", {**start, "bring_in": 50, "seats": seats}),
        event(2, "antes", {"posts": posts}),
        event(3, "private", {}, seat=1),
        *([event(3, "down_cards", hers, private=True)] if alice else []),
        event(4, "private", {}, seat=2),
        event(
            5,
            "cards_dealt",
            {
                "street": 3,
                "seats": [
                    {"seat": 1, "up": [nine_diamonds], "down_count": 2},
                    {"seat": 2, "up": [two_clubs], "down_count": 2},
                ],
            },
        ),
        event(6, "bring_in_due", {"seat": 2}),
        act(7, 2, "bring_in", 50, 50, 1925),
        act(8, 1, "complete", 200, 200, 1775),
        act(9, 2, "call", 200, 150, 1775),
        event(10, "street", {"street": 4}),
        event(
            11,
            "cards_dealt",
            {
                "street": 4,
                "seats": [
                    {"seat": 1, "up": [queen_clubs], "down_count": 0},
                    {"seat": 2, "up": [five_hearts], "down_count": 0},
                ],
            },
        ),
        act(12, 1, "check", 0, 0, 1775),
        act(13, 2, "check", 0, 0, 1775),
        act(14, 1, "bet", 200, 200, 1575),
        act(15, 2, "fold", 200, 0, 1775),
        event(16, "uncalled_bet_returned", {"seat": 1, "amount": 200}),
        event(17, "pot_awarded", {"seat": 1, "amount": 450, "pot": 0, "half": None}),
        event(18, "hand_end", {"stacks": {"1": 2225, "2": 1775}}),
    ]


def before_the_deal(viewer_seat: int | None = 1) -> dict[str, Any]:
    frame = snapshot(viewer_seat=viewer_seat)
    frame["hand"] = None
    return frame


async def test_the_hand_log_gives_the_dealers_lines_of_the_whole_hand(modules):
    """Issue #21: "This hand" reads as the dealer's account in every online room, for the whole
    hand (not its last 12 lines): the streets marked, the antes, what each is dealt face up
    (and Alice her own down cards), the bring-in and the completion, every action, who wins."""
    log = await modules.call(
        CHECKS, "logAfter", [before_the_deal(), *a_whole_hand()], {"playerId": ALICE}
    )
    assert log["lines"] == [
        "Alice posts the ante $0.25",
        "Bob posts the ante $0.25",
        "*** 3rd STREET ***",
        "Dealt to Alice (down) A♠ K♥",
        "Dealt to Alice 9♦",
        "Dealt to Bob 2♣",
        "Bob brings in for $0.50",
        "Alice completes to $2.00",
        "Bob calls $1.50",
        "*** 4th STREET ***",
        "Dealt to Alice Q♣, showing 9♦ Q♣",
        "Dealt to Bob 5♥, showing 2♣ 5♥",
        "Alice checks",
        "Bob checks",
        "Alice bets $2.00",
        "Bob folds",
        "Uncalled $2.00 returned to Alice",
        "Alice wins $4.50 from the pot",
    ]
    assert log["markers"] == ["*** 3rd STREET ***", "*** 4th STREET ***"]


async def test_r_hist_2_a_watchers_log_names_no_down_card(modules):
    """R-HIST-2: the same hand watched: the log has every public line and no down card (the
    placeholders tell it nothing), only the cards dealt face up."""
    log = await modules.call(
        CHECKS, "logAfter", [before_the_deal(None), *a_whole_hand(alice=False)], {}
    )
    assert "*** 3rd STREET ***" in log["lines"]
    assert not [line for line in log["lines"] if "A♠" in line or "K♥" in line or "(down)" in line]
    assert "Dealt to Alice 9♦" in log["lines"]


async def test_a_log_begun_mid_hand_starts_with_the_street_and_the_boards(modules):
    """A reload mid-hand (no events before the snapshot): the log opens with the street and
    what each seat shows, Alice's own down cards with hers, then goes on with the events."""
    log = await modules.call(
        CHECKS, "logAfter", [snapshot(seq=5), bring_in(6)], {"playerId": ALICE}
    )
    assert log["lines"] == [
        "*** 3rd STREET ***",
        "Dealt to Alice (down) 2♦ 2♥",
        "Alice shows 3♣",
        "Bob shows 4♣",
        "Bob brings in for $0.50",
    ]


async def test_r_tour_5_a_stakes_frame_puts_the_new_level_in_the_header(modules):
    """R-TOUR-5 (issue #21): a tournament level change sends `stakes`; the header shows the
    next hand's limits, ante and bring-in at once, not after some later snapshot."""
    before = snapshot(seq=5)
    before["table"].update(
        game="stud", small_bet=10, big_bet=20, ante=5, bring_in=5, is_tournament=True
    )
    stakes = {
        "type": "stakes",
        "table_id": 3,
        "ante": 15,
        "bring_in": 25,
        "small_bet": 60,
        "big_bet": 120,
        "dealer_only_ante": False,
    }
    header = await modules.call(
        CHECKS, "headerAfter", [before, stakes], {"playerId": ALICE, "chips": True}
    )
    assert header["stakes"] == "Stud · 60/120 · ante 15 · bring-in 25"


async def test_r_bring_2_the_bring_in_seat_wears_one_tag_before_and_after_posting(modules):
    """R-BRING-2, issue #21: Bob's seat said "Bring-In" while the bring-in was due and then
    "Bring In $0.50", two wordings in two tags' colours for one thing: now one tag, the same
    word and kind, with the amount once it is posted."""
    tags = await modules.call(
        CHECKS, "seatTagsAfter", [snapshot(seq=5), bring_in(6)], 2, {"playerId": ALICE}
    )
    assert tags == [
        [{"text": "bring-in", "kind": "tag tag-bring-in"}],
        [{"text": "bring-in $0.50", "kind": "tag tag-bring-in"}],
    ]


async def test_your_down_cards_are_logged_first_on_their_street_whenever_they_come(modules):
    """The private copy of Alice's down cards may reach her after the street's public
    frames; the log still says them first, right after the street's marker, as the dealer
    deals them."""
    frames = a_whole_hand()
    private = frames.pop(3)  # her copy, after the placeholder
    assert private["kind"] == "down_cards"
    late = [*frames[:5], private, *frames[5:]]  # after cards_dealt
    log = await modules.call(CHECKS, "logAfter", [before_the_deal(), *late], {"playerId": ALICE})
    street = log["lines"].index("*** 3rd STREET ***")
    assert log["lines"][street + 1 : street + 4] == [
        "Dealt to Alice (down) A♠ K♥",
        "Dealt to Alice 9♦",
        "Dealt to Bob 2♣",
    ]


async def test_lines_of_events_a_snapshot_already_holds_are_not_lost(modules):
    """Alice's page asks for a snapshot (her offers were late) while the bring-in and the
    completion come in: the snapshot holds both, the page drops their frames, and the log
    still has their lines, in order."""
    frames = a_whole_hand()
    seq8 = snapshot(seq=8)
    seq8["hand"]["id"] = 7
    log = await modules.call(
        CHECKS,
        "logAfter",
        [before_the_deal(), *frames[:7], {"type": "ask"}, *frames[7:9], seq8, frames[9]],
        {"playerId": ALICE},
    )
    assert log["lines"][-3:] == [
        "Bob brings in for $0.50",
        "Alice completes to $2.00",
        "Bob calls $1.50",
    ]


async def test_an_action_answered_internal_is_sent_again_with_the_same_seq(modules):
    """Issue #22: `internal` means nothing was applied (the database restarting): the same
    action goes again, same seq (actions are idempotent), with no toast and no new buttons."""
    offer = {"kind": "check", "amount": 0}
    turn = snapshot(seq=5)
    got = await modules.call(
        CHECKS,
        "actAnswered",
        [turn],
        offer,
        {"type": "error", "code": "internal"},
        {"playerId": ALICE},
    )
    assert got["effects"] == [{"type": "resend_act", "delay": 500, "ref": "r1"}]
    assert got["resend"] == got["message"] and got["message"]["seq"] == 5


async def test_an_action_not_answered_is_sent_again_and_an_answered_one_is_not(modules):
    offer = {"kind": "check", "amount": 0}
    turn = snapshot(seq=5)
    silent = await modules.call(CHECKS, "actAnswered", [turn], offer, None, {"playerId": ALICE})
    assert silent["resend"] == silent["message"]
    answered = await modules.call(
        CHECKS,
        "actAnswered",
        [turn],
        offer,
        {"type": "result", "command": "act", "ok": True, "status": "applied", "seq": 6},
        {"playerId": ALICE},
    )
    assert answered["resend"] is None


async def test_the_ping_carries_the_hand_and_seq_the_page_holds(modules):
    offer = {"kind": "check", "amount": 0}
    got = await modules.call(
        CHECKS, "actAnswered", [snapshot(seq=5)], offer, None, {"playerId": ALICE}
    )
    assert got["position"] == {"hand_id": 7, "seq": 5}


async def test_r_time_3_a_turn_clock_frame_restarts_the_bar_on_the_plain_clock(modules):
    """The room could not reach the player to act: the turn's clock starts again (not the
    time bank)."""
    frame = {
        "type": "turn_clock",
        "table_id": 3,
        "hand_id": 7,
        "seq": 5,
        "seat": 2,
        "action_deadline": "2026-12-01T12:00:20+00:00",
        "ms_left": 20_000,
    }
    fed = await modules.call(
        CHECKS, "feed", [snapshot(seq=5, ms_left=1_000), frame], {"playerId": ALICE, "now": 0}
    )
    assert fed["deadline"] == 1 + 20_000 and fed["timeBankMs"] is None
