"""The table's own pace, and how long the game has to go at it.

A turn takes its people the time from the row before it to its own row (`Turn.created_at`);
the pace is the median of the last `RECENT` such turns, so that a break, or a round that
drags, moves it little. Only turns people played count: a computer's row is written the
moment the turn before it is, and the people's turns after it include the time the phones
took to show the computers' moves. Rows written within `SHORTEST_TURN` of the row before
were not played one by one at the table (an imported game) and count for nothing.

The turns still to come are worked out from the game's position (`estimate.remaining`: the
turns the seats people play are expected to roll, everyone playing as the computer does),
once every `PACE_EVERY` rows of the game and process, whatever the number of phones.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from games.cache import remembered
from games.models import Game, Seat, Turn
from games.rules import dice as dice_rules
from games.rules.dice import estimate as estimates

MIN_TURNS = 3  # people's turns timed before the page says anything of the pace
RECENT = 60
SHORTEST_TURN = 2.0  # seconds
PACE_EVERY = 4  # turns between two workings-out of the time to go


@dataclass(frozen=True)
class Pace:
    """Seconds a person's turn takes at this table, and the minutes the game has to go."""

    seconds: float
    minutes_to_go: float


def turn_seconds(rows: Sequence[tuple[datetime, bool]]) -> list[float]:
    """How long each person's turn took, from rows (when written, whether by the computer)
    in the order they were written; the first row has no row before it to be timed from."""
    times = []
    for (before, _), (written, by_computer) in pairwise(rows):
        seconds = (written - before).total_seconds()
        if not by_computer and seconds >= SHORTEST_TURN:
            times.append(seconds)
    return times


def pace_of(times: Sequence[float]) -> float | None:
    """The table's seconds a turn, once enough turns were timed."""
    return statistics.median(times) if len(times) >= MIN_TURNS else None


def table_pace(game: Game, position: dice_rules.Position) -> Pace | None:
    """The pace and the time to go of a game in progress, or None while nothing is known."""
    if position.finished:
        return None

    def build() -> Pace | None:
        # Two small queries, however long the game: the last rows, and the computer seats.
        rows = Turn.objects.filter(game=game).order_by("-number")[: RECENT + 1]
        recent = list(rows.values_list("created_at", "by_computer"))[::-1]
        seconds = pace_of(turn_seconds(recent))
        if seconds is None:
            return None
        computers = set(
            Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
        )
        people = frozenset(seat for seat in range(len(position.points)) if seat not in computers)
        turns = estimates.remaining(position, people)
        return Pace(seconds, estimates.minutes(turns, seconds)) if turns else None

    # Worked out afresh every few turns rather than at every version: the simulation costs
    # about a tenth of a second, which a move's answer should not pay each time, and "about
    # 35 min to go" moves little in a turn or two.
    return remembered(("pace", game.pk, game.turn_count // PACE_EVERY), build)
