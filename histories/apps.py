from django.apps import AppConfig


class HistoriesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "histories"
    verbose_name = "Hand histories"
