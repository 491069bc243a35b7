"""Issue #12: every deadline the server sends comes with `ms_left`, the milliseconds left on
that clock when the frame or snapshot was built, so a client counts down on its own
monotonic clock and a skewed wall clock shows the right time (docs/protocol.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables import selectors, services
from tables.common import ms_left
from tests.table_factories import act, make_table, running_hand, seated_player, stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db

DEALT_AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_turn_frames_carry_the_whole_clock_in_ms_left_beside_the_deadline():
    """R-TIME-1: the bring-in is dealt with a 20 s clock. The batch's last event frame and
    the player's your_turn say when (`action_deadline`) and how long (`ms_left`: 20000)."""
    table = make_table(action_clock=20)
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)  # bob's 7c door brings in
    dealt = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=DEALT_AT)
    assert dealt.ok

    last = [f for f in dealt.frames.table_json if f["type"] == "event"][-1]
    assert last["to_act"] == 2
    assert last["action_deadline"] == (DEALT_AT + timedelta(seconds=20)).isoformat()
    assert last["ms_left"] == 20_000
    turn = [f for f in dealt.frames.users_json[bob.pk] if f["type"] == "your_turn"]
    assert [(f["seat"], f["ms_left"]) for f in turn] == [(2, 20_000)]

    acted = act(table, bob, "bring_in", 25, now=DEALT_AT + timedelta(seconds=5))
    assert acted.ok
    last = [f for f in acted.frames.table_json if f["type"] == "event"][-1]
    assert (last["to_act"], last["ms_left"]) == (1, 20_000)  # alice's clock starts afresh


def test_a_frame_without_a_turn_has_no_ms_left():
    """An event frame that names no turn sends `action_deadline` and `ms_left` as null."""
    table = make_table(action_clock=20)
    seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    dealt = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=DEALT_AT)
    first = next(f for f in dealt.frames.table_json if f["type"] == "event")
    assert (first["action_deadline"], first["ms_left"]) == (None, None)


def test_the_snapshot_says_how_long_is_left_on_the_turn():
    """The snapshot's hand carries `ms_left` next to `action_deadline`: what is left when it is
    built, never more than the table's clock and never below zero."""
    table = make_table(action_clock=20)
    seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    now = datetime.now(UTC)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=now).ok
    snapshot = selectors.table_snapshot(table.pk, None)
    assert snapshot is not None and snapshot["hand"] is not None
    assert snapshot["hand"]["action_deadline"] == running_hand(table).action_deadline.isoformat()
    assert 0 <= snapshot["hand"]["ms_left"] <= 20_000
    assert snapshot["next_hand_ms_left"] is None  # no next hand scheduled while one runs


def test_ms_left_counts_from_now_and_never_goes_below_zero():
    deadline = DEALT_AT + timedelta(seconds=3, milliseconds=250)
    assert ms_left(deadline, DEALT_AT) == 3_250
    assert ms_left(deadline, deadline + timedelta(seconds=1)) == 0
    assert ms_left(None, DEALT_AT) is None
