"""manage.py seat_demo_bots: demo bot players at a table of the running room (`make run`).

Creates the bot accounts when missing (with a demo deposit), waits for the room to answer,
then each bot logs in over HTTP and plays over the WebSocket like any player.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots.client import POLICIES, Bot, play_many, wait_for_room
from tables.services.demo import DEMO_BOT_PASSWORD, demo_bot_account


class Command(BaseCommand):
    help = "Seat demo bots at a table of the running room and let them play (Ctrl-C stops)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, default=None, help="default: the first table")
        parser.add_argument("--count", type=int, default=2)
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--policy", choices=POLICIES, default="call")
        parser.add_argument("--password", default=DEMO_BOT_PASSWORD)
        parser.add_argument("--prefix", default="bot")

    def handle(self, *args: Any, **options: Any) -> None:
        table_id = options["table"] or self._first_table()
        bots = []
        for number in range(1, options["count"] + 1):
            username = f"{options['prefix']}{number}"
            demo_bot_account(username, options["password"])
            bots.append(
                Bot(
                    base_url=options["url"],
                    table_id=table_id,
                    username=username,
                    password=options["password"],
                    policy=options["policy"],
                    seed=number,
                )
            )
        self.stdout.write(f"{len(bots)} bots for table {table_id} at {options['url']}")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self._play(bots, options["url"]))

    async def _play(self, bots: list[Bot], url: str) -> None:
        await wait_for_room(url)
        await play_many(bots)

    def _first_table(self) -> int:
        from tables import selectors

        tables = selectors.lobby_rows()
        if not tables:
            raise CommandError("no table: run `manage.py load_demo` first, or pass --table")
        return int(tables[0]["id"])
