"""Issue #22: a Redis outage during play loses the frames broadcast meanwhile, for good
(tables/services/outbox.py logs them and goes on). The room makes its clients whole without
waiting for them to ask, and does not charge the player to act for the time it could not
reach them (R-TIME-3).

Each test runs the channel layer on a redis-server of its own (tests/room_processes.py),
stops it during play and starts it again on the same port: a restarted Redis keeps nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables import layer_watch, services
from tables.models import Hand, Seat
from tests.consumer_helpers import (
    TableClient,
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seat_of,
    seated_clients,
)
from tests.room_processes import PrivateRedis, private_redis

pytestmark = [pytest.mark.services, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# Generous bounds for a busy two-core machine: these wait for a frame, they time nothing.
FRAME_WITHIN = 20.0


@pytest.fixture
def layer_redis(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[PrivateRedis]:
    """The room's channel layer (Redis pub/sub, as in production) on a Redis of the test's."""
    from tables.services import scheduling

    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)
    with private_redis() as server:
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": server.url, "socket_timeout": None}]},
            }
        }
        yield server


async def _heads_up(time_bank: int = 0) -> tuple[Any, list[TableClient], list[Any]]:
    table = await database_sync_to_async(make_table)(time_bank=time_bank)
    players = [await database_sync_to_async(make_player)() for _ in range(2)]
    clients = await seated_clients(table.pk, players)
    await deal_hand(table.pk)
    return table, clients, players


def _act_first(table_id: int) -> Any:
    """The player to act plays their first offer (from a process whose broadcast fails)."""
    hand = current_hand(table_id)
    assert hand is not None
    engine = engine_of(hand)
    seat = engine.to_act
    offer = engine.legal_actions(seat)[0]
    player_id = hand.players[str(seat)]
    player = Seat.objects.get(table_id=table_id, player_id=player_id).player
    return services.hand_act(
        table_id=table_id,
        player=player,
        expected_seq=hand.seq,
        expected_hand_id=hand.pk,
        kind=offer.kind.value,
        amount=offer.amount,
    )


async def _until_layer_watch_saw(down: bool) -> None:
    """Until the process's watch of its channel layer has seen it down (or up again)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FRAME_WITHIN
    while not layer_watch._watches or any(w.down != down for w in layer_watch._watches.values()):
        assert loop.time() < deadline, "the layer watch never noticed"
        await asyncio.sleep(0.05)


async def test_after_redis_comes_back_every_connection_is_sent_a_snapshot_unasked(
    layer_redis: PrivateRedis,
) -> None:
    """Redis goes down; an action is applied meanwhile and its frames are lost; nobody pings.
    When Redis is back the process sends each of its connections a snapshot: the player now
    to act has his turn, within a probe of the layer's return."""
    table, clients, players = await _heads_up()
    for client in clients:
        await client.drain()
    layer_redis.stop()
    await _until_layer_watch_saw(down=True)
    result = await database_sync_to_async(_act_first)(table.pk)
    assert result.ok, result
    layer_redis.start()

    hand = await database_sync_to_async(current_hand)(table.pk)
    assert hand is not None
    to_act = engine_of(hand).to_act
    seats = [await database_sync_to_async(seat_of)(table.pk, p) for p in players]
    waiting = clients[seats.index(to_act)]
    snapshot = await waiting.wait_for(
        lambda f: f["type"] == "snapshot" and f["hand"]["seq"] == hand.seq, within=FRAME_WITHIN
    )
    assert snapshot["hand"]["state"]["to_act"] == to_act == snapshot["viewer"]["seat"]
    assert snapshot["hand"]["state"]["legal_actions"]
    # The groups were joined again: a frame broadcast now reaches the connection.
    await clients[0].send({"type": "chat", "text": "back"})
    chat = await waiting.wait_for(lambda f: f["type"] == "chat", within=FRAME_WITHIN)
    assert chat["text"] == "back"
    for client in clients:
        await client.close()


