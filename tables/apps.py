from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables, hands and rake"

    def ready(self) -> None:
        from accounts.signals import auto_ante_turned_on, play_break_taken
        from tables.receivers import on_auto_ante_turned_on, on_play_break_taken

        auto_ante_turned_on.connect(on_auto_ante_turned_on, dispatch_uid="tables-auto-ante")
        play_break_taken.connect(on_play_break_taken, dispatch_uid="tables-play-break")
