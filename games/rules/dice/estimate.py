"""How long a game of dice takes: a seeded simulation with the computer's policy.

Every player is taken to play as the computer does (`dice_bot`). A simulated turn draws its
final total from the exact distribution that policy gives from the position (the same as
rolling and setting aside, only faster), then plays the heal, the target and the hunt with
dice. Games are simulated until the standard error of the mean length is at most 0.8% of it
(so the estimate is within 2% of a long run about 98 times in 100), or `MAX_GAMES` games,
or `BUDGET_SECONDS` of work; the estimate says how many games it took and its standard error.
Results are cached per rule set and table size: a seeded simulation always gives the same
answer.

Real tables do not play perfectly, so the figure is a guide: a table that sets aside less
well has fewer successful turns, and a game of Thirty then takes longer.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from . import bot as dice_bot
from .game import DICE, Position
from .odds import _triangle
from .ruleset import RuleSet

SECONDS_PER_TURN = 40  # typed-in dice: roll, set aside, count, type the total in
MIN_GAMES, MAX_GAMES = 100, 4000
TARGET_ERROR = 0.008  # standard error as a share of the mean
BUDGET_SECONDS = 3.0  # of CPU time, once per rule set and table size (then cached)
MAX_TURNS = 5000  # a game still going after this many turns is counted at this length
LONG_RUN_GAMES = 3000
SEED = 30


@dataclass(frozen=True)
class Estimate:
    """The mean length of a game in turns, its standard error and how many games it took."""

    turns: float
    error: float
    games: int

    def minutes(self, seconds_per_turn: float = SECONDS_PER_TURN) -> float:
        return self.turns * seconds_per_turn / 60


def play_game(rules: RuleSet, players: int, rng: random.Random) -> int:
    """Play one game with the computer's policy at every seat; its length in turns."""
    position = Position.start(rules, players)
    full = 6 ** _triangle(DICE)
    turns = 0
    while not position.finished and turns < MAX_TURNS:
        turn_plan = dice_bot.plan(position)
        total = DICE + bisect_right(turn_plan.cumulative, rng.randrange(full))
        turn = dice_bot.finish_turn(position, turn_plan, total, rng)
        position = position.after(position.play(turn))
        turns += 1
    return turns


def simulate(
    rules: RuleSet,
    players: int,
    games: int = MAX_GAMES,
    seed: int = SEED,
    budget: float | None = None,
    target_error: float = 0.0,
) -> Estimate:
    """Simulate up to `games` games (fewer once the error target or the time budget is met)."""
    rng = random.Random(f"{seed}:{players}:{rules!r}")
    started = time.process_time()
    count, total, squares = 0, 0, 0
    while count < games:
        length = play_game(rules, players, rng)
        count, total, squares = count + 1, total + length, squares + length * length
        if count >= MIN_GAMES:
            mean = total / count
            error = math.sqrt(max(squares / count - mean * mean, 0) / (count - 1))
            if error <= target_error * mean:
                break
            if budget is not None and time.process_time() - started > budget:
                break
    mean = total / count
    variance = max(squares / count - mean * mean, 0.0)
    return Estimate(mean, math.sqrt(variance / max(count - 1, 1)), count)


@lru_cache(maxsize=256)
def estimate(rules: RuleSet, players: int) -> Estimate:
    """The create form's estimate: seeded, so the same rules always give the same answer."""
    return simulate(
        rules, players, MAX_GAMES, SEED, budget=BUDGET_SECONDS, target_error=TARGET_ERROR
    )
