"""manage.py load_demo_tournament: the demo turbo sit-and-go of `make run` and its bots."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services.demo import (
    DEMO_TOURNAMENT_BOTS,
    demo_sit_and_go,
    demo_tournament_bots,
)


class Command(BaseCommand):
    help = (
        "Make sure a demo turbo sit-and-go is taking registrations (it starts when ten are "
        "in: nine bots and you) and that its bots have accounts."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--id", action="store_true", help="print only its id (for scripts)")
        parser.add_argument(
            "--bot-args",
            action="store_true",
            help="print only the bots' --username arguments for run_tournament_bots",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["bot_args"]:
            self.stdout.write(" ".join(f"--username {name}" for name in DEMO_TOURNAMENT_BOTS))
            return
        tournament = demo_sit_and_go()
        demo_tournament_bots()
        if options["id"]:
            self.stdout.write(str(tournament.pk))
            return
        self.stdout.write(
            f"Demo sit-and-go: /tournaments/{tournament.pk}/ (starts when you join the "
            f"{len(DEMO_TOURNAMENT_BOTS)} bots)"
        )
