"""Hand.seat_ids: which Seat row each seat number dealt into a hand is (issue #11).

A running hand gets the rows seated now whose player is the one dealt; finished hands need
none (nothing asks them which row was dealt)."""

from django.db import migrations, models


def seat_rows_of_running_hands(apps, schema_editor):
    Hand = apps.get_model("tables", "Hand")
    Seat = apps.get_model("tables", "Seat")
    for hand in Hand.objects.filter(ended_at__isnull=True):
        seated = {
            (seat.number, seat.player_id): seat.pk
            for seat in Seat.objects.filter(table_id=hand.table_id)
        }
        hand.seat_ids = {
            number: seated[(int(number), int(player_id))]
            for number, player_id in hand.players.items()
            if number not in hand.left_seats and (int(number), int(player_id)) in seated
        }
        hand.save(update_fields=["seat_ids"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0006_hand_players")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="seat_ids",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(seat_rows_of_running_hands, migrations.RunPython.noop),
    ]
