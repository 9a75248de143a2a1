"""Skill and luck of a rolled turn (`games.rules.dice.analysis`): against hand-worked turns,
against the exact solver, and the luck of a roll against a Monte Carlo of the same roll."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.dice import Position, RuleSet, odds
from games.rules.dice import bot as dice_bot
from games.rules.dice.analysis import analyse, choices_worth, objective_of
from games.rules.dice.rolled import Action, Roll, RolledTurn, act
from tests.budget import examples
from tests.rules.test_properties import rule_sets
from tests.rules.test_rolled import random_action


def test_a_hand_worked_turn_of_thirty() -> None:
    """Six 6s fell and the player kept one: best was all six (a sure 36). Keeping one 6 and
    rolling five dice for more than 24 is worth the exact chance of that, no more."""
    position = Position.start(RuleSet(), 3)
    assert objective_of(position) == "beat"
    rolls = (Roll((6, 6, 6, 6, 6, 6), (6,)), Roll((1, 1, 1, 1, 1), (1, 1, 1, 1, 1)))
    turn = analyse(position, rolls)
    first, second = turn.decisions
    assert first.best == (6, 6, 6, 6, 6, 6) and first.value_best == 1
    assert first.value_chosen == odds.win_chance(5, 6)
    assert first.lost == 1 - odds.win_chance(5, 6)
    assert first.before == turn.start == odds.turn_odds().p_beat
    # Five 1s with a 6 kept: keeping them all ends the turn at 11; keeping one 1 and rolling
    # four dice for 24 (four 6s) still had a chance, which keeping all five gave away.
    assert second.best == (1,) and second.value_best == odds.win_chance(4, 7)
    assert second.value_chosen == 0 and second.lost == odds.win_chance(4, 7)
    assert turn.start + turn.luck - turn.lost == 0  # the turn ended below the target


@settings(max_examples=examples(200), deadline=None)
@given(
    rules=rule_sets,
    seed=st.integers(0, 2**32),
    points=st.lists(st.integers(0, 25), min_size=3, max_size=3),
)
def test_values_add_up_and_the_computer_gives_nothing_away(
    rules: RuleSet, seed: int, points: list[int]
) -> None:
    """Whatever the turn, the value it ended with is start + luck - lost, each choice gives
    away what the solver says, and the computer's own choices give away nothing."""
    start = Position.start(rules, 3)
    position = Position(rules, tuple(points) if rules.counts_up else start.points)
    if position.finished or position.next_roller is None:
        return
    rng = random.Random(seed)
    person, computer = RolledTurn(position), RolledTurn(position)
    plan = dice_bot.plan(position)

    def dice(_step: int, count: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(count)]

    while person.total is None:
        person = act(person, random_action(person, rng.choice), dice)
    while computer.total is None:
        computer = act(computer, dice_bot.rolled_action(computer, plan), dice)
    for turn in (person, computer):
        analysed = analyse(position, turn.rolls)
        final = plan.payoff(turn.kept_total)
        assert analysed.start + analysed.luck - analysed.lost == final
        for decision in analysed.decisions:
            worth = dict(choices_worth(position, decision.hand, decision.kept_before))
            assert decision.value_chosen == worth[decision.chosen]
            assert decision.value_best == max(worth.values())
    assert analyse(position, computer.rolls).lost == 0


def test_a_rolls_luck_is_zero_on_average_against_a_monte_carlo_of_the_same_roll() -> None:
    """Luck is what the dice brought against an average roll: over many rolls of the same
    dice from the same position, the best value after the roll averages the value before."""
    rng = random.Random(7)
    # 20,000 draws each (a tenth under `make test-fast`, with a margin as much wider as the
    # estimate's spread is: it shrinks with the square root of the draws).
    draws = examples(20_000)
    wider = math.sqrt(20_000 / draws)
    for rules, kept, dice in ((RuleSet(), 12, 4), (RuleSet.from_dict({"preset": "30s"}), 0, 6)):
        position = Position.start(rules, 3)
        # The same dice come up again and again (462 ways at most for six): each is valued
        # once and counted as often as it came, rather than valued again at every draw.
        hands = Counter(
            tuple(sorted((rng.randint(1, 6) for _ in range(dice)), reverse=True))
            for _ in range(draws)
        )
        best = {hand: choices_worth(position, hand, kept)[0] for hand in hands}
        total = sum((times * best[hand][1] for hand, times in hands.items()), Fraction(0))
        hand, (keep, _) = next(iter(best.items()))
        roll = Roll(hand, keep)
        before = analyse(position, (*_leading_to(kept, dice), roll)).decisions[-1].before
        spread = (0.02 if rules.counts_up is False else 0.15) * wider  # points vary more
        assert abs(float(total / draws) - float(before)) < spread


def _leading_to(kept: int, dice: int) -> tuple[Roll, ...]:
    """Rolls that leave `dice` dice in hand with `kept` set aside (for the position only)."""
    if dice == 6:
        return ()
    aside = 6 - dice
    faces = [kept // aside] * aside
    faces[0] += kept - sum(faces)
    return (Roll(tuple(faces) + (1,) * dice, tuple(faces)),)


def test_the_analysis_keeps_as_json_with_its_objective() -> None:
    position = Position.start(RuleSet.from_dict({"preset": "30s"}), 3)
    turn = RolledTurn(position)
    rng = random.Random(1)
    while turn.total is None:
        turn = act(
            turn,
            random_action(turn, rng.choice),
            lambda _s, n: [rng.randint(1, 6) for _ in range(n)],
        )
    kept = analyse(position, turn.rolls).to_json()
    assert kept["objective"] == "points" and len(kept["decisions"]) == len(turn.rolls)
    assert set(kept["decisions"][0]) == {
        "hand",
        "kept_before",
        "chosen",
        "best",
        "before",
        "chosen_value",
        "best_value",
    }
    assert Action() == Action()
