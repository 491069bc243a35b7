"""manage.py tournament_bots: bot players in a tournament of the running room.

    manage.py tournament_bots --tournament 3 --count 9     # register tbot1..9 and play it
    manage.py tournament_bots --demo                        # `make run`: the demo tournaments

Each bot logs in over HTTP, registers over the API (already registered is fine), waits on the
tournament's socket for the draw, plays at its table over the WebSocket protocol, follows its
moves to other tables and stops when it is out or the tournament is over. It buys the
add-on over the API (`POST /api/tournaments/<id>/add-on/`) by `--add-on`: `short` (the
default) while it is open and the bot's stack is at or below the starting stack, `always` as
soon as it is offered, `never`. The bot accounts are made (and funded) when missing. `--demo`
plays each demo tournament (tournaments.services.demo: the Stud turbo with tbot1..9, the Razz
one with rtbot1..5) at the same time, each in its own thread, and the next one of its kind
when it is over, until stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots.client import ADD_ON_POLICIES, POLICIES, TournamentBot, play_tournament, wait_for_room
from tables.services.demo import DEMO_BOT_PASSWORD, demo_bot_account

if TYPE_CHECKING:
    from tournaments.services.demo import DemoKind

logger = logging.getLogger(__name__)

# Seconds between two demo tournaments: the finished one's results stay on screen a while.
DEMO_NEXT_AFTER = 5.0


class Command(BaseCommand):
    help = "Register bots for a tournament of the running room and let them play it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, default=None, help="tournament id")
        parser.add_argument(
            "--demo",
            action="store_true",
            help="play the demo tournament, and the next one after it ends, until stopped",
        )
        parser.add_argument(
            "--count", type=int, default=None, help="bots (default 9; --demo: each its own)"
        )
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument(
            "--policy",
            choices=POLICIES,
            default="random",
            help="random (the default) raises often, so a tournament is over sooner",
        )
        parser.add_argument(
            "--add-on",
            choices=ADD_ON_POLICIES,
            default="short",
            help="when a bot buys the add-on (R-TOUR-1): short (the default) once its stack "
            "is at or below the starting stack, always as soon as it is offered, or never",
        )
        parser.add_argument("--password", default=DEMO_BOT_PASSWORD)
        parser.add_argument(
            "--prefix", default="tbot", help="bot names (--demo: each tournament's own)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["demo"] == (options["tournament"] is not None):
            raise CommandError("name a --tournament, or play the --demo one")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(wait_for_room(options["url"]))
            if options["demo"]:
                self._demo(options)
            else:
                count = options["count"] or 9
                usernames = [f"{options['prefix']}{n}" for n in range(1, count + 1)]
                for username in usernames:
                    demo_bot_account(username, options["password"])
                self._play(options["tournament"], usernames, options)

    def _demo(self, options: dict[str, Any], rounds: int | None = None) -> None:
        """Every demo tournament at once, each in its own thread; `rounds`: how many of each
        (None: until stopped)."""
        from tournaments.services.demo import DEMO_KINDS

        threads = [
            threading.Thread(target=self._demo_rounds, args=(kind, options, rounds), daemon=True)
            for kind in DEMO_KINDS
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _demo_rounds(self, kind: DemoKind, options: dict[str, Any], rounds: int | None) -> None:
        """One demo tournament after another of this kind."""
        from tournaments.services.demo import demo_tournament_load

        played = 0
        while rounds is None or played < rounds:
            played += 1
            try:
                demo = demo_tournament_load(kind=kind)
                self._play(demo.tournament_id, list(demo.bot_usernames), options)
            except Exception as failed:  # the demo goes on: the next round starts afresh
                logger.exception("demo tournament bots (%s): %s", kind.name, failed)
            if rounds is None or played < rounds:
                time.sleep(DEMO_NEXT_AFTER)

    def _play(self, tournament_id: int, usernames: list[str], options: dict[str, Any]) -> None:
        bots = [
            TournamentBot(
                base_url=options["url"],
                tournament_id=tournament_id,
                username=username,
                password=options["password"],
                policy=options["policy"],
                seed=number,
                add_on=options["add_on"],
            )
            for number, username in enumerate(usernames, start=1)
        ]
        self.stdout.write(
            f"{len(bots)} bots in tournament {tournament_id} at {options['url']}", ending="\n"
        )
        self.stdout.flush()
        results = asyncio.run(play_tournament(bots))
        for bot, result in zip(bots, results, strict=True):
            self.stdout.write(json.dumps({"bot": bot.username, **result.summary()}))
        self.stdout.flush()
