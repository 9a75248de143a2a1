"""The computer's dice policy: what to set aside, heal or attack, whom, and when to stop.

Everything here is pure and exact. A choice depends only on the position (`Position`: the
rules, everyone's points, whose turn it is) and on the dice; dice come from a generator the
caller passes in, so a seeded generator replays a game.

What the computer maximises (the rules page says the same):

- **Thirty**: the chance of beating the target. In default Thirty every win hunts with six
  dice, one expected hit (6 × 1/6), so this also maximises the expected damage. When a win
  is not always worth the same, or a miss costs something, it maximises the expected damage
  dealt minus the expected points it loses itself: a win by m is worth m/6 expected hits
  with "hunt with as many dice as the margin", a win whose damage would be lost at an
  empty seat is worth nothing, and a miss costs one point or the shortfall.
- **30s**: the expected points it gives others minus the expected points it scores itself.
  A total t below 30 scores 30 − t against itself (nothing under precise elimination when
  that would take it to 30 or past it, since then it has no effect); 30 is worth 0; above
  30 it takes the better of healing (the margin, at most its own points) and attacking
  (the expected points the hunt gives the victim; under precise elimination only points
  that do not take the victim past 30 count).
- **Whom to attack** (free for all): the player it is most likely to knock out this turn,
  then the one it expects to give the most points, then the one closest to being out
  (most points), then the first in seat order after it. Under precise elimination that is
  whoever an attack landing exactly on 30 can knock out.
- **Weaker attacks**: after a hunt roll that found dice, it stops when what it has is worth
  at least what going on is expected to be worth (optimal stopping, exact).

The set-aside policy is solved exactly by `odds._solve` for the payoff of each final total,
so in default Thirty it is the same policy as `odds.best_keep`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from math import comb, lcm

from ..errors import IllegalTurnError, gettext_noop
from . import odds
from .game import DICE, Position, Step, Turn
from .rolled import Action, Ask, RolledTurn
from .ruleset import THIRTY_S_LIMIT, RuleSet

SIDES = 6
TOTALS = range(DICE, DICE * SIDES + 1)


@dataclass(frozen=True)
class Attack:
    """What an attack with a given margin is worth against one victim."""

    victim: int
    damage: Fraction  # expected points (30s) or hits (Thirty) that count
    knockout: Fraction  # chance that this attack puts the victim out


@dataclass(frozen=True)
class Plan:
    """The computer's plan for one turn from a position: the payoff of every final total."""

    payoffs: tuple[Fraction, ...]  # for totals 6..36
    attacks: dict[int, Attack | None]  # for each total above the mark: the attack it would make
    heal: dict[int, bool]  # for each total above the mark: whether it heals instead
    set_aside: odds.SetAside

    def payoff(self, total: int) -> Fraction:
        return self.payoffs[total - DICE]

    @cached_property
    def cumulative(self) -> tuple[int, ...]:
        """The chance of each final total 6..36 or less with this policy, times 6 ** 21."""
        return _cumulative(self.payoffs, self.set_aside)

    @cached_property
    def solution(self) -> odds._Solution:
        return _solution(self.payoffs, self.set_aside)

    def value(self) -> Fraction:
        """What the whole turn is worth with this policy, before the first roll."""
        return self.solution.value(DICE, 0) / payoff_scale(self.payoffs)


# -- the hunt -------------------------------------------------------------------------------


@cache
def _binomial(dice: int, found: int) -> Fraction:
    """Chance that `found` of `dice` dice show one chosen face."""
    return Fraction(comb(dice, found) * (SIDES - 1) ** (dice - found), SIDES**dice)


def _counts(found: int, margin: int, victim_points: int, precise: bool) -> int:
    """The points a 30s attack that set aside `found` dice gives, as far as they count."""
    points = found * margin
    if precise and victim_points + points > THIRTY_S_LIMIT:
        return 0
    return points


@lru_cache(maxsize=4096)
def _stop_worth(found: int, left: int, margin: int, victim: int, precise: bool) -> Fraction:
    """Weaker attacks: the worth of the chain with `found` set aside and `left` dice to roll,
    playing on only while that is expected to be worth more than stopping."""
    stop = Fraction(_counts(found, margin, victim, precise))
    if left == 0:
        return stop
    go_on = _go_on_worth(found, left, margin, victim, precise)
    return max(stop, go_on) if found else go_on


@lru_cache(maxsize=4096)
def _go_on_worth(found: int, left: int, margin: int, victim: int, precise: bool) -> Fraction:
    # A roll that finds nothing ends a weaker attack with no damage at all.
    return sum(
        (
            _binomial(left, more) * _stop_worth(found + more, left - more, margin, victim, precise)
            for more in range(1, left + 1)
        ),
        Fraction(0),
    )


def keep_hunting(found: int, left: int, margin: int, victim_points: int, precise: bool) -> bool:
    """Weaker attacks: whether to roll on with `found` dice set aside and `left` in hand."""
    if found == 0:
        return True
    if left == 0:
        return False
    stop = _counts(found, margin, victim_points, precise)
    return _go_on_worth(found, left, margin, victim_points, precise) > stop


