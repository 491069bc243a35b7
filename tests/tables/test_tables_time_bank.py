"""R-BET-7's time bank with a controlled clock: after the 10 s action clock the player's bank
runs; what is used is gone; 5 s more every 10 hands dealt, at most 60 s; when both have run
out R-TIME-1 applies (issue #14)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from stud.time_bank import time_bank_after_deal, time_bank_after_use, time_bank_start_ms
from tables import selectors, services
from tables.models import HandEvent, Seat, Table
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    running_hand,
    seated_player,
    stacked_deck,
)
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db

DEALT = datetime(2025, 6, 2, 18, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return DEALT + timedelta(seconds=seconds)


def heads_up_with_a_bank(seconds: int = 30):
    """Alice (seat 1) and Bob (seat 2) at a table with a `seconds` time bank; Bob completes
    at DEALT, so Alice faces a bet with her 10 s clock running."""
    table = make_table(time_bank=seconds)
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=DEALT).ok
    assert act(table, bob, "complete", 100, now=DEALT).ok
    return table, alice, bob


def clock_runs_out(table, *, now: datetime):
    hand = running_hand(table)
    return services.hand_time_out(hand_id=hand.pk, expected_seq=hand.seq, now=now)


def bank_ms(player) -> int:
    return Seat.objects.get(player=player).time_bank_ms


def test_r_bet_7_a_player_sits_down_with_the_tables_time_bank():
    table = make_table(time_bank=45)
    alice = seated_player(table)
    assert bank_ms(alice) == 45_000


def test_r_bet_7_the_room_default_time_bank_is_30_seconds():
    assert time_bank_start_ms(30) == 30_000
    assert Seat._meta.get_field("time_bank_ms").default == 30_000
    assert Table._meta.get_field("time_bank").default == 30


def test_r_bet_7_when_the_clock_runs_out_the_time_bank_runs_and_the_turn_stays():
    table, _, _ = heads_up_with_a_bank()
    hand = running_hand(table)
    seq = hand.seq

    result = clock_runs_out(table, now=at(10))

    assert result.ok
    hand.refresh_from_db()
    assert hand.seq == seq and engine_of(hand).to_act == 1
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()
    assert hand.time_bank_seat == 1 and hand.action_deadline == at(40)
    [frame] = [f for f in result.frames.table_json if f["type"] == "time_bank"]
    assert (frame["seat"], frame["ms_left"], frame["time_bank_ms"]) == (1, 30_000, 30_000)
    assert clock_runs_out(table, now=at(39)).error == "not_due"


def test_r_bet_7_acting_on_the_bank_spends_only_the_seconds_used():
    table, alice, _ = heads_up_with_a_bank()
    clock_runs_out(table, now=at(10))

    assert act(table, alice, "call", 100, now=at(22)).ok  # 12 s of the bank used

    assert bank_ms(alice) == 18_000
    hand = running_hand(table)
    assert hand.time_bank_seat is None
    assert hand.action_deadline == at(32)  # the next player's plain 10 s clock


def test_r_bet_7_when_the_bank_runs_out_too_r_time_1_applies_and_the_bank_is_empty():
    table, alice, _ = heads_up_with_a_bank()
    hand = running_hand(table)
    clock_runs_out(table, now=at(10))

    assert clock_runs_out(table, now=at(40)).ok

    timeout = HandEvent.objects.filter(hand=hand, kind="timeout").get().payload
    assert timeout["seat"] == 1 and timeout["result"] == "all_in_protection"
    assert bank_ms(alice) == 0


def test_r_bet_7_with_the_bank_spent_the_clocks_end_is_r_time_1_at_once():
    table, _, _ = heads_up_with_a_bank(seconds=0)
    hand = running_hand(table)

    assert clock_runs_out(table, now=at(10)).ok

    assert HandEvent.objects.filter(hand=hand, kind="timeout", payload__seat=1).exists()


def test_r_time_3_a_disconnected_player_gets_the_bank_too():
    table, alice, _ = heads_up_with_a_bank()
    services.seat_set_connected(table_id=table.pk, player=alice, connected=True, now=DEALT)
    services.seat_set_connected(table_id=table.pk, player=alice, connected=False, now=at(1))

    clock_runs_out(table, now=at(10))

    hand = running_hand(table)
    assert hand.time_bank_seat == 1
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()


def test_r_bet_7_the_snapshot_shows_the_bank_running():
    table, alice, bob = heads_up_with_a_bank()
    clock_runs_out(table, now=at(10))

    mine = selectors.table_snapshot(table.pk, alice, now=at(15))
    theirs = selectors.table_snapshot(table.pk, bob, now=at(15))

    assert mine["hand"]["time_bank_seat"] == 1 and mine["hand"]["ms_left"] == 25_000
    assert mine["viewer"]["time_bank_ms"] == 30_000
    assert mine["hand"]["state"]["legal_actions"]  # still their turn to play
    assert theirs["hand"]["time_bank_seat"] == 1 and theirs["hand"]["ms_left"] == 25_000


def test_r_bet_7_five_seconds_more_on_every_tenth_hand_dealt():
    table, alice, bob = heads_up_with_a_bank()
    assert act(table, alice, "fold", now=at(1)).ok
    assert Seat.objects.get(player=alice).hands_dealt == 1
    Seat.objects.filter(player=alice).update(hands_dealt=9)

    assert services.hand_start(table_id=table.pk, now=at(60)).ok  # alice's 10th hand

    seat = Seat.objects.get(player=alice)
    assert (seat.hands_dealt, seat.time_bank_ms) == (10, 35_000)
    assert bank_ms(bob) == 30_000  # bob's 2nd hand: nothing added


def test_r_bet_7_the_bank_never_grows_past_60_seconds():
    assert time_bank_after_deal(58_000, 20) == 60_000
    assert time_bank_after_deal(60_000, 30) == 60_000
    assert time_bank_after_deal(10_000, 11) == 10_000
    assert time_bank_start_ms(90) == 60_000


def test_r_bet_7_what_is_used_is_gone_and_never_below_nothing():
    assert time_bank_after_use(30_000, 12_000) == 18_000
    assert time_bank_after_use(30_000, 45_000) == 0
    assert time_bank_after_use(30_000, -5) == 30_000


def test_r_bet_7_leaving_and_sitting_down_again_does_not_refill_the_time_bank():
    """Issue #22: Alice used 5.8 s of her 30 s bank, left and sat down again: 24.2 s, not
    30 (what is used is gone, for the day at this table). Another table's bank is its own."""
    table, alice, _bob = heads_up_with_a_bank(30)
    assert clock_runs_out(table, now=at(10)).ok  # her clock ran out: the bank runs
    assert act(table, alice, "fold", now=at(15.8)).ok  # 5.8 s of it used
    assert bank_ms(alice) == 24_200
    assert services.seat_leave(table_id=table.pk, player=alice, now=at(20)).ok

    assert services.seat_take(table_id=table.pk, player=alice, buy_in=table.buy_in, now=at(30)).ok
    assert bank_ms(alice) == 24_200
    other = make_table(time_bank=30)
    assert services.seat_take(table_id=other.pk, player=alice, buy_in=other.buy_in, now=at(31)).ok
    assert Seat.objects.get(player=alice, table=other).time_bank_ms == 30_000


