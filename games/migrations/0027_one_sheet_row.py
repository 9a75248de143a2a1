"""Every kind's sheet row is the same row, and the move log says what the store knows of each
move, so that one store path writes both for every kind:

- a row (`Turn`) keeps what every kind has (its number, the seat it is about, what kind of
  row it is, which seed was current, whether the computer played it) and the kind's own
  words for it in `data`: a dice turn's total, hunt, target, healing, victim and, for a turn
  the app rolled, its rolls. A card deal's row has no total of 0 any more: its `data` is
  empty.
- a move (`Move`) names the row it closed in a column of its own (`row`, until now the dice
  moves' `"row"` key) and whether the computer made it (`by_computer`). A card game's moves
  are taken to be the computer's where the computer holds the seat now: no earlier record
  says more.
- a game no longer keeps its last roller or where its turn in progress starts: the store's
  state says both. It counts the moves its log keeps marked undone (`undone_moves`, until now
  `undone_rolled`, which counted only rolled turns), so that a page reads them only where
  there are any.

Going back writes the columns again from `data` and the log.
"""

from collections.abc import Iterable, Iterator
from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

DICE_FIELDS = ("total", "hunt", "target", "heal", "victim")
CHUNK = 500


def _chunks(queryset: Any) -> Iterator[list[Any]]:
    """The rows, a chunk at a time: each chunk is written while the next is read, which a
    cursor left open over the same table would not allow on SQLite."""
    ids = list(queryset.order_by("id").values_list("id", flat=True))
    for start in range(0, len(ids), CHUNK):
        yield list(queryset.model.objects.filter(id__in=ids[start : start + CHUNK]).order_by("id"))


def _turn_data(turn: Any) -> dict[str, Any]:
    data = {field: getattr(turn, field) for field in DICE_FIELDS}
    if turn.rolls is not None:
        data |= {"rolls": turn.rolls, "hunt_rolls": turn.hunt_rolls or []}
    return data


def forward(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    dice_games = Game.objects.filter(kind="dice").values_list("id", flat=True)
    for turns in _chunks(Turn.objects.filter(game_id__in=dice_games)):
        for turn in turns:
            turn.data = _turn_data(turn)
        Turn.objects.bulk_update(turns, ["data"])
    computer_rows = set(
        Turn.objects.filter(by_computer=True).values_list("game_id", "number")
    )
    for moves in _chunks(Move.objects.filter(game_id__in=dice_games)):
        for move in moves:
            move.row = move.data.pop("row", None)
            move.by_computer = (move.game_id, move.row) in computer_rows and "rolls" in move.data
        Move.objects.bulk_update(moves, ["row", "data", "by_computer"])
    for seat in Seat.objects.filter(computer=True).exclude(game__kind="dice"):
        Move.objects.filter(game_id=seat.game_id, seat=seat.position).update(by_computer=True)
    for game_id in Move.objects.filter(undone_at__isnull=False).values_list("game_id", flat=True).distinct():
        count = Move.objects.filter(game_id=game_id, undone_at__isnull=False).count()
        Game.objects.filter(pk=game_id).update(undone_moves=count)


def backward(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    Move = apps.get_model("games", "Move")
    for turns in _chunks(Turn.objects.all()):
        for turn in turns:
            data = turn.data or {}
            turn.total = data.get("total") or 0
            turn.hunt, turn.target = data.get("hunt"), data.get("target")
            turn.heal, turn.victim = bool(data.get("heal")), data.get("victim")
            turn.rolls, turn.hunt_rolls = data.get("rolls"), data.get("hunt_rolls")
        Turn.objects.bulk_update(turns, [*DICE_FIELDS, "rolls", "hunt_rolls"])
    dice_games = Game.objects.filter(kind="dice").values_list("id", flat=True)
    for moves in _chunks(Move.objects.filter(game_id__in=dice_games, row__isnull=False)):
        for move in moves:
            move.data = {**move.data, "row": move.row}
        Move.objects.bulk_update(moves, ["data"])
    for game in Game.objects.all():
        game.last_roller = (
            Turn.objects.filter(game=game).order_by("-number").values_list("roller", flat=True).first()
        )
        live = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")
        closed = live.filter(row__isnull=False).values_list("number", flat=True).last()
        after = live.filter(number__gt=closed or 0) if game.kind == "dice" else live.none()
        game.rolling_from = after.values_list("number", flat=True).first()
        game.undone_moves = Move.objects.filter(
            game=game, undone_at__isnull=False, data__has_key="rolls"
        ).count()
        game.save(update_fields=["last_roller", "rolling_from", "undone_moves"])


def _removed(model: str, names: Iterable[str]) -> list[migrations.RemoveField]:
    return [migrations.RemoveField(model_name=model, name=name) for name in names]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0026_drop_rolling_and_undone"),
    ]

    operations = [
        migrations.AddField(
            model_name="turn",
            name="data",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="move",
            name="row",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="move",
            name="by_computer",
            field=models.BooleanField(default=False),
        ),
        migrations.RenameField(
            model_name="game", old_name="undone_rolled", new_name="undone_moves"
        ),
        # Going back, the column comes back before the rows are written into it again.
        migrations.AlterField(
            model_name="turn", name="total", field=models.PositiveSmallIntegerField(default=0)
        ),
        migrations.RunPython(forward, backward),
        *_removed("turn", (*DICE_FIELDS, "rolls", "hunt_rolls")),
        *_removed("game", ("last_roller", "rolling_from")),
    ]
