"""manage.py demo_sit_and_go: the demo tournament of `make run` (issue #13).

A turbo Seven Card Stud sit-and-go that starts when 10 have registered: nine bots register
through the API and wait, so it starts as soon as a player joins it from the Tournaments tab;
on two tables, it plays to the merge and to a winner in minutes, the bots following their
seats. When it is over, another one opens. Ctrl-C stops.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bots.client import POLICIES, wait_for_room
from bots.tournament_client import TournamentBot
from tables.services.demo import DEMO_BOT_PASSWORD, demo_bot_account

NAME = "Demo sit-and-go (turbo)"


# Fewer chips than R-TOUR-1's 800, so that the turbo levels bring a winner in minutes.
DEMO_STARTING_CHIPS = 300


def demo_tournament_id(players: int, starting_chips: int = DEMO_STARTING_CHIPS) -> int:
    """The demo tournament open for registration, created when there is none."""
    from tournaments.models import Tournament, TournamentStatus
    from tournaments.services.entries import tournament_create

    found = (
        Tournament.objects.filter(name=NAME, status=TournamentStatus.REGISTERING)
        .order_by("id")
        .values_list("pk", flat=True)
        .first()
    )
    if found is not None:
        return int(found)
    tournament = tournament_create(
        name=NAME,
        staff=None,
        preset="turbo",
        settings={
            "start_when_registered": players,
            "max_players": players,
            "starting_chips": starting_chips,
        },
    )
    return int(tournament.pk)


class Command(BaseCommand):
    help = "Run the demo sit-and-go: bots register and wait for a player to join."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bots", type=int, default=9)
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--policy", choices=POLICIES, default="call")
        parser.add_argument("--password", default=DEMO_BOT_PASSWORD)
        parser.add_argument("--rounds", type=int, default=0, help="0: until stopped")
        parser.add_argument("--starting-chips", type=int, default=DEMO_STARTING_CHIPS)

    def handle(self, *args: Any, **options: Any) -> None:
        usernames = [f"tbot{number}" for number in range(1, options["bots"] + 1)]
        for username in usernames:
            demo_bot_account(username, options["password"])
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self._run(usernames, options))

    async def _run(self, usernames: list[str], options: dict[str, Any]) -> None:
        await wait_for_room(options["url"])
        played = 0
        while not options["rounds"] or played < options["rounds"]:
            tournament_id = await asyncio.to_thread(
                demo_tournament_id, len(usernames) + 1, options["starting_chips"]
            )
            self.stdout.write(f"demo sit-and-go {tournament_id}: the bots register")
            bots = [
                TournamentBot(
                    base_url=options["url"],
                    tournament_id=tournament_id,
                    username=username,
                    password=options["password"],
                    policy=options["policy"],
                    seed=number,
                )
                for number, username in enumerate(usernames)
            ]
            for bot in bots:
                await bot.register()
            results = await asyncio.gather(*(bot.follow() for bot in bots))
            self.stdout.write(
                f"demo sit-and-go {tournament_id} over: "
                + ", ".join(f"{b.username} {r.place}" for b, r in zip(bots, results, strict=True))
            )
            played += 1