@lru_cache(maxsize=4096)
def _chain(margin: int, victim: int, precise: bool, weaker: bool) -> tuple[Fraction, ...]:
    """The chance of each final number of dice set aside (0..6) by a 30s attack chain."""
    ends = [Fraction(0)] * (DICE + 1)
    reach = {0: Fraction(1)}
    while reach:
        after: dict[int, Fraction] = {}
        for found, chance in reach.items():
            left = DICE - found
            if left == 0 or (weaker and not keep_hunting(found, left, margin, victim, precise)):
                ends[found] += chance
                continue
            for more in range(left + 1):
                p = chance * _binomial(left, more)
                if more == 0:
                    ends[0 if weaker else found] += p
                else:
                    after[found + more] = after.get(found + more, Fraction(0)) + p
        reach = after
    return tuple(ends)


@lru_cache(maxsize=4096)
def _attack_30s(margin: int, victim: int, points: int, precise: bool, weaker: bool) -> Attack:
    ends = _chain(margin, points, precise, weaker)
    damage = sum(
        (p * _counts(found, margin, points, precise) for found, p in enumerate(ends)), Fraction(0)
    )
    knockout = sum(
        (
            p
            for found, p in enumerate(ends)
            if found
            and (
                points + found * margin == THIRTY_S_LIMIT
                if precise
                else points + found * margin >= THIRTY_S_LIMIT
            )
        ),
        Fraction(0),
    )
    return Attack(victim, damage, knockout)


# -- the plan for a turn ----------------------------------------------------------------------


def plan(position: Position) -> Plan:
    """The payoff of every final total for the player whose turn it is (see the docstring).

    Only what the payoffs depend on goes into the cached work: the rules, the roller's own
    points where healing or precise elimination make them matter, and the points of the
    players it could attack.
    """
    roller = position.next_roller
    if roller is None:
        raise IllegalTurnError(gettext_noop("This game is over. Undo the last turn to change it."))
    rules = position.rules
    if not rules.counts_up:
        return _plan_thirty(rules, position.attacked(roller))
    mark = rules.beat_above
    seats = len(position.points)
    first = position.ask(mark + 1)
    heals = first is not None and first.step is Step.ACTION
    question = position.ask(mark + 1, heal=False)
    if question is not None and question.step is Step.TARGET:
        victims = tuple(seat for seat in question.options if isinstance(seat, int))
    else:
        victims = (position._next_in_play(roller + 1),)
    own = position.points[roller]
    if not rules.precise_elimination:
        own = min(own, DICE) if heals else 0
    candidates = tuple(
        (victim, position.points[victim], (victim - roller) % seats) for victim in victims
    )
    return _plan_30s(rules, own, heals, candidates)


@lru_cache(maxsize=64)
def _plan_thirty(rules: RuleSet, victim: int | None) -> Plan:
    mark = rules.beat_above
    payoffs: list[Fraction] = []
    attacks: dict[int, Attack | None] = {}
    for total in TOTALS:
        if total <= mark:
            cost = {"nothing": 0, "one": 1, "shortfall": mark - total}[rules.on_failure]
            payoffs.append(Fraction(-cost))
            continue
        margin = total - mark
        hunt_dice = margin if rules.hunt_dice == "margin" else DICE
        attack = None if victim is None else Attack(victim, Fraction(hunt_dice, SIDES), Fraction(0))
        attacks[total] = attack
        payoffs.append(attack.damage if attack else Fraction(0))
    return Plan(tuple(payoffs), attacks, {}, rules.set_aside)


@lru_cache(maxsize=4096)
def _plan_30s(
    rules: RuleSet, own: int, heals: bool, candidates: tuple[tuple[int, int, int], ...]
) -> Plan:
    """30s: `own` is the roller's points as far as they matter, `candidates` (seat, points,
    seats after the roller) the players it may attack."""
    mark = rules.beat_above
    payoffs: list[Fraction] = []
    attacks: dict[int, Attack | None] = {}
    heal: dict[int, bool] = {}
    for total in TOTALS:
        if total <= mark:
            shortfall = mark - total
            spared = rules.precise_elimination and own + shortfall >= THIRTY_S_LIMIT
            payoffs.append(Fraction(0 if spared else -shortfall))
            continue
        margin = total - mark
        attack = max(
            (
                _attack_30s(margin, seat, points, rules.precise_elimination, rules.weaker_attacks)
                for seat, points, _ in candidates
            ),
            key=lambda a: (
                a.knockout,
                a.damage,
                next(points for seat, points, _ in candidates if seat == a.victim),
                -next(after for seat, _, after in candidates if seat == a.victim),
            ),
        )
        attacks[total] = attack
        healing = Fraction(min(margin, own)) if heals else Fraction(0)
        heal[total] = healing > attack.damage
        payoffs.append(max(attack.damage, healing))
    return Plan(tuple(payoffs), attacks, heal, rules.set_aside)


