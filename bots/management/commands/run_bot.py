"""manage.py run_bot: one bot player at one table, over HTTP login and the WebSocket protocol."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bots.client import POLICIES, Bot


class Command(BaseCommand):
    help = "Log in as a player over HTTP and play at a table over the WebSocket protocol."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True)
        parser.add_argument("--password", required=True)
        parser.add_argument("--table", type=int, required=True, help="table id")
        parser.add_argument("--url", default="ws://127.0.0.1:8000", help="the room's address")
        parser.add_argument("--policy", choices=POLICIES, default="call")
        parser.add_argument("--buy-in", type=int, default=None, help="cents; default: posted")
        parser.add_argument("--hands", type=int, default=0, help="stop after N hands (0: never)")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        bot = Bot(
            base_url=options["url"],
            table_id=options["table"],
            username=options["username"],
            password=options["password"],
            policy=options["policy"],
            buy_in=options["buy_in"],
            seed=options["seed"],
        )
        try:
            stats = asyncio.run(bot.play(hands=options["hands"]))
        except KeyboardInterrupt:
            stats = bot.stats
        self.stdout.write(json.dumps(stats.summary(), indent=2))
