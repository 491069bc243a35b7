"""The action clock with a controlled clock: R-TIME-1..3, R-SIT-1, the clock task and sweep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.services import all_in_protection_take
from tables import selectors, services
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


def connection(table, player, *, at: datetime, open_: bool):
    return services.seat_set_connected(table_id=table.pk, player=player, connected=open_, now=at)


def reload_page(table, player, *, at: datetime) -> None:
    """A reload: the page's connection closes, a new one opens half a second later."""
    assert connection(table, player, at=at, open_=False).ok
    assert connection(table, player, at=at + timedelta(milliseconds=500), open_=True).ok


def heads_up_connected(now: datetime):
    """heads_up, both players with their page open (one connection each)."""
    table, alice, bob = heads_up(now)
    for player in (alice, bob):
        assert connection(table, player, at=now, open_=True).ok
    return table, alice, bob


def test_r_time_3_a_player_whose_last_connection_closes_on_their_turn_keeps_the_turn():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok  # alice faces a bet
    hand = running_hand(table)
    seq, deadline = hand.seq, hand.action_deadline

    closed = connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)

    assert closed.ok
    hand.refresh_from_db()
    assert hand.seq == seq and hand.action_deadline == deadline and hand.timed_out_seats == []
    assert engine_of(hand).to_act == 1
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()
    early = clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=9))
    assert early.error == "not_due"
    alice.refresh_from_db()
    assert alice.all_ins_used == 0  # no protection spent on a drop


def test_r_time_3_reconnecting_within_the_clock_finds_the_turn_still_theirs():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)
    back = NY_LATE_EVENING + timedelta(seconds=3)
    assert connection(table, alice, at=back, open_=True).ok

    snapshot = selectors.table_snapshot(table.pk, alice, now=back)

    assert snapshot["hand"]["state"]["to_act"] == 1
    assert snapshot["hand"]["ms_left"] == 7000  # the 10 s clock, 3 s of it gone
    offered = {offer["kind"] for offer in snapshot["hand"]["state"]["legal_actions"]}
    assert {"call", "fold"} <= offered
    assert act(table, alice, "call", 100, now=back).ok  # and it is still theirs to play


def test_r_time_1_a_disconnected_player_facing_a_bet_is_all_in_when_the_clock_runs_out():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)
    hand = running_hand(table)

    assert clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11)).ok

    assert last_timeout(hand)["result"] == "all_in_protection"
    alice.refresh_from_db()
    assert alice.all_ins_used == 1


def test_r_time_1_a_disconnected_player_who_can_check_checks_when_the_clock_runs_out():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "bring_in", 25, now=NY_LATE_EVENING).ok
    assert act(table, alice, "call", 25, now=NY_LATE_EVENING).ok  # 4th street: alice first
    connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)
    hand = running_hand(table)
    assert engine_of(hand).to_act == 1

    assert clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11)).ok

    assert last_timeout(hand)["result"] == "check"
    hand.refresh_from_db()
    assert engine_of(hand).to_act == 2  # one check, not the hand played to the river


def test_r_time_1_a_disconnected_player_with_no_protection_left_is_folded():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    for _ in range(2):
        assert all_in_protection_take(player_id=alice.pk, now=NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)
    hand = running_hand(table)

    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))

    assert last_timeout(hand)["result"] == "fold"


def test_r_time_3_a_disconnected_player_stays_seated_and_in_the_hand():
    table, alice, _ = heads_up(NY_LATE_EVENING)
    services.seat_set_connected(table_id=table.pk, player=alice, connected=False)
    hand = running_hand(table)
    assert str(1) in hand.players and Seat.objects.get(player=alice).connected is False
    services.seat_set_connected(table_id=table.pk, player=alice, connected=True)
    assert Seat.objects.get(player=alice).connected is True


def test_r_sit_1_one_reload_on_each_of_two_hands_never_sits_the_player_out():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    reload_page(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1))
    assert act(table, alice, "fold", now=NY_LATE_EVENING + timedelta(seconds=2)).ok
    later = NY_LATE_EVENING + timedelta(minutes=1)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(BOB_FIRST), now=later).ok
    assert act(table, bob, "complete", 100, now=later).ok

    reload_page(table, alice, at=later + timedelta(seconds=1))
    assert act(table, alice, "fold", now=later + timedelta(seconds=2)).ok

    seat = Seat.objects.get(player=alice)
    assert not seat.sitting_out and seat.timeouts_in_a_row == 0
    alice.refresh_from_db()
    assert alice.all_ins_used == 0


def test_r_sit_1_one_time_out_while_disconnected_does_not_sit_the_player_out():
    table, alice, bob = heads_up_connected(NY_LATE_EVENING)
    assert act(table, bob, "complete", 100, now=NY_LATE_EVENING).ok
    connection(table, alice, at=NY_LATE_EVENING + timedelta(seconds=1), open_=False)

    clock_runs_out(table, at=NY_LATE_EVENING + timedelta(seconds=11))

    seat = Seat.objects.get(player=alice)
    assert seat.timeouts_in_a_row == 1 and not seat.sitting_out


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
