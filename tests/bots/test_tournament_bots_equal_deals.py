"""R-TOUR-6 (issue #28) in a whole tournament of ten bots playing through the real protocol
in the embedded shape (`make run`'s: one Daphne whose beat runs the clock sweep): the
structure has its break right before the equal-deals level (staff may set it so before the
first hand), and every table must end that level on equal deals or after the room's
one-orbit fallback, read from the hands it dealt (not the room's own counters).

One-minute levels and a one-minute break keep it to three minutes of real time; deep stacks
keep both tables playing through the level. The bots play until the next level, then stop."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from bots.client import TournamentBot
from stud.tournament import LevelSpec
from tables.models import Hand
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD
from tests.room_processes import daphne, room_env
from tests.tournaments.play_helpers import equal_deals_ends, equal_deals_rule_checked
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.entries import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 10
# The equal-deals level (R-TOUR-8's level 3: dealer-only ante, equal deals) right after a
# break, at a minute each: the shape the checker found broken (break after level 2), with the
# levels before the break cut to one so the run takes three minutes, not six.
LEVELS = (
    LevelSpec(1, 5, 5, 10, 20, minutes=1, break_minutes=1),
    LevelSpec(2, 25, 10, 25, 50, minutes=1, dealer_only_ante=True, equal_deals=True),
    LevelSpec(3, 10, 15, 30, 60, minutes=1),
)
EQUAL_DEALS_LEVEL = 2


def _level_over_at(tournament: Tournament) -> bool:
    """Every table that dealt the equal-deals level has dealt past it (there or, merged, at
    the final table): each one's end of the level can be read from its hands."""
    dealt_there = set(
        Hand.objects.filter(
            table__tournament_table__tournament=tournament, state__config__dealer_only_ante=True
        ).values_list("table_id", flat=True)
    )
    return len(equal_deals_ends(tournament)) >= len(dealt_there) > 0


async def _equal_deals_timer(tournament_id: int, *, within: float) -> datetime | None:
    """Follow the room's clock until every table has dealt past the equal-deals level (or
    the end): that level's timer as the room set it when the level began after the break."""
    timer = None

    def clock() -> Tournament:
        return Tournament.objects.get(pk=tournament_id)

    async with asyncio.timeout(within):
        while True:
            t = await asyncio.to_thread(clock)
            if t.level == EQUAL_DEALS_LEVEL and t.status == TournamentStatus.RUNNING:
                timer = t.level_ends_at
            if t.status == TournamentStatus.FINISHED:
                return timer
            if t.level > EQUAL_DEALS_LEVEL and await asyncio.to_thread(_level_over_at, t):
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
