"""How long a game of dice takes: a seeded simulation with the computer's policy.

Every player is taken to play as the computer does (`dice_bot`). A simulated turn draws its
final total from the exact distribution that policy gives from the position (the same as
rolling and setting aside, only faster), then plays the heal, the target and the hunt with
dice.

The estimate is the spread of whole games, not the precision of a mean: the 10th, 50th and
90th percentile of the number of turns, so that eight games in ten fall between the first
and the last. It always comes from the same seeded games, `GAMES` of them (fewer only when
games are so long that `GAMES` would pass `SIMULATED_TURNS` turns in all: every rule set
costs at most that much work), so the same rules and table size give the same figures on
every machine, however fast. With 1,000 games the percentiles of four players on 30 points
move by about one turn from one seed to another; the page rounds them further.

Real tables do not play perfectly, so the figure is a guide: a table that sets aside less
well has fewer successful turns, and a game of Thirty then takes longer.
"""

from __future__ import annotations

import hashlib
import math
import random
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from . import bot as dice_bot
from .game import DICE, Position
from .odds import _triangle
from .ruleset import RuleSet

SECONDS_PER_TURN = 40  # typed-in dice: roll, set aside, count, type the total in
GAMES = 1000
SIMULATED_TURNS = 250_000  # at most, per rule set and table size: a few seconds of work
MAX_TURNS = 5000  # a game still going after this many turns is counted at this length
LOW, HIGH = 0.1, 0.9  # the share of games shorter than the range, and within its top
# The time to go from a game's position: fewer games, as it is worked out once per turn.
REMAINING_GAMES = 100
REMAINING_TURNS = 6000
LONG_RUN_GAMES = 3000
SEED = 30


@dataclass(frozen=True)
class Estimate:
    """How many turns games last: the middle 80 % (`low` to `high`), the median and the
    mean, from `games` simulated games."""

    games: int
    low: int
    median: int
    high: int
    mean: float

    @property
    def endless(self) -> bool:
        """One game in ten or more was still going after `MAX_TURNS` turns."""
        return self.high >= MAX_TURNS

    @classmethod
    def of(cls, lengths: Iterable[int]) -> Estimate:
        ordered = sorted(lengths)
        return cls(
            len(ordered),
            percentile(ordered, LOW),
            percentile(ordered, 0.5),
            percentile(ordered, HIGH),
            sum(ordered) / len(ordered),
        )


def percentile(ordered: list[int], share: float) -> int:
    """The nearest-rank percentile of sorted lengths: at least `share` of them are at most
    this long, and it is one of them."""
    rank = max(1, math.ceil(share * len(ordered) - 1e-9))
    return ordered[rank - 1]


def minutes(turns: float, seconds_per_turn: float = SECONDS_PER_TURN) -> float:
    return turns * seconds_per_turn / 60


def play_out(
    position: Position, rng: random.Random, counted: frozenset[int] = frozenset()
) -> tuple[int, int]:
    """Play on from `position` with the computer's policy at every seat until the game ends:
    how many turns it took, and how many of them the seats `counted` rolled."""
    full = 6 ** _triangle(DICE)
    turns = counted_turns = 0
    while not position.finished and turns < MAX_TURNS:
        roller = position.next_roller
        turn_plan = dice_bot.plan(position)
        total = DICE + bisect_right(turn_plan.cumulative, rng.randrange(full))
        turn = dice_bot.finish_turn(position, turn_plan, total, rng)
        position = position.after(position.play(turn))
        turns += 1
        counted_turns += roller in counted
    return turns, counted_turns


def play_game(rules: RuleSet, players: int, rng: random.Random) -> int:
    """Play one game with the computer's policy at every seat; its length in turns."""
    return play_out(Position.start(rules, players), rng)[0]


def simulate(
    rules: RuleSet,
    players: int,
    games: int = GAMES,
    seed: int = SEED,
    turns: int | None = SIMULATED_TURNS,
) -> Estimate:
    """`games` seeded games, or as many whole games as it takes to play `turns` turns."""
    rng = random.Random(f"{seed}:{players}:{rules!r}")
    lengths: list[int] = []
    played = 0
    while len(lengths) < games and (turns is None or played < turns):
        lengths.append(play_game(rules, players, rng))
        played += lengths[-1]
    return Estimate.of(lengths)


@lru_cache(maxsize=256)
def estimate(rules: RuleSet, players: int) -> Estimate:
    """The create form's estimate: seeded, so the same rules always give the same answer."""
    return simulate(rules, players)


@lru_cache(maxsize=1024)
def remaining(position: Position, counted: frozenset[int]) -> float:
    """How many turns the seats `counted` are expected to roll before the game is over, from
    `position` on, everyone playing as the computer does: the mean of `REMAINING_GAMES`
    games, or of fewer when they would pass `REMAINING_TURNS` turns in all. Every position
    of a game is played on with the same seeded dice, so the figure moves with the game,
    not with the dice of the simulation, and the same position always gives the same one."""
    rng = random.Random(f"{SEED}:{len(position.points)}:{position.rules!r}:remaining")
    games = played = theirs = 0
    while games < REMAINING_GAMES and played < REMAINING_TURNS:
        turns, counted_turns = play_out(position, rng, counted)
        games, played, theirs = games + 1, played + turns, theirs + counted_turns
    return theirs / games


@cache
def version() -> str:
    """What the figures depend on besides the rules and the table: this package's code (the
    rules, the computer's policy, this simulation) and the numbers above. A figure kept from
    other code is never read back."""
    digest = hashlib.sha256(f"{SEED}:{GAMES}:{SIMULATED_TURNS}:{MAX_TURNS}".encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]
