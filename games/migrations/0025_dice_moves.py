"""Every dice game gets its move log (`Move`), written from what it kept before the log:

- each row of its sheet (`Turn`) becomes the move that wrote it: a typed turn
  (`{"total", "hunt", "target", "heal"}`), or a turn the app rolled as one whole move with its
  rolls (`"rolls"`, `"hunt_rolls"`, `"seed_index"`). A rolled turn is not cut back into its
  steps: which questions it was asked (heal or attack, whom) depended on the position at the
  time, which only the rules know, and a migration must not run code that may change later.
  Every move carries `"row"`, the row it closed.
- its turn in progress (`Game.rolling`) becomes its steps, after the last row, each with the
  dice that fell for it (`{"roll": {"keep": [6, 5]}, "dice": [4, 1, 3, 2]}`), and
  `Game.rolling_from` points at the first;
- each turn the host took back (`Game.undone`) becomes a whole rolled move marked undone
  (`Move.undone_at`), placed just before the row that took its place (its `"row"` keeps the
  number it had), and `Game.undone_rolled` counts them.

The functions below are copies of what the app did when these games were played, so that the
migration reads the same whatever the app becomes. Going back rebuilds `rolling` and `undone`
from the log, then removes the dice games' moves.
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone

THIRTY_S_LIMIT = 30


def _turn_data(turn: Any) -> dict[str, Any]:
    data = {
        "total": turn.total,
        "hunt": turn.hunt,
        "target": turn.target,
        "heal": turn.heal,
    }
    if turn.rolls is not None:
        data |= {
            "rolls": turn.rolls,
            "hunt_rolls": turn.hunt_rolls or [],
            "seed_index": turn.seed_index,
        }
    return data | {"row": turn.number}


def _undone_data(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "total": entry["total"],
        "hunt": entry["hunt"],
        "target": entry["target"],
        "heal": entry["heal"],
        "rolls": entry["rolls"],
        "hunt_rolls": entry.get("hunt_rolls") or [],
        "seed_index": entry.get("seed_index"),
        "row": entry["number"],
    }


def _undone_at(text: str) -> datetime:
    """When a turn was taken back. The app wrote the time in UTC with its offset; a time
    without one is read in the site's time zone, as Django reads a naive time."""
    when = datetime.fromisoformat(text)
    return when if timezone.is_aware(when) else timezone.make_aware(when)


def _steps(rolling: dict[str, Any]) -> list[dict[str, Any]]:
    """A turn in progress (`RolledTurn.to_json` as it was) as the steps that made it, each
    with the dice that fell for it: the first roll, each set-aside with the roll of the dice
    left, the choices, then each roll of the hunt."""
    rolls = rolling.get("rolls") or []
    steps: list[dict[str, Any]] = []
    for index, roll in enumerate(rolls):
        if index == 0:
            steps.append({"roll": {}, "dice": list(roll["dice"])})
        if roll["kept"] is not None:
            rest = rolls[index + 1]["dice"] if index + 1 < len(rolls) else []
            steps.append({"roll": {"keep": list(roll["kept"])}, "dice": list(rest)})
    if rolling.get("heal") is not None:
        steps.append({"roll": {"heal": rolling["heal"]}, "dice": []})
    hunts = list(rolling.get("hunt_rolls") or [])
    if rolling.get("target") is not None:
        first = {"roll": {"target": rolling["target"]}, "dice": []}
        if hunts:
            first = {
                "roll": {"target": rolling["target"], "hunt": True},
                "dice": hunts.pop(0)["dice"],
            }
        steps.append(first)
    steps += [{"roll": {"hunt": True}, "dice": list(hunt["dice"])} for hunt in hunts]
    if rolling.get("stopped"):
        steps.append({"roll": {"stop": True}, "dice": []})
    return steps


def _next_roller(rules: dict[str, Any], sums: list[int], last_roller: int | None) -> int:
    """`Position.next_roller` as it was, from the seats' sums of cells (a game with a turn in
    progress is not over, so someone is in)."""
    counts_up = rules.get("preset", "thirty") == "30s"
    first_out = counts_up and rules.get("end", "last_standing") == "first_out"

    def out(total: int) -> bool:
        if not counts_up:
            return int(rules.get("start_points", 30)) - total <= 0
        return total > THIRTY_S_LIMIT if first_out else total >= THIRTY_S_LIMIT

    start = 0 if last_roller is None else last_roller + 1
    for step in range(len(sums)):
        seat = (start + step) % len(sums)
        if not out(sums[seat]):
            return seat
    raise ValueError("a game with a turn in progress has nobody in")


