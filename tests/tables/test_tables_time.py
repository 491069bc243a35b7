"""The action clock with a controlled clock: R-TIME-1..3, R-SIT-1, the clock task and sweep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.services import all_in_protection_take
from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.tasks import action_clock_expire, deadlines_sweep
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

# 23:50 on 9 March in New York (EDT), already 10 March in UTC.
NY_LATE_EVENING = datetime(2025, 3, 10, 3, 50, tzinfo=UTC)
# ALICE_WINS with seat 2 dealt first: bob's 7c door again brings in.
BOB_FIRST = "2c As 3d Ad 7c Ah 9s 8d Kc 9h 4h Qc 9d 5s Jd 9c Td Ac"


def heads_up(now: datetime):
    """Alice (seat 1) and Bob (seat 2), a hand dealt at `now`; Bob's 7c brings in."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=now).ok
    return table, alice, bob


def clock_runs_out(table, *, at: datetime):
    hand = running_hand(table)
    return services.hand_time_out(hand_id=hand.pk, expected_seq=hand.seq, now=at)


def last_timeout(hand: Hand) -> dict:
    return HandEvent.objects.filter(hand=hand, kind="timeout").order_by("-seq").first().payload


def test_r_time_1_nothing_happens_before_the_deadline():
    table, _, _ = heads_up(NY_LATE_EVENING)
    early = clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=5))
    assert early.error == "not_due"


def test_r_time_1_a_player_who_can_check_checks():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    assert act(table, bob, "bring_in", 25, now=NY_LATE_EVENING).ok
    assert act(table, alice, "call", 25, now=NY_LATE_EVENING).ok  # 4th street: alice's Ah K
    hand = running_hand(table)

    result = clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))

    assert result.ok
    assert last_timeout(hand)["result"] == "check"
    alice.refresh_from_db()
    assert alice.all_ins_used == 0  # a check costs no protection


def test_r_time_1_facing_a_bet_with_protection_left_the_player_is_all_in():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok  # alice faces a bet
    hand = running_hand(table)

    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))

    assert last_timeout(hand)["result"] == "all_in_protection"
    alice.refresh_from_db()
    assert alice.all_ins_used == 1
    hand.refresh_from_db()
    assert hand.ended_at is not None  # nobody left to bet against: dealt out, alice's aces win
    assert engine_of(hand).result.winners == (1,)


def test_r_time_2_after_two_protections_in_a_new_york_day_the_hand_is_folded():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    for _ in range(2):
        assert all_in_protection_take(player_id=alice.pk, now=NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    hand = running_hand(table)

    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))

    assert last_timeout(hand)["result"] == "fold"


def test_r_time_2_the_allowance_is_back_after_new_york_midnight_without_the_reset_task():
    after_midnight = NY_LATE_EVENING + timedelta(minutes=15)  # 00:05 in New York
    table, alice, bob = heads_up(after_midnight)
    for _ in range(2):
        assert all_in_protection_take(player_id=alice.pk, now=NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=after_midnight).ok
    hand = running_hand(table)

    clock_runs_out(table, at=after_midnight + timedelta(seconds=11))

    assert last_timeout(hand)["result"] == "all_in_protection"


def test_r_time_1_a_disconnected_player_is_timed_out_when_the_action_reaches_them():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    services.seat_set_connected(table_id=table.pk, player=alice, connected=False)
    hand = running_hand(table)

    assert act(table, bob, "bring_in", 25, now=NY_LATE_EVENING).ok

    assert last_timeout(hand)["result"] == "all_in_protection"


def test_r_time_3_a_disconnected_player_stays_seated_and_in_the_hand():
    table, alice, _ = heads_up(NY_LATE_EVENING)
    services.seat_set_connected(table_id=table.pk, player=alice, connected=False)
    hand = running_hand(table)
    assert str(1) in hand.players and Seat.objects.get(player=alice).connected is False
    services.seat_set_connected(table_id=table.pk, player=alice, connected=True)
    assert Seat.objects.get(player=alice).connected is True


def test_r_sit_1_a_player_who_times_out_on_two_hands_in_a_row_is_sat_out():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))
    assert Seat.objects.get(player=alice).timeouts_in_a_row == 1
    assert not Seat.objects.get(player=alice).sitting_out
    # Hand 2: the button moves to seat 1, so bob (seat 2) is dealt first and again brings in.
    later = NY_LATE_EVENING + timedelta(minutes=1)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(BOB_FIRST), now=later).ok
    assert act(table, bob, "complete", 100, now=later).ok

    clock_runs_out(table, at=later + timedelta(seconds=11))

    seat = Seat.objects.get(player=alice)
    assert seat.sitting_out and seat.timeouts_in_a_row == 2


def test_r_sit_1_acting_in_time_starts_the_count_again():
    table, alice, bob = heads_up(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))
    later = NY_LATE_EVENING + timedelta(minutes=1)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(BOB_FIRST), now=later).ok
    assert act(table, bob, "complete", 100, now=later).ok

    assert act(table, alice, "fold", now=later).ok

    seat = Seat.objects.get(player=alice)
    assert not seat.sitting_out and seat.timeouts_in_a_row == 0


def test_a_stale_clock_task_does_nothing():
    table, _, bob = heads_up(timezone.now() - timedelta(seconds=30))
    hand = running_hand(table)
    stale_seq = hand.seq
    assert act(table, bob, "bring_in", 25).ok

    assert action_clock_expire(hand.pk, stale_seq) == "stale"
    hand.refresh_from_db()
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()


def test_the_clock_task_at_the_current_seq_applies_r_time_1():
    table, _, _ = heads_up(timezone.now() - timedelta(seconds=30))
    hand = running_hand(table)

    assert action_clock_expire(hand.pk, hand.seq) == "applied"
    assert HandEvent.objects.filter(hand=hand, kind="timeout").exists()


def test_the_sweep_applies_a_deadline_already_passed():
    table, _, _ = heads_up(timezone.now() - timedelta(seconds=30))
    hand = running_hand(table)
    assert hand.action_deadline < timezone.now()

    assert deadlines_sweep() >= 1
    assert HandEvent.objects.filter(hand=hand, kind="timeout", payload__seat=2).exists()
