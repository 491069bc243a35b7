"""Seed RULES.md's "Rake" table (seed 003) as three schedules by stakes range."""

from typing import Any

from django.db import migrations

# (name, min small bet, max small bet, tiers: (min players, max players, amount, every,
# thresholds, cap)), cents.
SCHEDULES: list[tuple[str, int, int, list[tuple[int, int | None, int, int, list[int], int]]]] = [
    (
        "$0.50/$1 and $1/$2",
        50,
        100,
        [(2, 10, 25, 500, [], 100)],
    ),
    (
        "$2/$4 to $10/$20",
        200,
        1000,
        [
            (2, 3, 100, 0, [2000], 100),
            (4, 5, 100, 0, [2000, 4000], 200),
            (6, None, 100, 0, [2000, 4000, 6000], 300),
        ],
    ),
    (
        "$15/$30 and $20/$40",
        1500,
        2000,
        [
            (2, 3, 100, 0, [4000], 100),
            (4, 5, 100, 0, [4000, 7000], 200),
            (6, None, 100, 0, [4000, 7000, 10000], 300),
        ],
    ),
]


def seed(apps: Any, schema_editor: Any) -> None:
    RakeSchedule = apps.get_model("tables", "RakeSchedule")
    RakeTier = apps.get_model("tables", "RakeTier")
    for name, low, high, tiers in SCHEDULES:
        schedule, _ = RakeSchedule.objects.get_or_create(
            name=name, defaults={"min_small_bet": low, "max_small_bet": high}
        )
        if schedule.tiers.exists():
            continue
        for min_players, max_players, amount, every, thresholds, cap in tiers:
            RakeTier.objects.create(
                schedule=schedule,
                min_players=min_players,
                max_players=max_players,
                amount=amount,
                every=every,
                thresholds=thresholds,
                cap=cap,
            )


def unseed(apps: Any, schema_editor: Any) -> None:
    RakeSchedule = apps.get_model("tables", "RakeSchedule")
    RakeSchedule.objects.filter(name__in=[name for name, *_ in SCHEDULES]).delete()


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