def test_r_bet_7_the_next_day_a_player_sits_down_with_a_full_bank_again():
    table, alice, _bob = heads_up_with_a_bank(30)
    assert clock_runs_out(table, now=at(10)).ok
    assert act(table, alice, "fold", now=at(15.8)).ok
    assert services.seat_leave(table_id=table.pk, player=alice, now=at(20)).ok
    next_day = at(60 * 60 * 24)
    assert services.seat_take(table_id=table.pk, player=alice, buy_in=table.buy_in, now=next_day).ok
    assert bank_ms(alice) == 30_000


def test_r_bet_7_leaving_while_the_bank_runs_keeps_only_what_was_left_of_it():
    """Issue #22: Alice's clock ran out and her bank ran 5.8 s; she left without acting and
    sat down again. At her next turn the bar shows 24.2 s of bank, not a full 30 s again."""
    table, alice, _bob = heads_up_with_a_bank(30)
    assert clock_runs_out(table, now=at(10)).ok  # her clock ran out: the bank runs
    assert services.seat_leave(table_id=table.pk, player=alice, now=at(15.8)).ok

    assert services.seat_take(
        table_id=table.pk, player=alice, buy_in=table.buy_in, seat_number=1, now=at(30)
    ).ok
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=at(40)).ok
    assert engine_of(running_hand(table)).to_act == 1  # her turn, her 10 s clock
    result = clock_runs_out(table, now=at(50))

    [frame] = [f for f in result.frames.table_json if f["type"] == "time_bank"]
    assert (frame["seat"], frame["time_bank_ms"], frame["ms_left"]) == (1, 24_200, 24_200)


def test_r_bet_7_a_table_closed_and_opened_again_the_same_day_does_not_refill_the_bank():
    """Issue #22: the bank is kept on the room's day of the moment the table closed (the
    clock the room was given), whichever way the seat was left."""
    table, alice, _bob = heads_up_with_a_bank(30)
    assert clock_runs_out(table, now=at(10)).ok
    assert act(table, alice, "fold", now=at(15.8)).ok  # 5.8 s of her bank used
    assert services.table_close(table_id=table.pk, now=at(20)).ok  # every seat cashed out
    assert services.table_open(table_id=table.pk, now=at(25)).ok

    assert services.seat_take(table_id=table.pk, player=alice, buy_in=table.buy_in, now=at(30)).ok
    assert bank_ms(alice) == 24_200
