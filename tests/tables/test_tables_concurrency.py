"""Two processes at one table, on PostgreSQL: the table row lock serialises them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from accounts.models import Player
from tables import services
from tables.models import Seat
from tables.services import scheduling
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table, running_hand, seated_player, stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_task_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline near enough has its task sent by its service; here nothing consumes it."""
    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each thread its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # surfaced by the assertions
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_two_acts_with_the_same_seq_exactly_one_is_applied():
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS)).ok
    seq = running_hand(table).seq

    def bring_in() -> Any:
        return services.hand_act(
            table_id=table.pk, player=bob, expected_seq=seq, kind="bring_in", amount=25
        )

    results = at_once(bring_in, bring_in)

    assert sorted(r.status for r in results) == ["applied", "stale"]
    hand = running_hand(table)
    assert sum(1 for r in results if r.ok) == 1
    assert hand.events.filter(kind="action").count() == 1


def test_two_buy_ins_that_together_exceed_the_balance_one_is_refused():
    """R-BUY-1 at two tables at once: the wallet lock refuses the second; nothing overdrawn."""
    first, second = make_table(), make_table()
    player = PlayerFactory()
    funded(player, 3000)

    results = at_once(
        lambda: services.seat_take(table_id=first.pk, player=player, buy_in=2000),
        lambda: services.seat_take(table_id=second.pk, player=player, buy_in=2000),
    )

    assert sorted(r.status for r in results) == ["applied", "refused"]
    assert [r.error for r in results if not r.ok] == ["insufficient_balance"]
    assert Player.objects.get(pk=player.pk).balance == 1000
    assert Seat.objects.filter(player=player).count() == 1


def test_the_sweep_skips_a_table_another_process_holds():
    """DESIGN.md "Time": rows taken with FOR UPDATE SKIP LOCKED."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from tables.models import Table

    table = make_table()
    seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    past = timezone.now() - timedelta(seconds=30)
    assert services.hand_start(table_id=table.pk, now=past).ok
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table.pk)
            holding.set()
            release.wait(10)

    holder = threading.Thread(target=lambda: (hold(), connection.close()))
    holder.start()
    holding.wait(10)
    try:
        assert services.hand_deadlines_sweep() == 0
    finally:
        release.set()
        holder.join(10)
    assert services.hand_deadlines_sweep() == 1


def test_r_time_3_a_heartbeat_never_waits_for_a_seat_a_table_change_holds():
    """A process's presence heartbeat refreshes many seats in one UPDATE. While a hand's end
    holds one of them (it locks the table, then writes its seats), the beat must not wait for
    it: waiting, taking its locks in its own order, is how a beat and a hand deadlocked (seen
    once in a Daphne log), and PostgreSQL then aborts one of them. The held seat is skipped
    this beat and still named counted; the other is refreshed."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    Seat.objects.filter(table=table).update(connections=1, connected=True, last_seen=None)
    held, beating = threading.Event(), threading.Event()
    seen: list[Any] = []

    def hold_alices_seat() -> None:
        from django.db import transaction

        try:
            with transaction.atomic():
                Seat.objects.select_for_update().get(table=table, player=alice)
                held.set()
                beating.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_alices_seat)
    holder.start()
    assert held.wait(30)
    try:
        seen.append(services.seats_heartbeat(seats={(table.pk, alice.pk), (table.pk, bob.pk)}))
    finally:
        beating.set()
        holder.join(30)

    assert seen == [{(table.pk, alice.pk), (table.pk, bob.pk)}]
    assert Seat.objects.get(player=bob).last_seen is not None
    assert Seat.objects.get(player=alice).last_seen is None  # skipped: refreshed next beat
