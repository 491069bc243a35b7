"""Issue #4: a hand in progress survives stopping and starting the room's processes.

Both ways of running: the services shape (PostgreSQL, Redis, a Daphne process and a Celery
worker with its beat) and the embedded shape (one Daphne process on a SQLite file, tasks and
beat on the in-process runner). Two players sit over the WebSocket and a hand is dealt; the
processes are stopped mid-hand, while the clock of the first turn runs, and new ones are
started. A player reconnects and gets a snapshot of the same hand at the same seq (the
database is the authority; nothing was held in the dead processes' memory). Then nobody acts:
the clock the dead process set runs out (its task may be gone with the process: the sweep
applies it), the hand goes on, and the next turn's clock, set by the new processes, runs out on
schedule too: each time-out lands within the table's clock plus the sweep interval.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from typing import Any, TypeVar

import pytest
import websockets
from django.core.cache import cache

from bots.client import ws_url_of
from pokerroom.celery import app as celery_app
from pokerroom.tasks import record_ping
from tables.models import Hand
from tests.consumer_helpers import BUY_IN, make_player, make_table, session_cookie
from tests.room_processes import celery_worker, daphne, room_env

pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")

# Long enough that the first turn's deadline falls after the processes are back (so the
# snapshot still shows the turn), short enough to keep each test under a minute.
ACTION_CLOCK = 8
SWEEP_INTERVAL = celery_app.conf.beat_schedule["sweep-expired-action-clocks"][
    "schedule"
].total_seconds()
# Broadcast, process start-up on a busy two-core machine and the due tolerance.
SLACK = 1.5


class Client:
    """A player's WebSocket: every frame kept with the wall-clock time it arrived."""

    def __init__(self, url: str, table_id: int, cookie: bytes) -> None:
        self.url, self.table_id, self.cookie = url, table_id, cookie.decode()
        self.frames: list[tuple[float, dict[str, Any]]] = []
        self.read = 0
        self.ws: Any = None

    async def connect(self) -> None:
        """Connect as a client coming back does: trying again for a few seconds (a server
        just started may still reset a connection or two)."""
        for attempt in range(10):
            try:
                self.ws = await websockets.connect(
                    ws_url_of(self.url, self.table_id),
                    additional_headers={"Cookie": self.cookie},
                    origin=self.url,  # type: ignore[arg-type]
                    max_size=2**22,
                )
                return
            except (OSError, websockets.exceptions.WebSocketException):
                if attempt == 9:
                    raise
                await asyncio.sleep(0.5)

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def wait_for(
        self, matches: Callable[[dict[str, Any]], bool], *, within: float
    ) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + within
        while True:
            while self.read < len(self.frames):
                arrived, frame = self.frames[self.read]
                self.read += 1
                if matches(frame):
                    return arrived, frame
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching frame; last: {self.frames[-4:]}")
            try:
                text = await asyncio.wait_for(self.ws.recv(), timeout=left)
            except TimeoutError:
                continue
            self.frames.append((time.time(), json.loads(text)))


