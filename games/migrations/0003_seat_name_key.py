"""Names are unique within a game as Python compares them (NFKC and case folding), not as
the database's lower() does: the comparison key is stored and constrained instead."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from games.names import name_key

    Seat = apps.get_model("games", "Seat")
    seats = list(Seat.objects.order_by("game_id", "position"))
    taken = set()
    for seat in seats:
        seat.name_key = name_key(seat.name)
        if (seat.game_id, seat.name_key) in taken:
            # Two names an older version let through ("Ana" and fullwidth "Ａｎａ"): both stay.
            seat.name_key += f"#{seat.position}"
        taken.add((seat.game_id, seat.name_key))
    Seat.objects.bulk_update(seats, ["name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_seat_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="name_key",
            field=models.TextField(default=""),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="seat",
            name="seat_name_unique_ci",
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("game", "name_key"), name="seat_name_key_unique"
            ),
        ),
    ]
