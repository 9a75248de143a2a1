"""Each seat's running sum of cells and each game's last roller, so that any process can
resume a game's position in one small query (games/store/sheet.py: `_add_up_position`)."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce


def add_up(apps, schema_editor):  # type: ignore[no-untyped-def]
    Seat = apps.get_model("games", "Seat")
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    for seat in Seat.objects.annotate(total=Coalesce(Sum("cells__value"), 0)).iterator():
        if seat.total:
            Seat.objects.filter(pk=seat.pk).update(cell_sum=seat.total)
    last = Turn.objects.filter(game=OuterRef("pk")).order_by("-number").values("roller")[:1]
    Game.objects.update(last_roller=Subquery(last))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_card_state_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_roller",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="cell_sum",
            field=models.IntegerField(default=0),
        ),
        migrations.RunPython(add_up, migrations.RunPython.noop),
    ]
