from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables, hands and rake"

    def ready(self) -> None:
        from accounts.signals import auto_ante_turned_on
        from tables.receivers import on_auto_ante_turned_on

        auto_ante_turned_on.connect(on_auto_ante_turned_on, dispatch_uid="tables-auto-ante")
