"""manage.py run_tournament_bots: bot players register for a tournament and play it out."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bots.client import POLICIES, wait_for_room
from bots.tournament_client import TournamentBot


class Command(BaseCommand):
    help = (
        "Log in as each player, register for the tournament through the API, and play at "
        "the tables the tournament gives them (following every move) until out."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, required=True, help="tournament id")
        parser.add_argument("--username", action="append", required=True, help="repeatable")
        parser.add_argument("--password", required=True, help="the bots' common password")
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the room's address")
        parser.add_argument("--policy", choices=POLICIES, default="call")

    def handle(self, *args: Any, **options: Any) -> None:
        bots = [
            TournamentBot(
                base_url=options["url"],
                tournament_id=options["tournament"],
                username=username,
                password=options["password"],
                policy=options["policy"],
                seed=number,
            )
            for number, username in enumerate(options["username"])
        ]

        async def run() -> list[Any]:
            await wait_for_room(options["url"])  # `make run` starts the bots with the room
            for bot in bots:
                await bot.register()
            return await asyncio.gather(*(bot.follow() for bot in bots))

        try:
            results = asyncio.run(run())
        except KeyboardInterrupt:
            results = [bot.result for bot in bots]
        summary = {
            bot.username: {"place": result.place, "prize": result.prize, "tables": result.tables}
            for bot, result in zip(bots, results, strict=True)
        }
        self.stdout.write(json.dumps(summary, indent=2))
