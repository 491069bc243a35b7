"""Bots in a tournament (issue #13): they register through the API, the tournament starts
itself when enough have registered ("starts when N registered"), the draw seats them, and
each plays at the table it is given over the WebSocket protocol until it is out or has won.
Against a real Daphne in the embedded mode with its beat on: the tournament's sweep, the
deals and the clocks all run inside it."""

from __future__ import annotations

import asyncio

import pytest

from bots.tournament_client import TournamentBot
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD
from tests.room_processes import daphne, room_env
from tournaments.models import Tournament, TournamentEntry
from tournaments.services.entries import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_bots_register_play_the_tournament_out_and_each_gets_a_place():
    tournament = tournament_create(
        name="Bot sit and go",
        staff=None,
        preset="turbo",
        settings={"starting_chips": 30, "start_when_registered": 4, "min_players": 2},
    )
    players = [make_player() for _ in range(4)]
    env = room_env()
    env["TASKS_RUN_BEAT"] = "1"  # the tournament's sweep starts it and keeps it going
    with daphne(env) as url:
        bots = [
            TournamentBot(
                base_url=url,
                tournament_id=tournament.pk,
                username=player.username,
                password=PASSWORD,
                policy="random",
                seed=number,
            )
            for number, player in enumerate(players)
        ]

        async def run() -> list[object]:
            for bot in bots:
                await bot.register()
            return await asyncio.gather(
                *(bot.follow(timeout=240) for bot in bots), return_exceptions=True
            )

        outcomes = asyncio.run(run())

    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    places = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", "place")
    )
    for bot in bots:
        # Its table from the draw's notice, or from the snapshot when it connected later.
        assert bot.result.tables, f"{bot.username} never played"
        assert bot.result.place == places[bot.player_id]
    assert 1 in places.values()
