"""Exact odds for one turn of Thirty.

A turn: roll six dice. After each roll set aside at least one die at the value it shows
(rule "any": any number of the dice just rolled, at least one; rule "one": exactly one),
then roll the rest again, until all six dice are set aside. The turn beats the target when
the six kept dice add up to more than the target.

The odds come from dynamic programming over positions (dice left to roll, sum kept so far).
The value of a position before rolling is the chance of beating the target with best play
from there; with no dice left it is 1 if the sum beats the target and 0 otherwise. The
solver (`_solve`) is general: it maximises the expected payoff of the final total for any
whole-number payoffs, which is also what the computer's dice policy uses (`dice_bot`).

Why this is fast (a cold turn_odds for any target 30..35 takes well under 200 ms, and a
hint for one roll well under a millisecond; `make bench` measures both):

- a position is only (dice left 0..6, sum kept 0..36), so there are 81 of them to solve;
- a roll of n dice is taken as a multiset with the number of ordered rolls that show it,
  so six dice give 462 rolls instead of 46,656;
- a set-aside matters only through how many dice it keeps and what they add up to, so the
  few dozen such (count, sum) options of a position are ranked once, and each roll just
  picks its best-ranked option: an integer look-up. A roll's options are built from the
  same roll without its first die, not by listing every set-aside;
- values are exact whole numbers: every chance on the way has a power of 6 for its
  denominator, so a position with d dice in hand is worth an integer over 6 ** (d + ... + 1).
  Fractions appear only in what the functions return.

When several choices are equally good the order is fixed: higher chance first, then the
higher sum kept, then fewer dice kept, then the higher dice first (so (6, 1) comes before
(5, 2)). The same order picks the move when the distribution of final totals is worked
out, so `turn_odds(...).totals` is what a player following `best_keep` gets. In a hopeless
position every choice is worth 0, and the order then keeps as much as possible.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product
from math import factorial, prod
from typing import Literal, TypeGuard

from ..errors import InvalidRulesError, gettext_noop

SetAside = Literal["any", "one"]

DICE = 6
SIDES = 6
LOWEST_TOTAL = DICE
HIGHEST_TOTAL = DICE * SIDES

Option = tuple[int, int]
"""A set-aside as far as the odds care: (how many dice, what they add up to)."""


@dataclass(frozen=True)
class TurnOdds:
    """The odds of a whole turn under the play that gives the best chance to beat the target."""

    p_beat: Fraction
    """Chance that the final total is greater than the target."""
    totals: dict[int, Fraction]
    """Chance of each final total, 6 to 36 (every total present, zeros included)."""


@dataclass(frozen=True)
class KeepChoice:
    """One way to set dice aside from a roll, and what it is worth."""

    keep: tuple[int, ...]
    """The dice set aside, high to low."""
    p_beat: Fraction
    """Chance of beating the target after setting these aside and playing best afterwards."""


def turn_odds(target: int = 30, set_aside: SetAside = "any") -> TurnOdds:
    """The chance to beat `target` in a turn, and the distribution of the final total."""
    _check_set_aside(set_aside)
    bar = _bar(target)
    return TurnOdds(
        p_beat=_value(DICE, 0, bar, set_aside),
        totals=dict(_final_totals(bar, set_aside)),
    )


def keep_choices(
    roll: tuple[int, ...] | list[int],
    kept: int = 0,
    target: int = 30,
    set_aside: SetAside = "any",
) -> list[KeepChoice]:
    """Every distinct legal set-aside from `roll`, best first.

    `roll` is the dice just rolled (1 to 6 of them) and `kept` what the dice already set
    aside add up to. Ties are ordered as described in the module docstring.
    """
    _check_set_aside(set_aside)
    bar = _bar(target)
    hand = _hand(roll)
    _check_kept(len(hand), kept)
    return list(_choices(hand, kept, bar, set_aside))


def best_keep(
    roll: tuple[int, ...] | list[int],
    kept: int = 0,
    target: int = 30,
    set_aside: SetAside = "any",
) -> tuple[int, ...]:
    """The dice to set aside from `roll` for the best chance to beat `target`, high to low."""
    return keep_choices(roll, kept, target, set_aside)[0].keep


def keep_options(hand: tuple[int, ...], set_aside: SetAside = "any") -> tuple[tuple[int, ...], ...]:
    """Every distinct legal set-aside from `hand` (dice high to low), each high to low."""
    return _keeps(hand, set_aside)


def win_chance(
    dice_left: int, kept: int, target: int = 30, set_aside: SetAside = "any"
) -> Fraction:
    """Chance to beat `target` with best play, before rolling the `dice_left` dice in hand."""
    _check_set_aside(set_aside)
    bar = _bar(target)
    if not _is_int(dice_left) or not 0 <= dice_left <= DICE:
        raise InvalidRulesError(
            gettext_noop("A turn has from 0 to 6 dice left to roll, not %(count)s."),
            count=dice_left,
        )
    _check_kept(dice_left, kept)
    return _value(dice_left, kept, bar, set_aside)


# Validation.


def _is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not True or False (which Python also counts as numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_set_aside(set_aside: object) -> None:
    if set_aside not in ("any", "one"):
        raise InvalidRulesError(
            gettext_noop(
                'Dice are set aside either "any" (as many as you like, at least one, per roll)'
                ' or "one" (exactly one per roll), not "%(value)s".'
            ),
            value=set_aside,
        )


def _bar(target: object) -> int:
    """The target as the odds see it: every target below 6 or above 36 acts like 5 or 36."""
    if not _is_int(target):
        raise InvalidRulesError(
            gettext_noop("The target is a whole number, not %(value)s."), value=target
        )
    return min(max(target, LOWEST_TOTAL - 1), HIGHEST_TOTAL)


def _hand(roll: object) -> tuple[int, ...]:
    """The roll checked and sorted high to low."""
    if not isinstance(roll, tuple | list) or not 1 <= len(roll) <= DICE:
        count = len(roll) if isinstance(roll, tuple | list) else roll
        raise InvalidRulesError(
            gettext_noop("A roll has from 1 to 6 dice, not %(count)s."), count=count
        )
    for value in roll:
        if not _is_int(value) or not 1 <= value <= SIDES:
            raise InvalidRulesError(
                gettext_noop("A die shows a number from 1 to 6, not %(value)s."), value=value
            )
    return tuple(sorted(roll, reverse=True))


def _check_kept(dice_left: int, kept: object) -> None:
    aside = DICE - dice_left
    if _is_int(kept) and aside <= kept <= aside * SIDES:
        return
    if aside == 0:
        raise InvalidRulesError(
            gettext_noop("Before any die is set aside the kept dice add up to 0, not %(kept)s."),
            kept=kept,
        )
    raise InvalidRulesError(
        gettext_noop(
            "The %(aside)s dice already set aside add up to between %(low)s and %(high)s,"
            " not %(kept)s."
        ),
        aside=aside,
        low=aside,
        high=aside * SIDES,
        kept=kept,
    )


# The odds. Every function below takes checked arguments, with the target as given by `_bar`.


def _triangle(dice: int) -> int:
    """How many dice a turn can still roll from `dice` in hand at most: dice + ... + 1."""
    return dice * (dice + 1) // 2


def _code(count: int, total: int) -> int:
    """An option as one small integer, so that look-ups are list indexing."""
    return count * 64 + total


@cache
def _rolls(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of `dice` dice as (faces high to low, number of ordered rolls showing it)."""
    return tuple(
        (faces, factorial(dice) // prod(factorial(n) for n in Counter(faces).values()))
        for faces in combinations_with_replacement(range(SIDES, 0, -1), dice)
    )


@cache
def _keeps(hand: tuple[int, ...], set_aside: SetAside) -> tuple[tuple[int, ...], ...]:
    """Every distinct legal set-aside from a roll sorted high to low, each high to low."""
    if set_aside == "one":
        return tuple((face,) for face in sorted(set(hand), reverse=True))
    counts = sorted(Counter(hand).items(), reverse=True)
    keeps = (
        tuple(face for (face, _), taken in zip(counts, how_many, strict=True) for _ in range(taken))
        for how_many in product(*(range(n + 1) for _, n in counts))
    )
    return tuple(keep for keep in keeps if keep)


@cache
def _options(hand: tuple[int, ...], set_aside: SetAside) -> frozenset[int]:
    """The (count, sum) options of a roll high to low, as codes.

    Built from the same roll without its first die (codes add up, so keeping that die as
    well adds its code), which is itself a roll of one die fewer and already worked out.
    """
    first = _code(1, hand[0])
    if set_aside == "one":
        return frozenset(_code(1, face) for face in hand)
    if len(hand) == 1:
        return frozenset((first,))
    rest = _options(hand[1:], set_aside)
    return rest | {code + first for code in rest} | {first}


@cache
def _roll_options(dice: int, set_aside: SetAside) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For every roll of `dice` dice: how many ordered rolls show it, and its option codes."""
    return tuple((ways, tuple(_options(faces, set_aside))) for faces, ways in _rolls(dice))


@dataclass(frozen=True)
class _Solution:
    """Best play for one payoff of the final total, as exact scaled integers.

    `worth[dice][kept]` is the expected payoff with best play before rolling `dice` dice with
    `kept` set aside, times 6 ** _triangle(dice) (every chance on the way has a power of 6 for
    its denominator, so this is a whole number when the payoffs are). `moves[dice][kept]` says
    for each option how many of the 6 ** dice ordered rolls best play takes it on.
    """

    worth: tuple[dict[int, int], ...]
    moves: tuple[dict[int, Counter[int]], ...]
    picks: tuple[dict[int, tuple[int, ...]], ...]
    """`picks[dice][kept][i]`: the option best play takes on the i-th roll of `_rolls(dice)`."""

    def value(self, dice: int, kept: int) -> Fraction:
        return Fraction(self.worth[dice][kept], SIDES ** _triangle(dice))

    def keep(self, hand: tuple[int, ...], kept: int) -> tuple[int, ...]:
        """The dice best play sets aside from `hand` (sorted high to low): of the dice that
        make the chosen (count, sum), the highest first, as `_choices` orders ties."""
        count, total = divmod(self.picks[len(hand)][kept][_roll_index(len(hand))[hand]], 64)
        return _keep_for(hand, count, total)


@cache
def _roll_index(dice: int) -> dict[tuple[int, ...], int]:
    return {faces: place for place, (faces, _) in enumerate(_rolls(dice))}


@cache
def _keep_for(hand: tuple[int, ...], count: int, total: int) -> tuple[int, ...]:
    return min(
        (keep for keep in _keeps(hand, "any") if len(keep) == count and sum(keep) == total),
        key=lambda keep: tuple(-face for face in keep),
    )


@lru_cache(maxsize=64)
def _solve(payoffs: tuple[int, ...], set_aside: SetAside) -> _Solution:
    """Best play, by backward induction, for whole-number payoffs of the totals 6..36.

    Positions are solved from one die in hand up to six. Each position ranks its few dozen
    (count, sum) options once, best first (ties as the module docstring says), and each roll
    then takes its best-ranked option by integer look-up.
    """
    worth: list[dict[int, int]] = [
        {kept: payoffs[kept - LOWEST_TOTAL] for kept in range(LOWEST_TOTAL, HIGHEST_TOTAL + 1)}
    ]
    moves: list[dict[int, Counter[int]]] = [{}]
    picks: list[dict[int, tuple[int, ...]]] = [{}]
    most = DICE if set_aside == "any" else 1
    for dice in range(1, DICE + 1):
        aside = DICE - dice
        scale = _triangle(dice - 1)
        worth.append({})
        moves.append({})
        picks.append({})
        rolls = _roll_options(dice, set_aside)
        for kept in range(aside, aside * SIDES + 1):
            score: dict[int, int] = {}
            for count in range(1, min(dice, most) + 1):
                lift = SIDES ** (scale - _triangle(dice - count))
                after = worth[dice - count]
                for total in range(count, count * SIDES + 1):
                    score[_code(count, total)] = after[kept + total] * lift
            ranked = sorted(score, key=lambda code: (-score[code], -(code % 64), code // 64))
            rank = [0] * (_code(DICE, HIGHEST_TOTAL) + 1)
            for place, code in enumerate(ranked):
                rank[code] = place
            chosen: Counter[int] = Counter()
            pick = tuple(min(options, key=rank.__getitem__) for _, options in rolls)
            for (ways, _), code in zip(rolls, pick, strict=True):
                chosen[code] += ways
            moves[dice][kept] = chosen
            picks[dice][kept] = pick
            worth[dice][kept] = sum(ways * score[code] for code, ways in chosen.items())
    return _Solution(tuple(worth), tuple(moves), tuple(picks))


def _beat_payoffs(bar: int) -> tuple[int, ...]:
    return tuple(int(total > bar) for total in range(LOWEST_TOTAL, HIGHEST_TOTAL + 1))


@cache
def _beat(bar: int, set_aside: SetAside) -> _Solution:
    """Best play for the chance of beating `bar`: kept for good, whatever else is solved."""
    return _solve(_beat_payoffs(bar), set_aside)


def _value(dice_left: int, kept: int, bar: int, set_aside: SetAside) -> Fraction:
    """Chance to beat `bar` with best play from a position before rolling."""
    return _beat(bar, set_aside).value(dice_left, kept)


def _distribution(solution: _Solution) -> tuple[tuple[int, Fraction], ...]:
    """Chance of each final total 6..36 under best play, pushed forward from the first roll.

    The chance of reaching a position with `dice` in hand is kept as a whole number times
    6 ** -(_triangle(6) - _triangle(dice)), so the whole pass is integer arithmetic.
    """
    full = _triangle(DICE)
    reach: list[dict[int, int]] = [{} for _ in range(DICE + 1)]
    reach[DICE][0] = 1
    for dice in range(DICE, 0, -1):
        for kept, chance in reach[dice].items():
            for code, ways in solution.moves[dice][kept].items():
                count, total = divmod(code, 64)
                lift = SIDES ** (_triangle(dice - 1) - _triangle(dice - count))
                after = reach[dice - count]
                after[kept + total] = after.get(kept + total, 0) + chance * ways * lift
    return tuple(
        (total, Fraction(reach[0].get(total, 0), SIDES**full))
        for total in range(LOWEST_TOTAL, HIGHEST_TOTAL + 1)
    )


@cache
def _final_totals(bar: int, set_aside: SetAside) -> tuple[tuple[int, Fraction], ...]:
    return _distribution(_beat(bar, set_aside))


@cache
def _choices(
    hand: tuple[int, ...], kept: int, bar: int, set_aside: SetAside
) -> tuple[KeepChoice, ...]:
    solution = _beat(bar, set_aside)
    dice = len(hand)
    ranked = []
    for keep in _keeps(hand, set_aside):
        left, after = dice - len(keep), kept + sum(keep)
        # Worth on one scale for every choice (6 ** _triangle(dice - 1)): integers compare fast.
        worth = solution.worth[left][after] * SIDES ** (_triangle(dice - 1) - _triangle(left))
        ranked.append((-worth, -sum(keep), len(keep), tuple(-face for face in keep), keep))
    ranked.sort()
    choices = [
        KeepChoice(keep, solution.value(dice - len(keep), kept + sum(keep))) for *_, keep in ranked
    ]
    return tuple(choices)
