from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The tournament's deadlines (start, level and break ends, idle tables) are kinds of
        # the tables' one clock sweep (DESIGN.md "Time"): registered in every process that
        # loads the app, whichever module it imports first (tables import nothing of ours).
        from accounts.signals import play_break_taken
        from tournaments.services import clock  # noqa: F401
        from tournaments.services.entries import break_unregister

        play_break_taken.connect(break_unregister, dispatch_uid="tournaments-play-break")
        # The browser's types of our socket's frames and commands, among the files
        # `frame_typedefs` writes.
        from tables.realtime.typedefs import register
        from tournaments.typedefs import (
            TOURNAMENT_COMMAND_TYPEDEFS_PATH,
            TOURNAMENT_TYPEDEFS_PATH,
            tournament_command_typedefs_text,
            tournament_typedefs_text,
        )

        register(TOURNAMENT_TYPEDEFS_PATH, tournament_typedefs_text)
        register(TOURNAMENT_COMMAND_TYPEDEFS_PATH, tournament_command_typedefs_text)
