"""manage.py load_demo_tournament: the demo tournaments of `make run` (idempotent): a turbo
Seven Card Stud sit-and-go of 10 with 9 demo bots registered and a Razz one of 6 with 5, each
of which starts when a player joins (tournaments/services/demo.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services.demo import RAZZ_DEMO, STUD_DEMO, demo_tournament_load


class Command(BaseCommand):
    help = (
        "Open the demo tournaments (Stud and Razz, bots registered; a player joining starts one)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament-id",
            action="store_true",
            help="print only the Stud demo tournament's id (for scripts)",
        )
        parser.add_argument(
            "--razz-tournament-id",
            action="store_true",
            help="print only the Razz demo tournament's id (for scripts)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stud = demo_tournament_load(kind=STUD_DEMO)
        razz = demo_tournament_load(kind=RAZZ_DEMO)
        if options["tournament_id"]:
            self.stdout.write(str(stud.tournament_id))
            return
        if options["razz_tournament_id"]:
            self.stdout.write(str(razz.tournament_id))
            return
        for demo, what in ((stud, "turbo sit-and-go"), (razz, "Razz sit-and-go")):
            self.stdout.write(
                f"  demo tournament ({what}, {demo.registered} registered, {demo.status}):"
                f" /tournaments/{demo.tournament_id}/ : register as a player and it starts"
            )
