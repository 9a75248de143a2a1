"""The line-ups of recent games, offered on the create form: a table that plays again with
the same people fills in every name, in seat order, with one tap.

A line-up travels in the button's own value (the names and which seats the computer plays),
so the form fills in what the button showed even if a game was played meanwhile."""

from __future__ import annotations

import json
from dataclasses import dataclass

from games.history import played_games
from games.kinds import seat_bounds
from games.models import Seat
from games.names import MAX_NAME_LENGTH, join_names, name_key

SHOWN = 5
# The newest games looked at, in one query: a table that plays the same line-up all evening
# still leaves room for the ones before it.
LOOKED_AT = 60
NAMED_ON_BUTTON = 4


@dataclass(frozen=True)
class Lineup:
    """Players in seat order, each with whether the computer plays the seat."""

    seats: tuple[tuple[str, bool], ...]

    @property
    def label(self) -> str:
        return join_names([name for name, _ in self.seats], most=NAMED_ON_BUTTON)

    @property
    def value(self) -> str:
        return json.dumps([[name, computer] for name, computer in self.seats], ensure_ascii=False)


def recent_lineups(most: int = SHOWN) -> list[Lineup]:
    """The last few different line-ups, most recent first, in one query."""
    newest = played_games().order_by("-created_at", "pk").values("pk")[:LOOKED_AT]
    seats = (
        Seat.objects.filter(game__in=newest)
        .order_by("-game__created_at", "game_id", "position")
        .values_list("game_id", "name", "computer")
    )
    games: dict[str, list[tuple[str, bool]]] = {}
    for game_id, name, computer in seats:
        games.setdefault(game_id, []).append((name, computer))
    found: dict[tuple[tuple[str, bool], ...], Lineup] = {}
    for line in games.values():
        key = tuple((name_key(name), computer) for name, computer in line)
        found.setdefault(key, Lineup(tuple(line)))
    return list(found.values())[:most]


def read_lineup(raw: str | None) -> list[tuple[str, bool]] | None:
    """A line-up button's value, or None for anything that is not one. The names are
    checked like typed ones when the game is created."""
    most = seat_bounds()[1]
    if not raw or len(raw) > 4 * MAX_NAME_LENGTH * most:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, list) or not 1 <= len(data) <= most:
        return None
    seats = []
    for seat in data:
        if not (
            isinstance(seat, list)
            and len(seat) == 2
            and isinstance(seat[0], str)
            and isinstance(seat[1], bool)
        ):
            return None
        seats.append((seat[0][:MAX_NAME_LENGTH], seat[1]))
    return seats
