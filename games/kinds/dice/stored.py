"""A dice game as the store keeps it, read back as rules values: its rules, its state at the
game's version (`store.load_state`: the position and the turn under way), its rows with the
rules' verdict rebuilt from each row's data (snapshots, rows after a point, the game as it
stood after some rows), and the turns the host took back before the undo policy."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any, cast

from django.db.models import TextField
from django.db.models.functions import Cast

from games import store
from games.models import Cell, Game, Move
from games.rules import dice as dice_rules
from games.rules.dice import rolled


def rules_of(game: Game) -> dice_rules.RuleSet:
    """The rules of a dice game (Thirty or 30s)."""
    return dice_rules.RuleSet.from_dict(game.rules_data)


def state_of(game: Game) -> dice_rules.DiceState:
    """The game at its version: remembered by the process that wrote it, or one query."""
    return cast(dice_rules.DiceState, store.load_state(game))


def position_of(game: Game) -> dice_rules.Position:
    return state_of(game).position


def rolling_turn(game: Game) -> rolled.RolledTurn | None:
    """The turn in progress with dice the app rolls, if one is under way."""
    return state_of(game).rolling


@dataclass(frozen=True)
class StoredRow:
    """A row as stored, with the rules' verdict rebuilt from it."""

    id: int
    number: int
    row: dice_rules.Row
    # The audit trail of a turn the app rolled (`rolled.rolls_json`); None when typed in.
    rolls: list[dict[str, Any]] | None = None
    hunt_rolls: list[dict[str, Any]] | None = None
    seed_index: int | None = None
    by_computer: bool = False  # the computer played it for its seat
    table: bool = False  # its rolls were thrown at the table and entered, not the app's
    # What its set-asides cost and how its dice ran, as the row keeps it (`rules.dice.analysis`).
    analysis: dict[str, Any] | None = None


@dataclass(frozen=True)
class Snapshot:
    """A whole game as the rules see it: seats, rows and the position after the last row."""

    game: Game
    names: tuple[str, ...]
    rows: tuple[StoredRow, ...]
    position: dice_rules.Position

    @property
    def rules(self) -> dice_rules.RuleSet:
        return self.position.rules


def load_snapshot(game: Game) -> Snapshot:
    """The whole game in two queries: seats (once per process and version), then the rows
    with their cells."""
    ruleset = rules_of(game)
    seats = store.seats_at_version(game)
    rows = load_rows(game, ruleset, [seat.id for seat in seats])
    position = dice_rules.Position.start(ruleset, len(seats))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(game, tuple(seat.name for seat in seats), tuple(rows), position)


def up_to(snapshot: Snapshot, count: int) -> Snapshot:
    """The game as it stood after its first `count` rows: a step of a replay."""
    rows = snapshot.rows[:count]
    position = dice_rules.Position.start(snapshot.rules, len(snapshot.names))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(snapshot.game, snapshot.names, rows, position)


def load_rows(
    game: Game, ruleset: dice_rules.RuleSet, seat_ids: Sequence[int], *, after: int = 0
) -> list[StoredRow]:
    """The rows numbered above `after`, in one query.

    Rows and their cells are read together, in one statement, so that a row written (or
    undone) while the game is read can never bring cells without their row or the reverse.
    Every row has one cell per seat, so every row is in the answer.
    """
    index = {seat_id: position for position, seat_id in enumerate(seat_ids)}
    found = (
        Cell.objects.filter(turn__game=game, turn__number__gt=after)
        .order_by("turn__number")
        # The turn's data comes once per cell: read as text, it is decoded once per turn
        # (as a JSONField, every cell's copy was decoded: a quarter of a long game's page).
        .annotate(turn_data=Cast("turn__data", TextField()))
        .values_list(
            "turn_id",
            "turn__number",
            "turn__roller",
            "turn__effect",
            "turn_data",
            "turn__seed_index",
            "turn__by_computer",
            "seat_id",
            "value",
        )
    )
    rows: dict[int, tuple[Any, ...]] = {}
    cells: dict[int, list[int]] = {}
    for turn_id, number, roller, effect, data, *rest, seat_id, value in found:
        if turn_id not in rows:
            rows[turn_id] = (turn_id, number, roller, effect, json.loads(data), *rest)
            cells[turn_id] = [0] * len(seat_ids)
        cells[turn_id][index[seat_id]] = value
    return [_stored(ruleset, fields, tuple(cells[turn_id])) for turn_id, fields in rows.items()]


def _stored(
    ruleset: dice_rules.RuleSet, fields: tuple[Any, ...], cells: tuple[int, ...]
) -> StoredRow:
    turn_id, number, roller, effect_name, data, seed_index, by_computer = fields
    effect = dice_rules.Effect(effect_name)
    total = data["total"]
    margin = None if effect is dice_rules.Effect.MISSED else total - ruleset.beat_above
    turn = dice_rules.Turn(total, data.get("hunt"), data.get("target"), bool(data.get("heal")))
    row = dice_rules.Row(roller, turn, cells, effect, data.get("victim"), margin)
    rolls, table = data.get("rolls"), bool(data.get("table"))
    return StoredRow(
        turn_id,
        number,
        row,
        rolls,
        data.get("hunt_rolls") if rolls is not None else None,
        seed_index if rolls is not None and not table else None,  # the app's dice only
        by_computer,
        table,
        data.get("analysis"),
    )


def undone_turns(game: Game) -> list[dict[str, Any]]:
    """The app-rolled turns the host took back, oldest first, seats from 0: each a whole
    rolled move marked undone in the log (`Move.row` the number it had). Only games from
    before the undo policy have any (the policy never takes a rolled turn back), and the game
    row counts the moves taken back (`Game.undone_moves`), so most games read nothing more."""
    if not game.undone_moves:
        return []
    found = Move.objects.filter(game=game, undone_at__isnull=False).values_list(
        "number", "seat", "data", "row", "undone_at"
    )
    # Oldest undo first; one undo takes back the last row first.
    taken_back = sorted(
        ((undone_at, -(row or 0), number), seat, data, row)
        for number, seat, data, row, undone_at in found
        if "rolls" in data and undone_at is not None
    )
    return [
        {
            "number": row,
            "roller": seat,
            "total": data["total"],
            "hunt": data["hunt"],
            "target": data["target"],
            "heal": data["heal"],
            "rolls": data["rolls"],
            "hunt_rolls": data["hunt_rolls"],
            "seed_index": data.get("seed_index"),
            "undone_at": undone_at.astimezone(UTC).isoformat(timespec="seconds"),
        }
        for (undone_at, _, _), seat, data, row in taken_back
    ]
