"""The sheet as stored, for every kind of game: its rows of cells (a dice turn's damage or
points, a card deal's tokens given up), and the running sums per seat that let the history
read where a game stands from a handful of rows, however long the game. Each kind reads its
rows' own words (`Turn.data`) itself."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.db.models import F, Sum
from django.db.models.functions import Coalesce

from games.cache import remembered
from games.models import Cell, Game, Seat


class SeatAtVersion(NamedTuple):
    id: int
    name: str
    computer: bool
    # A phone took it, or a computer plays it. Where seats are claimed (hidden hands), a
    # claim is a new version; a dice seat's link opened is noted without one (`seat_joined`),
    # so there this can lag until the next change.
    claimed: bool


def read_seats(game: Game) -> tuple[SeatAtVersion, ...]:
    """The seats in seat order as the database holds them now, in one statement: for an
    answer given inside a change, whose version may still roll back."""
    rows = Seat.objects.filter(game=game).order_by("position")
    return tuple(
        SeatAtVersion(seat_id, name, computer, computer or joined is not None)
        for seat_id, name, computer, joined in rows.values_list(
            "id", "name", "computer", "joined_at"
        )
    )


def seats_at_version(game: Game) -> tuple[SeatAtVersion, ...]:
    """The seats in seat order as the game stands at its version, for every kind. Read once
    per process and version, however many parts of a page and followers' updates ask: a
    seat is renamed (`merge_names`), handed over or claimed only with a new version. For
    reading, not inside a change that is still being written (`read_seats` is)."""
    seats: tuple[SeatAtVersion, ...] = remembered(
        ("seats", game.pk, game.version), lambda: read_seats(game)
    )
    return seats


def cell_sums(game: Game) -> list[int]:
    """Each seat's cells added up from the rows themselves (what `Seat.cell_sum` keeps)."""
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .annotate(total=Coalesce(Sum("cells__value"), 0))
        .values_list("total", flat=True)
    )


def load_cells(game: Game) -> tuple[tuple[str, ...], list[tuple[int, tuple[int, ...]]]]:
    """The sheet as every kind of game writes it: the seats' names, and each row's number
    and cells in seat order (a dice turn's damage or points, a card deal's tokens given up)."""
    seats = seats_at_version(game)
    index = {seat.id: position for position, seat in enumerate(seats)}
    rows: dict[int, list[int]] = {}
    found = Cell.objects.filter(turn__game=game).order_by("turn__number")
    for number, seat_id, value in found.values_list("turn__number", "seat_id", "value"):
        rows.setdefault(number, [0] * len(seats))[index[seat_id]] = value
    return tuple(seat.name for seat in seats), [(n, tuple(c)) for n, c in rows.items()]


def add_to_sums(cells: Iterable[tuple[int, int]]) -> None:
    """Keep `Seat.cell_sum`: a row writes a number in at most two seats' columns."""
    for seat_id, value in cells:
        if value:
            Seat.objects.filter(pk=seat_id).update(cell_sum=F("cell_sum") + value)
