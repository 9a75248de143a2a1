"""Every rolled turn names the seed that rolled it (`Turn.seed_index`). For turns rolled
before, the index is found by rolling each turn again from every seed the game has had:
a game that an undo reopened rolled its later turns from a fresh seed."""

import hashlib
import random
from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _dice(seed: str, turn: int, step: int, count: int) -> list[int]:
    # games.rules.rolled.seeded_dice as it was when these turns were rolled.
    label = f":turn:{turn}:roll:{step}".encode()
    rng = random.Random(hashlib.sha256(bytes.fromhex(seed) + label).digest())
    return [rng.randint(1, 6) for _ in range(count)]


def _seed_index(seeds: list[str], number: int, rolls: list[Any], hunts: list[Any]) -> int | None:
    dice = [roll["dice"] for roll in rolls] + [hunt["dice"] for hunt in hunts or ()]
    for index, seed in enumerate(seeds):
        if all(_dice(seed, number, step, len(d)) == list(d) for step, d in enumerate(dice)):
            return index
    return None


def find_seeds(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    Secret = apps.get_model("games", "Secret")
    rolled = Turn.objects.filter(rolls__isnull=False).values_list("game_id", flat=True)
    undone = Game.objects.exclude(undone=[]).values_list("id", flat=True)
    for game in Game.objects.filter(models.Q(id__in=rolled) | models.Q(id__in=undone)):
        seeds = [entry["seed"] for entry in game.earlier_seeds]
        seeds += list(Secret.objects.filter(game=game).values_list("seed", flat=True))
        for turn in Turn.objects.filter(game=game, rolls__isnull=False):
            turn.seed_index = _seed_index(seeds, turn.number, turn.rolls, turn.hunt_rolls)
            turn.save(update_fields=["seed_index"])
        game.undone = [
            entry
            | {
                "seed_index": _seed_index(
                    seeds, entry["number"], entry["rolls"], entry.get("hunt_rolls")
                )
            }
            for entry in game.undone
        ]
        game.save(update_fields=["undone"])


class Migration(migrations.Migration):
    dependencies = [("games", "0013_guess_counts_table")]

    operations = [
        migrations.AddField(
            model_name="turn",
            name="seed_index",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(find_seeds, migrations.RunPython.noop),
    ]