@lru_cache(maxsize=256)
def _cumulative(payoffs: tuple[Fraction, ...], set_aside: odds.SetAside) -> tuple[int, ...]:
    running, out = 0, []
    for _, chance in odds._distribution(_solution(payoffs, set_aside)):
        running += int(chance * SIDES ** odds._triangle(DICE))
        out.append(running)
    return tuple(out)


def payoff_scale(payoffs: Sequence[Fraction]) -> int:
    """What the payoffs are multiplied by to be solved in whole numbers (`Plan.solution`)."""
    return lcm(*(p.denominator for p in payoffs))


@lru_cache(maxsize=256)
def _solution(payoffs: tuple[Fraction, ...], set_aside: odds.SetAside) -> odds._Solution:
    """Best play for these payoffs, scaled to whole numbers (the scale changes no choice)."""
    scale = payoff_scale(payoffs)
    return odds._solve(tuple(int(p * scale) for p in payoffs), set_aside)


# -- the choices a turn asks for ---------------------------------------------------------------


def choose_keep(
    roll: Sequence[int], kept: int, position: Position, turn_plan: Plan | None = None
) -> tuple[int, ...]:
    """The dice to set aside from `roll` (high to low), `kept` being what is already aside."""
    hand = tuple(sorted(roll, reverse=True))
    turn_plan = turn_plan or plan(position)
    return turn_plan.solution.keep(hand, kept)


def expected_payoff(position: Position) -> Fraction:
    """What a whole turn is worth to the roller with this policy, before the first roll."""
    return plan(position).value()


def roll_dice(rng: random.Random, count: int) -> list[int]:
    # randrange(6) + 1 draws exactly what randint(1, 6) draws, from the same bits, with less
    # work: the estimates roll hundreds of thousands of hunt dice.
    return [rng.randrange(SIDES) + 1 for _ in range(count)]


def play_turn(position: Position, rng: random.Random) -> Turn:
    """Roll and play a whole turn for the player whose turn it is; the turn it reports."""
    turn_plan = plan(position)
    left, kept = DICE, 0
    while left:
        keep = choose_keep(roll_dice(rng, left), kept, position, turn_plan)
        left -= len(keep)
        kept += sum(keep)
    return finish_turn(position, turn_plan, kept, rng)


def finish_turn(position: Position, turn_plan: Plan, total: int, rng: random.Random) -> Turn:
    """Everything after the total: heal or attack, whom, and the hunt, rolled with `rng`."""
    rules = position.rules
    if total <= rules.beat_above:
        return Turn(total)
    margin = total - rules.beat_above
    if turn_plan.heal.get(total):
        return Turn(total, heal=True)
    attack = turn_plan.attacks.get(total)
    target = attack.victim if attack is not None and rules.free_for_all else None
    if not rules.counts_up:
        hunt_dice = margin if rules.hunt_dice == "margin" else DICE
        hunt = roll_dice(rng, hunt_dice).count(margin)
        return Turn(total, hunt=hunt)
    assert attack is not None
    found, left = 0, DICE
    victim_points = position.points[attack.victim]
    while left:
        if rules.weaker_attacks and not keep_hunting(
            found, left, margin, victim_points, rules.precise_elimination
        ):
            break
        more = roll_dice(rng, left).count(margin)
        if more == 0:
            if rules.weaker_attacks:
                found = 0
            break
        found += more
        left -= more
    return Turn(total, hunt=found, target=target)


def rolled_action(turn: RolledTurn, turn_plan: Plan | None = None) -> Action:
    """The computer's next call in a turn with app-rolled dice: the same choices as
    `play_turn`, one step at a time, so that every phone can watch them."""
    position = turn.position
    asked = turn.ask()
    turn_plan = turn_plan or plan(position)
    if asked is Ask.KEEP:
        return Action(keep=choose_keep(turn.rolls[-1].dice, turn.kept_total, position, turn_plan))
    total = turn.total
    if asked is Ask.ACTION:
        assert total is not None
        return Action(heal=bool(turn_plan.heal.get(total)))
    if asked is Ask.TARGET:
        assert total is not None
        attack = turn_plan.attacks[total]
        assert attack is not None
        return Action(target=attack.victim, hunt=True)
    if asked is Ask.GO_ON:
        margin = turn.margin
        assert margin is not None and total is not None
        victim = turn.target
        if victim is None:
            victim = position._next_in_play(turn.roller + 1)
        go_on = keep_hunting(
            turn.found,
            DICE - turn.found,
            margin,
            position.points[victim],
            position.rules.precise_elimination,
        )
        return Action(hunt=True) if go_on else Action(stop=True)
    if asked is Ask.HUNT:
        return Action(hunt=True)
    return Action()


__all__ = [
    "Attack",
    "Plan",
    "choose_keep",
    "expected_payoff",
    "finish_turn",
    "keep_hunting",
    "plan",
    "play_turn",
    "rolled_action",
]
