"""Card seats get claim links that can only claim: a seat not claimed yet moves its link's
hash from `key_hash` (which shows the hand) to `claim_hash` (which only claims)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def move_unclaimed_links(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Seat = apps.get_model("games", "Seat")
    unclaimed = Seat.objects.filter(game__kind="cards", computer=False, joined_at__isnull=True)
    for seat in unclaimed.exclude(key_hash=""):
        seat.claim_hash, seat.key_hash = seat.key_hash, ""
        seat.save(update_fields=["claim_hash", "key_hash"])


def move_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Seat = apps.get_model("games", "Seat")
    unclaimed = Seat.objects.filter(game__kind="cards", computer=False, joined_at__isnull=True)
    for seat in unclaimed.exclude(claim_hash=""):
        seat.key_hash, seat.claim_hash = seat.claim_hash, ""
        seat.save(update_fields=["claim_hash", "key_hash"])


class Migration(migrations.Migration):
    dependencies = [("games", "0011_seat_name_key_index")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="claim_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="seat",
            name="claim_sealed",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(move_unclaimed_links, move_back),
    ]
