"""The table's own pace, and how long the game has to go at it.

A turn takes its people the time from the row before it to its own row (`Turn.created_at`);
the pace is the median of the last `RECENT` such turns, so that a break, or a round that
drags, moves it little. Only turns people played count: a computer's row is written the
moment the turn before it is, and the people's turns after it include the time the phones
took to show the computers' moves. Rows written within `SHORTEST_TURN` of the row before
were not played one by one at the table (an imported game) and count for nothing.

The turns still to come are worked out from the game's position (`estimate.remaining`: the
turns the seats people play are expected to roll, everyone playing as the computer does),
once every `PACE_EVERY` rows of the game and process, whatever the number of phones. That
simulation holds the interpreter for about a tenth of a second, and the row that calls for
it is the one every phone is waiting to see: so once a process has worked out a game's
figure, the next is worked out in the background a moment after the row has gone out, and
the pages say the figure before it (a few turns old, at today's pace) until it is in.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from games.cache import recall, remember
from games.models import Game, Seat, Turn
from games.rules import dice as dice_rules
from games.rules.dice import estimate as estimates

log = logging.getLogger(__name__)

MIN_TURNS = 3  # people's turns timed before the page says anything of the pace
RECENT = 60
SHORTEST_TURN = 2.0  # seconds
PACE_EVERY = 4  # turns between two workings-out of the time to go
# How long a worked-out-later figure waits: the phones have had their update by then.
LATER_SECONDS = 0.25


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


@dataclass(frozen=True)
class _Known:
    """What a process knows of a game's time to go at one stretch of `PACE_EVERY` rows: the
    seconds a turn and the people's turns still to come, or None when the table has no pace
    yet."""

    figures: tuple[float, float] | None


def table_pace(
    game: Game, position: dice_rules.Position, *, first_now: bool = False
) -> Pace | None:
    """The pace and the time to go of a game in progress, or None while nothing is known.
    `first_now`: a page that opens works the figure out at once when the process has none
    for the game yet (the first after a restart); an update or a turn's answer never waits
    for it, and says nothing of the time to go until the next row instead."""
    if position.finished:
        return None
    # Worked out afresh every few turns rather than at every version: "about 35 min to go"
    # moves little in a turn or two.
    key = ("pace", game.pk, game.turn_count // PACE_EVERY)
    known = recall(key)
    if known is None:
        known = _work_out(key, game, position, first_now)
    if known.figures is None:
        return None
    seconds, turns = known.figures
    return Pace(seconds, estimates.minutes(turns, seconds)) if turns else None


def _work_out(
    key: tuple[str, str, int], game: Game, position: dice_rules.Position, first_now: bool
) -> _Known:
    # Two small queries, however long the game: the last rows, and the computer seats.
    rows = Turn.objects.filter(game=game).order_by("-number")[: RECENT + 1]
    recent = list(rows.values_list("created_at", "by_computer"))[::-1]
    seconds = pace_of(turn_seconds(recent))
    if seconds is None:
        known = _Known(None)
        remember(key, known)
        return known
    computers = set(
        Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
    )
    people = frozenset(seat for seat in range(len(position.points)) if seat not in computers)
    earlier: float | None = recall(("pace-turns", game.pk))
    if earlier is None and first_now:
        turns = estimates.remaining(position, people)
        known = _Known((seconds, turns))
        remember(key, known)
        remember(("pace-turns", game.pk), turns, replace=True)
        return known
    _later(key, game.pk, position, people, seconds)
    return _Known(None if earlier is None else (seconds, earlier))


_pending: set[tuple[str, str, int]] = set()
_pending_lock = threading.Lock()
_background = ThreadPoolExecutor(1, thread_name_prefix="thirty-pace")


def _later(
    key: tuple[str, str, int],
    game_id: str,
    position: dice_rules.Position,
    people: frozenset[int],
    seconds: float,
) -> None:
    """Work the figure out in the background, once per key however many ask meanwhile."""
    with _pending_lock:
        if key in _pending:
            return
        _pending.add(key)

    def run() -> None:
        try:
            time.sleep(LATER_SECONDS)
            turns = estimates.remaining(position, people)
            remember(key, _Known((seconds, turns)))
            remember(("pace-turns", game_id), turns, replace=True)
        except Exception:  # the pages keep the figure before, and the next row asks again
            log.exception("the time to go could not be worked out")
        finally:
            with _pending_lock:
                _pending.discard(key)

    _background.submit(run)
