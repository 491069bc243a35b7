"""R-TOUR-6 (issue #28) in a whole tournament of ten bots playing through the real protocol
in the embedded shape (`make run`'s: one Daphne whose beat runs the clock sweep): the
structure has its break right before the equal-deals level (staff may set it so before the
first hand), and every table must end that level on equal deals or after the room's
one-orbit fallback, read from the hands it dealt (not the room's own counters).

One-minute levels and a one-minute break keep it to a few minutes of real time; deep stacks
keep both tables playing through the level. The bots play until level 5, then stop."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from bots.client import TournamentBot
from stud.tournament import LevelSpec
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD
from tests.room_processes import daphne, room_env
from tests.tournaments.play_helpers import equal_deals_rule_checked
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.entries import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 10
# R-TOUR-8's first levels with the break after level 2 (not 5), at a minute each.
LEVELS = (
    LevelSpec(1, 5, 5, 10, 20, minutes=1),
    LevelSpec(2, 5, 10, 20, 40, minutes=1, break_minutes=1),
    LevelSpec(3, 25, 10, 25, 50, minutes=1, dealer_only_ante=True, equal_deals=True),
    LevelSpec(4, 10, 15, 30, 60, minutes=1),
    LevelSpec(5, 10, 25, 50, 100, minutes=1),
)


async def _equal_deals_timer(tournament_id: int, *, within: float) -> datetime | None:
    """Follow the room's clock until level 5 (or the end): the equal-deals level's timer as
    the room set it when that level began after the break."""
    timer = None

    def clock() -> Tournament:
        return Tournament.objects.get(pk=tournament_id)

    async with asyncio.timeout(within):
        while True:
            t = await asyncio.to_thread(clock)
            if t.level == 3 and t.status == TournamentStatus.RUNNING:
                timer = t.level_ends_at
            if t.level >= 5 or t.status == TournamentStatus.FINISHED:
                return timer
            await asyncio.sleep(0.5)


@pytest.mark.timeout(600)
def test_r_tour_6_ten_bots_after_a_break_each_table_ends_the_equal_deals_level_on_equal_deals():
    tournament = tournament_create(
        name="Equal deals after a break",
        staff=None,
        levels=LEVELS,
        settings={
            "start_when_registered": PLAYERS,
            "starting_chips": 20000,
            "action_clock": 5,
            "time_bank": 0,
        },
    )
    players = [make_player() for _ in range(PLAYERS)]
    env = room_env(TOURNAMENT_SEATING_SECONDS="1")
    with daphne(env) as url:
        bots = [
            TournamentBot(
                base_url=url,
                tournament_id=tournament.pk,
                username=player.username,
                password=PASSWORD,
                policy="random",
                seed=number,
                add_on="never",
            )
            for number, player in enumerate(players)
        ]

        async def run() -> datetime | None:
            playing = [asyncio.create_task(bot.play(timeout=540)) for bot in bots]
            try:
                return await _equal_deals_timer(tournament.pk, within=480)
            finally:
                for task in playing:
                    task.cancel()
                await asyncio.gather(*playing, return_exceptions=True)

        timer = asyncio.run(run())

    assert timer is not None, "the equal-deals level never ran"
    ends = equal_deals_rule_checked(tournament, timer)
    assert len(ends) == 2  # both tables dealt the level through to its end