async def test_r_time_3_the_clock_of_a_turn_lost_in_an_outage_does_not_run_down_the_time_bank(
    layer_redis: PrivateRedis,
) -> None:
    """The action that gives Bob the turn is applied while Redis is down: his turn frame is
    lost. His clock runs out before he could have known: his 30 s time bank is not started;
    the turn's clock starts again (a `turn_clock` frame for the table, `your_turn` for him)."""
    table, clients, players = await _heads_up(time_bank=30)
    for client in clients:
        await client.drain()
    layer_redis.stop()
    await _until_layer_watch_saw(down=True)
    assert (await database_sync_to_async(_act_first)(table.pk)).ok
    layer_redis.start()
    await _until_layer_watch_saw(down=False)

    hand = await database_sync_to_async(Hand.objects.get)(pk=(await _hand_id(table.pk)))
    to_act = engine_of(hand).to_act
    bob = Seat.objects.filter(table_id=table.pk, number=to_act)
    bank_before = (await database_sync_to_async(bob.get)()).time_bank_ms
    assert hand.action_deadline is not None
    late = hand.action_deadline + timedelta(milliseconds=100)
    timed_out = await database_sync_to_async(services.hand_time_out)(
        hand_id=hand.pk, expected_seq=hand.seq, now=late
    )
    assert timed_out.ok, timed_out

    hand = await database_sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert hand.time_bank_seat is None, "the time bank started for a turn never received"
    assert engine_of(hand).to_act == to_act  # still his turn, nothing played for him
    assert hand.action_deadline == late + timedelta(seconds=table.action_clock)
    assert (await database_sync_to_async(bob.get)()).time_bank_ms == bank_before
    seats = [await database_sync_to_async(seat_of)(table.pk, p) for p in players]
    bob_client = clients[seats.index(to_act)]
    # The turn reaches him: its `your_turn` and `turn_clock` frames, or, when the process's
    # subscriptions are still being made again after the outage (the time-out's frames then
    # reach nobody), the resync's snapshot the process sends once they are, which carries the
    # same turn, offers and restarted deadline (docs/protocol.md "Catching up").
    turn = await bob_client.wait_for(
        lambda f: _gives_the_turn(f, hand.seq, hand.action_deadline), within=FRAME_WITHIN
    )
    if turn["type"] == "your_turn":
        await _until_among(bob_client, "turn_clock")
        clock = next(f for f in bob_client.frames if f["type"] == "turn_clock")
        assert clock["seat"] == to_act and clock["seq"] == hand.seq

    # The next time his clock runs out (the room reached him), his bank starts as usual.
    again = hand.action_deadline + timedelta(milliseconds=100)
    assert (
        await database_sync_to_async(services.hand_time_out)(
            hand_id=hand.pk, expected_seq=hand.seq, now=again
        )
    ).ok
    hand = await database_sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert hand.time_bank_seat == to_act
    for client in clients:
        await client.close()


def _gives_the_turn(frame: dict[str, Any], seq: int, deadline: datetime) -> bool:
    """A `your_turn` at `seq`, or a snapshot of the hand at `seq` with the viewer's offers
    and the turn's restarted deadline."""
    if frame["type"] == "your_turn":
        return frame["seq"] == seq and bool(frame["legal_actions"])
    hand = frame.get("hand") if frame["type"] == "snapshot" else None
    return bool(
        hand
        and hand["seq"] == seq
        and hand["state"]["legal_actions"]
        and datetime.fromisoformat(hand["action_deadline"]) == deadline
    )


async def _hand_id(table_id: int) -> int:
    hand = await database_sync_to_async(current_hand)(table_id)
    assert hand is not None
    return hand.pk


async def _until_among(client: TableClient, frame_type: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FRAME_WITHIN
    while not any(f["type"] == frame_type for f in client.frames):
        assert loop.time() < deadline, f"no {frame_type} frame"
        await client.drain(0.05)