def _games(games: Any, chunk: int = 500) -> Iterable[Any]:
    """The games, a chunk at a time: each is written while the next are read, which a
    cursor left open over the same table would not allow on SQLite."""
    ids = list(games.order_by("id").values_list("id", flat=True))
    for start in range(0, len(ids), chunk):
        yield from games.model.objects.filter(id__in=ids[start : start + chunk]).order_by("id")


def write_logs(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    logged = Move.objects.values_list("game_id", flat=True)
    for game in _games(Game.objects.filter(kind="dice").exclude(id__in=logged)):
        undone = sorted(enumerate(game.undone or []), key=lambda item: (item[1]["number"], item[0]))
        entries: list[tuple[int, dict[str, Any], datetime | None]] = []
        for turn in Turn.objects.filter(game=game).order_by("number"):
            while undone and undone[0][1]["number"] <= turn.number:
                _, entry = undone.pop(0)
                entries.append(
                    (entry["roller"], _undone_data(entry), _undone_at(entry["undone_at"]))
                )
            entries.append((turn.roller, _turn_data(turn), None))
        for _, entry in undone:
            entries.append((entry["roller"], _undone_data(entry), _undone_at(entry["undone_at"])))
        steps = _steps(game.rolling) if game.rolling else []
        if steps:
            seats = Seat.objects.filter(game=game).order_by("position")
            sums = list(seats.values_list("cell_sum", flat=True))
            roller = _next_roller(game.rules_data, sums, game.last_roller)
            game.rolling_from = len(entries) + 1
            entries += [(roller, step, None) for step in steps]
        Move.objects.bulk_create(
            Move(game=game, number=number, seat=seat, data=data, undone_at=undone_at)
            for number, (seat, data, undone_at) in enumerate(entries, start=1)
        )
        game.undone_rolled = len(game.undone or [])
        game.save(update_fields=["rolling_from", "undone_rolled"])


def _rolling(rules: dict[str, Any], steps: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The turn in progress as `RolledTurn.to_json` wrote it, from its logged steps."""
    beat_above = THIRTY_S_LIMIT if rules.get("preset") == "30s" else int(rules.get("target", 30))
    turn: dict[str, Any] = {
        "rolls": [],
        "heal": None,
        "target": None,
        "hunt_rolls": [],
        "stopped": False,
    }
    for step in steps:
        if "roll" not in step or "row" in step:
            break  # the steps of a turn in progress are the last moves of the log
        action, dice = step["roll"], list(step.get("dice", []))
        if "keep" in action:
            turn["rolls"][-1]["kept"] = sorted(action["keep"], reverse=True)
            if dice:
                turn["rolls"].append({"dice": dice, "kept": None})
        elif not action:
            turn["rolls"].append({"dice": dice, "kept": None})
        elif action.get("stop"):
            turn["stopped"] = True
        elif "heal" in action:
            turn["heal"] = action["heal"]
        else:
            if "target" in action:
                turn["target"] = action["target"]
            if action.get("hunt"):
                margin = sum(d for r in turn["rolls"] for d in r["kept"] or ()) - beat_above
                turn["hunt_rolls"].append({"dice": dice, "hits": dice.count(margin)})
    return turn


def remove_logs(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in _games(Game.objects.filter(kind="dice")):
        moves = Move.objects.filter(game=game).order_by("number")
        if game.rolling_from is not None:
            steps = moves.filter(number__gte=game.rolling_from).values_list("data", flat=True)
            game.rolling = _rolling(game.rules_data, steps)
        taken_back = [
            (move.undone_at, -move.data["row"], move.number, move)
            for move in moves.filter(undone_at__isnull=False)
            if "rolls" in move.data
        ]
        game.undone = [
            {
                "number": move.data["row"],
                "roller": move.seat,
                "total": move.data["total"],
                "hunt": move.data["hunt"],
                "target": move.data["target"],
                "heal": move.data["heal"],
                "rolls": move.data["rolls"],
                "hunt_rolls": move.data["hunt_rolls"],
                "seed_index": move.data["seed_index"],
                "undone_at": move.undone_at.isoformat(timespec="seconds"),
            }
            for *_, move in sorted(taken_back, key=lambda item: item[:3])
        ]
        game.save(update_fields=["rolling", "undone"])
        moves.delete()
    Game.objects.filter(kind="dice").update(rolling_from=None, undone_rolled=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0024_move_log")]

    operations = [migrations.RunPython(write_logs, remove_logs)]
