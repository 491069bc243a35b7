"""manage.py load_demo: the demo room of `make run` (idempotent), and the logins to use."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.models import Player
from accounts.two_factor import demo_second_factor
from tables.services.demo import demo_room_load


class Command(BaseCommand):
    help = "Load the demo room (staff, three players, a table per stakes preset); idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--practice-table-id",
            action="store_true",
            help="print only the practice table's id (for scripts)",
        )
        parser.add_argument(
            "--triple-stud-table-id",
            action="store_true",
            help="print only the Triple Stud table's id (for scripts)",
        )
        parser.add_argument(
            "--razz-table-id",
            action="store_true",
            help="print only the Razz practice table's id (for scripts)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        room = demo_room_load()
        if options["practice_table_id"]:
            self.stdout.write(str(room.practice_table_id))
            return
        if options["triple_stud_table_id"]:
            self.stdout.write(str(room.triple_stud_table_id))
            return
        if options["razz_table_id"]:
            self.stdout.write(str(room.razz_table_id))
            return
        second = demo_second_factor(player=Player.objects.get(username=room.staff_username))
        players = ", ".join(room.player_usernames)
        self.stdout.write(
            "\n".join(
                [
                    f"Demo room ready: {room.tables} tables.",
                    f"  staff (admin at /admin/): {room.staff_username} / {room.staff_password}",
                    "    then a one-time password (staff always give one): add the secret "
                    f"{second.secret} to an authenticator app ({second.uri}),",
                    "    or run `manage.py demo_otp_code` for the code of now, or use the "
                    f"recovery code {second.recovery_code} (good once; load_demo puts it back)",
                    f"  players: {players} / {room.player_password}",
                    f"  practice table with two demo bots: /tables/{room.practice_table_id}/",
                    f"  Razz table with two demo bots: /tables/{room.razz_table_id}/",
                    f"  Triple Stud table with two demo bots: /tables/{room.triple_stud_table_id}/",
                ]
            )
        )
