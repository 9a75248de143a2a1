"""What each choice of a rolled turn cost, and how the dice ran: skill and luck, exactly.

A turn whose rolls are known (the app rolled them, or they were thrown at the table and
entered) is measured against the objective the computer plays for (`bot.plan`): in default
Thirty that is the chance of a successful turn (beating the target: every win hunts with six
dice, one expected hit), in 30s and the Thirty variants where wins and misses are worth
different amounts it is the expected points (given to others, less those scored against
oneself). `objective` says which.

With `V(dice, kept)` the value of the position before rolling `dice` dice with `kept` set
aside under best play (the exact solver, `odds`), each roll that was set aside from is a
decision:

- `before`: V before the roll;
- `best`: the value after the best set-aside from the dice that fell;
- `chosen`: the value after the set-aside actually made.

`best - chosen` is the value the choice gave away (skill); `best - before` is what the dice
brought against an average roll (luck: on average exactly 0). They add up exactly: the value
the turn ended with is `start + luck - lost`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from . import bot, odds
from .game import Position
from .rolled import Roll

Objective = Literal["beat", "points"]


@dataclass(frozen=True)
class Decision:
    """One set-aside: the dice in hand, what was set aside and what was best, and the values."""

    hand: tuple[int, ...]  # the dice that fell, high to low
    kept_before: int  # the sum set aside before this roll
    chosen: tuple[int, ...]
    best: tuple[int, ...]
    before: Fraction
    value_chosen: Fraction
    value_best: Fraction

    @property
    def lost(self) -> Fraction:
        return self.value_best - self.value_chosen

    @property
    def luck(self) -> Fraction:
        return self.value_best - self.before


@dataclass(frozen=True)
class TurnAnalysis:
    objective: Objective
    start: Fraction  # the turn's value before the first roll
    decisions: tuple[Decision, ...]

    @property
    def lost(self) -> Fraction:
        return sum((d.lost for d in self.decisions), Fraction(0))

    @property
    def luck(self) -> Fraction:
        return sum((d.luck for d in self.decisions), Fraction(0))

    @property
    def biggest_miss(self) -> Decision | None:
        """The choice that gave away the most, if any gave anything away."""
        worst = max(self.decisions, key=lambda d: d.lost, default=None)
        return worst if worst is not None and worst.lost > 0 else None

    def to_json(self) -> dict[str, Any]:
        """As a sheet row keeps it (`Turn.data["analysis"]`): values rounded to 4 places."""
        return {
            "objective": self.objective,
            "start": _round(self.start),
            "lost": _round(self.lost),
            "luck": _round(self.luck),
            "decisions": [
                {
                    "hand": list(d.hand),
                    "kept_before": d.kept_before,
                    "chosen": list(d.chosen),
                    "best": list(d.best),
                    "before": _round(d.before),
                    "chosen_value": _round(d.value_chosen),
                    "best_value": _round(d.value_best),
                }
                for d in self.decisions
            ],
        }


def objective_of(position: Position) -> Objective:
    payoffs = set(bot.plan(position).payoffs)
    return "beat" if payoffs <= {Fraction(0), Fraction(1)} else "points"


def analyse(position: Position, rolls: Sequence[Roll]) -> TurnAnalysis:
    """The turn of the player whose turn it is in `position`, from its rolls."""
    turn_plan = bot.plan(position)
    solution, scale = turn_plan.solution, bot.payoff_scale(turn_plan.payoffs)

    def value(dice: int, kept: int) -> Fraction:
        return solution.value(dice, kept) / scale

    decisions = []
    kept = 0
    for roll in rolls:
        if roll.kept is None:
            break  # the turn's last roll, not yet set aside from
        hand = tuple(sorted(roll.dice, reverse=True))
        dice = len(hand)
        best = solution.keep(hand, kept)
        chosen = tuple(sorted(roll.kept, reverse=True))
        decisions.append(
            Decision(
                hand,
                kept,
                chosen,
                best,
                value(dice, kept),
                value(dice - len(chosen), kept + sum(chosen)),
                value(dice - len(best), kept + sum(best)),
            )
        )
        kept += sum(chosen)
    return TurnAnalysis(objective_of(position), value(6, 0), tuple(decisions))


def choices_worth(
    position: Position, hand: Sequence[int], kept: int
) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every set-aside the rules allow from `hand`, with its value under best play afterwards,
    best first: what a player may tap to see after the game (`What if`)."""
    turn_plan = bot.plan(position)
    solution, scale = turn_plan.solution, bot.payoff_scale(turn_plan.payoffs)
    ordered = tuple(sorted(hand, reverse=True))
    options = odds.keep_options(ordered, position.rules.set_aside)
    worth = [
        (keep, solution.value(len(ordered) - len(keep), kept + sum(keep)) / scale)
        for keep in options
    ]
    return sorted(worth, key=lambda item: (-item[1], -sum(item[0]), len(item[0])))


def _round(value: Fraction) -> float:
    return round(float(value), 4)
