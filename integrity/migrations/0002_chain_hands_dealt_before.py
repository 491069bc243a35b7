"""Hands dealt before the chain existed join it once, in the order they were dealt."""

from django.db import migrations

from integrity.chain import GENESIS_HASH, at_text, entry_hash_of


def chain_hands_dealt_before(apps, schema_editor):
    Hand = apps.get_model("tables", "Hand")
    FairnessEntry = apps.get_model("integrity", "FairnessEntry")
    previous_hash = GENESIS_HASH
    rows = []
    hands = Hand.objects.order_by("id").values_list("id", "table_id", "started_at", "commitment")
    for index, (hand_id, table_id, started_at, commitment) in enumerate(hands.iterator()):
        fields = {
            "index": index,
            "hand_id": hand_id,
            "table_id": table_id,
            "at": at_text(started_at),
            "commitment": commitment,
            "previous_hash": previous_hash,
        }
        previous_hash = entry_hash_of(**fields)
        rows.append(FairnessEntry(**fields, entry_hash=previous_hash))
    FairnessEntry.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("integrity", "0001_fairness_chain"),
        ("tables", "0011_tournament_tables"),
    ]

    operations = [migrations.RunPython(chain_hands_dealt_before, migrations.RunPython.noop)]
