"""manage.py load_demo_tournament: the demo tournament of `make run` (idempotent): a turbo
sit-and-go of 10 with 9 demo bots registered, which starts when a player joins."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services.demo import demo_tournament_load


class Command(BaseCommand):
    help = "Open the demo tournament (9 demo bots registered; starts when a player joins)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament-id",
            action="store_true",
            help="print only the tournament's id (for scripts)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        demo = demo_tournament_load()
        if options["tournament_id"]:
            self.stdout.write(str(demo.tournament_id))
            return
        self.stdout.write(
            f"  demo tournament (turbo sit-and-go, {demo.registered} registered, {demo.status}):"
            f" /tournaments/{demo.tournament_id}/ : register as a player and it starts"
        )
