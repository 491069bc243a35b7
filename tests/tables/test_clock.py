"""DESIGN.md "Time" (issue #15): a deadline is data; the clock sweep keeps time.

With a controlled clock (`now` given to the services and the sweep): a service that sets a
deadline sends nothing; the sweep sends one task at the exact time of each deadline falling
before the next sweep, carrying the row and its seq, and applies every deadline already
passed; only a deadline nearer than the sweep's horizon has its task sent by its service.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from celery import current_app

from tables import services
from tables.models import HandEvent, Seat, Table, WaitingListEntry
from tables.services import scheduling
from tests.factories import PlayerFactory, funded
from tests.table_factories import act, make_table, play_down, running_hand, seated_player
from tests.table_factories import stacked_deck as deck_of
from tests.tables.test_tables_hand_flow import ALICE_WINS

DEALT = datetime(2025, 6, 2, 18, 0, tzinfo=UTC)
CLOCK = timedelta(seconds=10)  # the tables' action clock (make_table's default)

Sent = list[tuple[str, tuple[Any, ...], datetime]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    """Every task the clock sends (name, arguments, eta), instead of sending it."""
    tasks: Sent = []
    monkeypatch.setattr(
        scheduling,
        "task_send_at",
        lambda name, args, *, eta: tasks.append((name, tuple(args), eta)),
    )
    return tasks


def heads_up(*, time_bank: int = 0):
    """Alice (seat 1) and Bob (seat 2), a hand dealt at DEALT; Bob's 7c brings in."""
    table = make_table(time_bank=time_bank)
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk, deck=deck_of(ALICE_WINS), now=DEALT).ok
    return table, alice, bob


@pytest.mark.django_db(transaction=True)
def test_a_hand_where_everyone_acts_in_time_sends_no_task(monkeypatch) -> None:
    """No task per turn: a four-handed hand played down (20 actions), every after-commit job
    run for real, sends nothing to the broker: each turn's deadline is only stored. (Before
    issue #15 it sent 21: a clock task for each of the 20 turns set and the next hand's
    start.)"""
    names: Counter[str] = Counter()
    monkeypatch.setattr(current_app, "send_task", lambda name, *a, **kw: names.update([name]))
    table = make_table()
    players = {number: seated_player(table, seat_number=number) for number in (1, 2, 3, 4)}
    assert services.hand_start(table_id=table.pk).ok

    hand = play_down(table, players)

    assert HandEvent.objects.filter(hand=hand, kind="action").count() >= 8
    assert names == Counter()


@pytest.mark.django_db
def test_r_bet_7_the_sweep_sends_one_task_at_the_exact_deadline_falling_before_the_next(
    sent: Sent,
) -> None:
    table, _alice, _bob = heads_up()
    hand = running_hand(table)
    deadline = DEALT + CLOCK
    assert hand.action_deadline == deadline

    assert services.hand_deadlines_sweep(now=deadline - timedelta(seconds=5)) == 0
    assert sent == []  # five seconds away: a later sweep's
    assert services.hand_deadlines_sweep(now=deadline - timedelta(milliseconds=400)) == 0

    assert sent == [(scheduling.ACTION_CLOCK_EXPIRE, (hand.pk, hand.seq), deadline)]
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()


@pytest.mark.django_db
def test_r_time_1_the_sweep_applies_a_deadline_already_passed_and_sends_nothing_for_it(
    sent: Sent,
) -> None:
    table, _alice, _bob = heads_up()
    hand = running_hand(table)

    applied = services.hand_deadlines_sweep(now=DEALT + CLOCK + timedelta(milliseconds=100))

    assert applied == 1
    assert HandEvent.objects.get(hand=hand, kind="timeout").payload["seat"] == 2
    hand.refresh_from_db()
    # Bob timed out: alice's turn now, with a deadline 10 s later, not yet near.
    assert hand.action_deadline == DEALT + CLOCK + timedelta(milliseconds=100) + CLOCK
    assert sent == []


@pytest.mark.django_db
def test_the_task_a_sweep_sent_finds_the_turn_answered_and_does_nothing(sent: Sent) -> None:
    table, _alice, bob = heads_up()
    hand = running_hand(table)
    services.hand_deadlines_sweep(now=DEALT + CLOCK - timedelta(milliseconds=300))
    [(_name, (hand_id, seq), eta)] = sent
    assert act(table, bob, "bring_in", 25, now=DEALT + CLOCK - timedelta(milliseconds=200)).ok

    late = services.hand_time_out(hand_id=hand_id, expected_seq=seq, now=eta)

    assert late.status == "stale"
    assert not HandEvent.objects.filter(hand=hand, kind="timeout").exists()


