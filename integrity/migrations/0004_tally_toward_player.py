"""Each player's tally gains "toward": everyone's counts of play toward that player, the
second baseline of the pair signals (issue #25: a signal must also differ from everyone
else's play toward the same partner). Pairs' stored counts hold every directed pair's
quantities, so the totals toward a player are the sum of the pairs' counts toward them. The
pairs' signals are recomputed by the next scan that reads a hand of either player."""

from django.db import migrations

QUANTITIES = (
    "hu_chances",
    "hu_raises",
    "facing",
    "folds_ahead",
    "folds_strong",
    "info_spots",
    "info_used",
)


def toward_from_pairs(apps, schema_editor):
    PairReview = apps.get_model("integrity", "PairReview")
    PlayerTally = apps.get_model("integrity", "PlayerTally")
    toward: dict[int, dict[str, int]] = {}
    for review in PairReview.objects.all().iterator():
        for key, target in (
            ("low>high", review.player_high_id),
            ("high>low", review.player_low_id),
        ):
            counts = review.counts.get(key, {})
            into = toward.setdefault(target, {})
            for quantity in QUANTITIES:
                if counts.get(quantity):
                    into[quantity] = into.get(quantity, 0) + int(counts[quantity])
    for tally in PlayerTally.objects.all().iterator():
        tally.counts["toward"] = toward.get(tally.player_id, {})
        tally.save(update_fields=["counts"])


def drop_toward(apps, schema_editor):
    PlayerTally = apps.get_model("integrity", "PlayerTally")
    for tally in PlayerTally.objects.all().iterator():
        tally.counts.pop("toward", None)
        tally.save(update_fields=["counts"])


class Migration(migrations.Migration):
    dependencies = [("integrity", "0003_signals_and_cases")]

    operations = [migrations.RunPython(toward_from_pairs, drop_toward)]
