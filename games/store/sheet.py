"""The sheet as stored: the rows and cells of a game read back as rules values (snapshots,
rows, the position at a version), and the running sums per seat that let a position be
resumed from a handful of rows however long the game.

Every kind of game writes its sheet as rows of cells (a dice turn's damage or points, a card
deal's tokens given up), so `load_cells` and the running sums serve both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import F, Sum
from django.db.models.functions import Coalesce

from games.cache import recall, remember
from games.models import Cell, Game, Seat
from games.rules import dice as dice_rules


@dataclass(frozen=True)
class StoredRow:
    """A row as stored, with the rules' verdict rebuilt from it."""

    id: int
    number: int
    row: dice_rules.Row
    # The audit trail of a turn the app rolled (`RolledTurn.to_json`); None when typed in.
    rolls: list[dict[str, Any]] | None = None
    hunt_rolls: list[dict[str, Any]] | None = None
    seed_index: int | None = None
    by_computer: bool = False  # the computer played it for its seat


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


def load_position(game: Game) -> dice_rules.Position:
    """The position at the game's version: remembered by the process that wrote it, or
    added up by the database in one query."""
    key = ("position", game.pk, game.version)
    found: dice_rules.Position | None = recall(key)
    if found is not None:
        return found
    position, version = _add_up_position(game)
    # Turns may have been written since `game` was read: the position is remembered under
    # the version it was read at, never under an older one.
    remember(("position", game.pk, version), position)
    return position


def _add_up_position(game: Game) -> tuple[dice_rules.Position, int]:
    """The seats' running sums, the last roller and the version they belong to, in one
    statement (one consistent state of the database, however many turns are written
    meanwhile): a handful of rows whatever the length of the game."""
    rows = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("cell_sum", "game__last_roller", "game__version")
    )
    last_roller, version = rows[0][1], rows[0][2]
    sums = [total for total, _, _ in rows]
    return dice_rules.Position.from_cell_sums(game.rules, sums, last_roller), version


def cell_sums(game: Game) -> list[int]:
    """Each seat's cells added up from the rows themselves (what `Seat.cell_sum` keeps)."""
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .annotate(total=Coalesce(Sum("cells__value"), 0))
        .values_list("total", flat=True)
    )


def load_snapshot(game: Game) -> Snapshot:
    """The whole game in two queries: seats, then the turns with their cells."""
    ruleset = game.rules
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    rows = load_rows(game, ruleset, [seat_id for seat_id, _ in seats])
    position = dice_rules.Position.start(ruleset, len(seats))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(game, tuple(name for _, name in seats), tuple(rows), position)


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

    Turns and their cells are read together, in one statement, so that a turn written (or
    undone) while the game is read can never bring cells without their turn or the reverse.
    Every turn has one cell per seat, so every turn is in the answer.
    """
    index = {seat_id: position for position, seat_id in enumerate(seat_ids)}
    found = (
        Cell.objects.filter(turn__game=game, turn__number__gt=after)
        .order_by("turn__number")
        .values_list(
            "turn_id",
            "turn__number",
            "turn__roller",
            "turn__total",
            "turn__hunt",
            "turn__target",
            "turn__heal",
            "turn__effect",
            "turn__victim",
            "turn__rolls",
            "turn__hunt_rolls",
            "turn__seed_index",
            "turn__by_computer",
            "seat_id",
            "value",
        )
    )
    turns: dict[int, tuple[Any, ...]] = {}
    cells: dict[int, list[int]] = {}
    for *fields, seat_id, value in found:
        turn_id = cast(int, fields[0])
        if turn_id not in turns:
            turns[turn_id] = tuple(fields)
            cells[turn_id] = [0] * len(seat_ids)
        cells[turn_id][index[seat_id]] = value
    stored = []
    for data in turns.values():
        turn_id, number, roller, total, hunt, target, heal, effect_name, victim = data[:9]
        rolls, hunts, seed_index, by_computer = data[9:]
        effect = dice_rules.Effect(effect_name)
        margin = None if effect is dice_rules.Effect.MISSED else total - ruleset.beat_above
        turn = dice_rules.Turn(total, hunt, target, heal)
        row = dice_rules.Row(roller, turn, tuple(cells[turn_id]), effect, victim, margin)
        stored.append(StoredRow(turn_id, number, row, rolls, hunts, seed_index, by_computer))
    return stored


def load_cells(game: Game) -> tuple[tuple[str, ...], list[tuple[int, tuple[int, ...]]]]:
    """The sheet as every kind of game writes it: the seats' names, and each row's number
    and cells in seat order (a dice turn's damage or points, a card deal's tokens given up)."""
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    index = {seat_id: position for position, (seat_id, _) in enumerate(seats)}
    rows: dict[int, list[int]] = {}
    found = Cell.objects.filter(turn__game=game).order_by("turn__number")
    for number, seat_id, value in found.values_list("turn__number", "seat_id", "value"):
        rows.setdefault(number, [0] * len(seats))[index[seat_id]] = value
    return tuple(name for _, name in seats), [(n, tuple(c)) for n, c in rows.items()]


def add_to_sums(cells: Iterable[tuple[int, int]]) -> None:
    """Keep `Seat.cell_sum`: a row writes a number in at most two seats' columns."""
    for seat_id, value in cells:
        if value:
            Seat.objects.filter(pk=seat_id).update(cell_sum=F("cell_sum") + value)
