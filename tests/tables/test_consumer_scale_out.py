"""Two Daphne processes on the real channel layer (Redis) and PostgreSQL, with a Celery
worker and its beat: players connected to different processes play whole hands together and
every one of them sees every event of a hand, in seq order, without a gap (DESIGN.md: no
table state in a process's memory)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from bots.client import Bot
from tests.consumer_helpers import make_player, make_table
from tests.factories import PASSWORD
from tests.room_processes import celery_worker, daphne, room_env

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _seen(bot: Bot, hand_id: int) -> list[tuple[int, str]]:
    """(seq, kind) of one hand as this bot applied it; a private event and its placeholder
    are the same step."""
    return [
        (f["seq"], "private" if f.get("private") or f["kind"] == "private" else f["kind"])
        for f in bot.events
        if f["hand_id"] == hand_id
    ]


def test_players_on_two_daphne_processes_see_every_event_in_order():
    table = make_table()
    players = [make_player() for _ in range(3)]
    env = room_env(REDIS_URL=os.environ["REDIS_URL"], ROOM_TEST_QUEUE=f"q-{uuid.uuid4().hex}")
    # The worker's beat runs the clock sweep, which deals each next hand.
    with daphne(env) as first, daphne(env) as second, celery_worker(env, beat=True):
        urls = [first, second, first]
        bots = [
            Bot(
                base_url=url,
                table_id=table.pk,
                username=player.username,
                password=PASSWORD,
                seed=number,
                keep_events=True,
            )
            for number, (url, player) in enumerate(zip(urls, players, strict=True))
        ]

        async def play() -> None:
            await asyncio.gather(*(bot.play(hands=2, timeout=60) for bot in bots))

        asyncio.run(play())

    for bot in bots:
        assert bot.stats.hands >= 2
        assert bot.stats.gaps == 0, f"{bot.username} saw a gap"
    # The hands every bot saw from their first event: the same steps in the same order.
    whole = [{f["hand_id"] for f in bot.events if f["seq"] == 1} & bot.hands_ended for bot in bots]
    common = set.intersection(*whole)
    assert common, "no hand was seen whole by all three players"
    for hand_id in common:
        reference = _seen(bots[0], hand_id)
        assert [seq for seq, _ in reference] == list(range(1, len(reference) + 1))
        for bot in bots[1:]:
            assert _seen(bot, hand_id) == reference