@pytest.mark.django_db
def test_r_game_3_the_sweep_schedules_the_next_hand_at_its_time_and_deals_it_when_passed(
    sent: Sent,
) -> None:
    table = make_table()
    seated_player(table, seat_number=1)
    player = PlayerFactory()
    funded(player, 10_000)
    assert services.seat_take(table_id=table.pk, player=player, buy_in=2000, now=DEALT).ok
    at = Table.objects.get(pk=table.pk).next_hand_at
    assert at == DEALT + timedelta(seconds=3)
    assert sent == []  # the service only stored it

    services.hand_deadlines_sweep(now=at - timedelta(seconds=1))
    assert sent == [(scheduling.HAND_START_NEXT, (table.pk,), at)]

    assert services.hand_deadlines_sweep(now=at) == 1
    assert running_hand(table).started_at == at


@pytest.mark.django_db
def test_a_seat_offer_is_scheduled_by_the_sweep_at_its_end(sent: Sent) -> None:
    table = make_table(seats=2)
    alice = seated_player(table)
    seated_player(table)
    carol = PlayerFactory()
    funded(carol, 5000)
    assert services.waiting_list_join(table_id=table.pk, player=carol).ok
    assert services.seat_leave(table_id=table.pk, player=alice, now=DEALT).ok
    entry = WaitingListEntry.objects.get(player=carol)
    assert entry.offered_until == DEALT + timedelta(seconds=60)
    assert sent == []

    services.hand_deadlines_sweep(now=entry.offered_until - timedelta(milliseconds=500))

    assert sent == [(scheduling.WAITING_LIST_OFFER_EXPIRE, (entry.pk,), entry.offered_until)]


@pytest.mark.django_db
def test_r_bet_7_a_time_bank_shorter_than_a_sweep_has_its_task_sent_by_the_service(
    sent: Sent, django_capture_on_commit_callbacks
) -> None:
    """The case the sweep cannot catch: a deadline set between two sweeps that falls before
    the next one. Its service sends the task itself, at the exact time."""
    table, alice, bob = heads_up(time_bank=1)
    Seat.objects.filter(player=alice).update(time_bank_ms=400)
    assert act(table, bob, "complete", 100, now=DEALT).ok  # alice's clock: DEALT + 10 s
    hand = running_hand(table)
    clock_end = DEALT + CLOCK

    with django_capture_on_commit_callbacks(execute=True):
        bank = services.hand_time_out(hand_id=hand.pk, expected_seq=hand.seq, now=clock_end)

    assert bank.ok
    bank_end = clock_end + timedelta(milliseconds=400)
    assert sent == [(scheduling.ACTION_CLOCK_EXPIRE, (hand.pk, hand.seq), bank_end)]


@pytest.mark.django_db
def test_an_action_clock_of_the_usual_length_is_left_to_the_sweep(
    sent: Sent, django_capture_on_commit_callbacks
) -> None:
    table, _alice, bob = heads_up()
    with django_capture_on_commit_callbacks(execute=True):
        assert act(table, bob, "bring_in", 25, now=DEALT).ok
    assert sent == []


@pytest.mark.django_db
def test_a_table_the_browser_tests_hold_is_left_alone_by_the_sweep_until_released(
    sent: Sent, settings, tmp_path
) -> None:
    """The browser tests' hold (scheduling.sweep_hold): a held table's passed clock is not
    applied and its near one gets no task; another table's is; released, it is applied."""
    held, _alice, _bob = heads_up()
    other, _carol, _dan = heads_up()
    hold = tmp_path / "hold"
    hold.write_text(f"{held.pk}\n")
    settings.CLOCK_SWEEP_TEST_HOLD_FILE = str(hold)
    settings.DEBUG = True

    services.hand_deadlines_sweep(now=DEALT + CLOCK - timedelta(milliseconds=300))
    assert [hand_id for _name, (hand_id, _seq), _eta in sent] == [running_hand(other).pk]
    assert services.hand_deadlines_sweep(now=DEALT + CLOCK + timedelta(milliseconds=100)) == 1
    assert not HandEvent.objects.filter(hand=running_hand(held), kind="timeout").exists()
    assert HandEvent.objects.filter(hand=running_hand(other), kind="timeout").exists()

    hold.write_text("")
    assert services.hand_deadlines_sweep(now=DEALT + CLOCK + timedelta(milliseconds=200)) == 1
    assert HandEvent.objects.filter(hand=running_hand(held), kind="timeout").exists()


@pytest.mark.django_db
def test_the_hold_is_ignored_with_debug_off_as_in_production(sent: Sent, settings, tmp_path):
    """A settings module that named a hold file by mistake holds nothing with DEBUG off."""
    table, _alice, _bob = heads_up()
    hold = tmp_path / "hold"
    hold.write_text(f"{table.pk}\n")
    settings.CLOCK_SWEEP_TEST_HOLD_FILE = str(hold)
    settings.DEBUG = False

    assert services.hand_deadlines_sweep(now=DEALT + CLOCK + timedelta(seconds=1)) == 1
    assert HandEvent.objects.filter(hand=running_hand(table), kind="timeout").exists()


def test_the_rooms_own_settings_name_no_hold_file() -> None:
    """Only tests/browser/server_settings.py names one: production cannot hold a table."""
    import pokerroom.settings

    assert not hasattr(pokerroom.settings, "CLOCK_SWEEP_TEST_HOLD_FILE")
