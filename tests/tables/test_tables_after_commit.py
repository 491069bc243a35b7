"""Issue #11: an action that committed is answered as applied, whatever fails after commit.

With Redis down, queueing the next player's clock raised out of the commit into the consumer,
which answered an action already applied and committed as "internal: the room could not do
that", and no clock was set. Now what runs after commit (the broadcast, and the rare task a
service sends itself: a deadline nearer than the clock sweep's horizon, as on these tables
with a 1-second clock) is logged when it fails (tables/services/outbox.py), and the sweep
applies the deadline the lost task would have.
"""

from __future__ import annotations

import importlib
import logging
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from kombu.exceptions import OperationalError

from tables import services
from tables.models import Hand, HandEvent
from tables.services import outbox, scheduling
from tests.consumer_helpers import (
    consumer_test_room,  # noqa: F401 (autouse)
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seated_clients,
    stacked_deck,
)
from tests.table_factories import act, running_hand, seated_player
from tests.table_factories import make_table as make_stud_table
from tests.table_factories import stacked_deck as deck_of
from tests.tables.test_tables_hand_flow import ALICE_WINS

# Real commits: the after-commit callbacks run as they do in the room.
pytestmark = pytest.mark.django_db(transaction=True)

# The module, not the function `tables.services` exports under its name.
broadcasting = importlib.import_module("tables.services.broadcast")

BROKER_DOWN = "Error 111 connecting to 127.0.0.1:6379. Connection refused."


def _broker_down(*_: Any, **__: Any) -> None:
    """What queueing a task raises while Redis is away."""
    raise OperationalError(BROKER_DOWN)


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduling, "task_send_at", _broker_down)


# A clock shorter than the sweep's horizon: each turn's service sends the clock's task itself
# (tables/services/scheduling.py, deadline_send_if_soon), so there is a send to fail.
SHORT_CLOCK = 1


def _heads_up_hand() -> tuple[Any, Any, Any, Hand]:
    """Alice (seat 1) and Bob (seat 2), a hand dealt now; Bob's 7c brings in."""
    table = make_stud_table(action_clock=SHORT_CLOCK)
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    assert services.hand_start(table_id=table.pk, deck=deck_of(ALICE_WINS)).ok
    return table, alice, bob, running_hand(table)


@pytest.mark.usefixtures("no_broker")
def test_an_action_committed_while_the_broker_is_down_is_applied_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table, _alice, bob, hand = _heads_up_hand()

    with caplog.at_level(logging.ERROR, logger="tables.services.outbox"):
        result = act(table, bob, "bring_in", 25)

    assert result.ok and result.status == "applied"
    hand.refresh_from_db()
    assert hand.seq == result.seq
    assert hand.action_deadline is not None  # alice's clock, kept in the database
    assert BROKER_DOWN in caplog.text


@pytest.mark.usefixtures("no_broker")
def test_r_time_1_the_sweep_applies_the_deadline_whose_clock_task_was_lost() -> None:
    table, _alice, bob, hand = _heads_up_hand()
    assert act(table, bob, "bring_in", 25).ok  # alice's clock task could not be queued
    hand.refresh_from_db()

    assert services.hand_deadlines_sweep(now=hand.action_deadline - timedelta(seconds=1)) == 0
    assert services.hand_deadlines_sweep(now=hand.action_deadline + timedelta(seconds=1)) >= 1

    timeout = HandEvent.objects.get(hand=hand, kind="timeout")
    assert timeout.payload["seat"] == 1
    hand.refresh_from_db()
    assert hand.seq > timeout.seq or hand.ended_at is not None


def test_a_failing_broadcast_neither_refuses_the_action_nor_cancels_its_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clocks: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        scheduling, "task_send_at", lambda name, args, *, eta: clocks.append((name, args))
    )
    table, _alice, bob, hand = _heads_up_hand()
    clocks.clear()

    def layer_down(**_: Any) -> None:
        raise ConnectionError("channel layer unreachable")

    monkeypatch.setattr(outbox, "broadcast", layer_down)
    result = act(table, bob, "bring_in", 25)

    assert result.ok
    assert clocks == [("tables.tasks.action_clock_expire", (hand.pk, result.seq))]
    assert Hand.objects.get(pk=hand.pk).action_deadline > hand.action_deadline  # alice's clock


@pytest.mark.asyncio
@pytest.mark.usefixtures("no_broker")
async def test_the_consumer_answers_a_committed_action_applied_with_the_broker_down() -> None:
    table = await database_sync_to_async(make_table)()
    players = [await database_sync_to_async(make_player)() for _ in range(2)]
    clients = dict(enumerate(await seated_clients(table.pk, players), start=1))
    await deal_hand(table.pk, stacked_deck(3))
    hand = await database_sync_to_async(current_hand)(table.pk)
    to_act = engine_of(hand).to_act
    assert to_act is not None
    offers = {offer.kind.value: offer.amount for offer in engine_of(hand).legal_actions(to_act)}
    other = next(seat for seat in clients if seat != to_act)

    reply = await clients[to_act].reply_to(
        {"type": "act", "seq": hand.seq, "kind": "bring_in", "amount": offers["bring_in"]}
    )

    assert reply["type"] == "result", reply
    assert reply["ok"] is True and reply["status"] == "applied"
    assert reply["seq"] == hand.seq + 1
    seen = await clients[other].wait_for(
        lambda f: f["type"] == "event" and f.get("seq") == hand.seq + 1
    )
    assert seen["kind"] == "action" and seen["payload"]["seat"] == to_act
    for client in clients.values():
        await client.close()


class _LayerWithOneStaleConnection:
    """A channel layer after Redis restarted: its first send fails on a connection the
    server closed; the next one opens a new connection and goes through."""

    def __init__(self) -> None:
        self.failures_left = 1
        self.delivered: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.failures_left:
            self.failures_left -= 1
            raise ConnectionError("Connection closed by server.")
        self.delivered.append((group, message))


def test_the_first_broadcast_after_redis_returns_reaches_every_group_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #22 (the outage test's late second time-out): the time-out applied on Redis's
    return carries the next player's turn; lost to a stale connection, that turn waited a
    whole clock more. Tried once more, each group has its frames once, and the hand is not
    marked as having a turn nobody was told of."""
    monkeypatch.setattr(scheduling, "task_send_at", lambda name, args, *, eta: None)
    table, _alice, bob, hand = _heads_up_hand()
    layer = _LayerWithOneStaleConnection()
    monkeypatch.setattr(broadcasting, "get_channel_layer", lambda: layer)

    result = act(table, bob, "bring_in", 25)

    assert result.ok
    groups = [group for group, _message in layer.delivered]
    assert f"table-{table.pk}" in groups
    assert len(groups) == len(set(groups))  # nobody has a frame twice
    assert not Hand.objects.get(pk=hand.pk).turn_unsent