def _turn(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "event" and frame.get("action_deadline") is not None


def _deadline(frame: dict[str, Any]) -> float:
    return datetime.fromisoformat(frame["action_deadline"]).timestamp()


class LoopThread:
    """An event loop in a thread of its own: the test's clients stay connected while the
    test's own thread stops and starts the room's processes."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


async def _sit_and_wait_for_first_turn(alice: Client, bob: Client) -> dict[str, Any]:
    """Both players sit; the next-hand task deals; returns the first turn's event frame."""
    for client in (alice, bob):
        await client.wait_for(lambda f: f.get("type") == "snapshot", within=10)
        await client.send({"type": "sit", "buy_in": BUY_IN, "ref": "sit"})
        _, sat = await client.wait_for(lambda f: f.get("ref") == "sit", within=10)
        assert sat["ok"], sat
    # R-GAME-3: the hand is dealt after the pause, by the next-hand task.
    _, turn = await alice.wait_for(_turn, within=20)
    return turn


async def _watch_two_time_outs(alice: Client) -> None:
    """Nobody acts: wait for two time-outs and for the hand to go on after them."""
    timeouts = 0
    last_seq = 0
    while timeouts < 2:
        _, frame = await alice.wait_for(
            lambda f: f.get("type") == "event" and f.get("kind") == "timeout",
            within=ACTION_CLOCK + SWEEP_INTERVAL + 15,
        )
        timeouts += 1
        last_seq = frame["seq"]
    await alice.wait_for(
        lambda f: f.get("type") == "event" and f.get("seq", 0) > last_seq, within=10
    )


def _check_schedule(
    snapshot: dict[str, Any], frames: list[tuple[float, dict[str, Any]]], restarted_at: float
) -> None:
    """Each time-out lands within the sweep interval after its deadline (or, for a deadline
    that passed while the room was down, after the room came back). The first deadline is
    the one the stopped process set, as the snapshot shows it."""
    deadline: float | None = _deadline(snapshot["hand"])
    late: list[float] = []
    for arrived, frame in frames:
        if frame.get("type") != "event" or frame.get("hand_id") is None:
            continue
        if frame.get("kind") == "timeout":
            assert deadline is not None, "a time-out without a turn seen"
            assert arrived >= deadline - 0.6, "R-TIME-1 applied before the clock ran out"
            late.append(arrived - max(deadline, restarted_at))
        if _turn(frame):
            deadline = _deadline(frame)
    assert len(late) >= 2, late
    print(f"time-outs applied {[round(x, 2) for x in late]} s after their due time")
    assert all(x <= SWEEP_INTERVAL + SLACK for x in late), late


def _play_restart(
    start_server: Callable[[], AbstractContextManager[str]],
    start_workers: Callable[[], AbstractContextManager[None]],
) -> None:
    """`start_server`: the Daphne process (its URL); `start_workers`: what runs the tasks and
    beat, up and ready when entered (nothing to add in the embedded shape)."""
    table = make_table(action_clock=ACTION_CLOCK)
    players = [make_player(), make_player()]
    cookies = [session_cookie(player) for player in players]
    clients = LoopThread()
    try:
        with start_server() as url, start_workers():
            alice, bob = (Client(url, table.pk, cookie) for cookie in cookies)
            clients.run(alice.connect())
            clients.run(bob.connect())
            turn = clients.run(_sit_and_wait_for_first_turn(alice, bob))
            assert time.time() < _deadline(turn) - 1, "too slow to stop mid-turn"
            # The processes stop here with both players still connected to them.
        hand_id, seq = turn["hand_id"], turn["seq"]
        hand = Hand.objects.get(pk=hand_id)
        assert hand.ended_at is None and hand.seq == seq, "the hand moved while the room stopped"

        with start_server() as url:
            alice = Client(url, table.pk, cookies[0])
            clients.run(alice.connect())
            _, snapshot = clients.run(
                alice.wait_for(lambda f: f.get("type") == "snapshot", within=10)
            )
            with start_workers():
                restarted_at = time.time()
                clients.run(_watch_two_time_outs(alice))
            clients.run(alice.close())
    finally:
        clients.close()
    assert snapshot["hand"]["id"] == hand_id
    assert snapshot["hand"]["seq"] == seq
    assert snapshot["hand"]["state"]["to_act"] == turn["to_act"]
    _check_schedule(snapshot, alice.frames, restarted_at)
    hand.refresh_from_db()
    assert hand.seq > seq + 1


@pytest.mark.services
def test_services_a_hand_survives_restarting_daphne_and_the_worker():
    queue = f"q-{uuid.uuid4().hex}"
    env = room_env(REDIS_URL=os.environ["REDIS_URL"], ROOM_TEST_QUEUE=queue)

    @contextmanager
    def worker() -> Iterator[None]:
        with celery_worker(env, beat=True):
            # Ready when it has run a task of ours (start-up takes seconds on a busy machine).
            token = uuid.uuid4().hex
            record_ping.apply_async(args=(token,), queue=queue)
            deadline = time.monotonic() + 30
            while cache.get(f"ping:{token}") is None:
                assert time.monotonic() < deadline, "the worker never started"
                time.sleep(0.05)
            yield

    _play_restart(lambda: daphne(env), worker)


def test_embedded_a_hand_survives_restarting_the_server():
    """One Daphne process without Redis (on SQLite when the tests are): the in-process runner
    loses the clock task with the process, so the restarted server's beat sweep (which needs
    tables.tasks registered) applies it."""
    env = room_env()
    assert "REDIS_URL" not in env and env["TASKS_RUN_BEAT"] == "1"
    _play_restart(lambda: daphne(env), nullcontext)
