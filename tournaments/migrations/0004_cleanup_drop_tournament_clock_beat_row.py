"""The tournament clock is kept by the room's one clock sweep (its deadline kinds,
tournaments/services/clock.py): beat's own entry for it, `sweep-tournament-clocks`, is gone
from pokerroom/celery.py. django-celery-beat copies the schedule into its table on start but
never deletes a row, so the old one is deleted here (it would send a task no longer
registered every second)."""

from django.db import migrations
from django.utils import timezone

ENTRY = "sweep-tournament-clocks"


def drop_entry(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTasks = apps.get_model("django_celery_beat", "PeriodicTasks")
    if PeriodicTask.objects.filter(name=ENTRY).delete()[0]:
        # Tells a running beat its schedule changed (what the model's own signal does).
        PeriodicTasks.objects.update_or_create(ident=1, defaults={"last_update": timezone.now()})


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tui_merge_tplay_tmoney"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(drop_entry, migrations.RunPython.noop)]
