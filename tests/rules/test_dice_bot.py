"""The computer's dice policy: hand-worked choices, legality over random games, and its
expected worth checked against an independent Monte Carlo estimate."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.dice import DiceGame, Position, RuleSet, Turn, odds
from games.rules.dice import bot as dice_bot
from tests.budget import examples
from tests.rules.test_properties import rule_sets

A, B, C = range(3)


def position(players: int, points: tuple[int, ...] | None = None, **rules: object) -> Position:
    ruleset = RuleSet.from_dict(rules)
    start = Position.start(ruleset, players)
    return start if points is None else Position(ruleset, points, start.last_roller)


# Hand-worked choices.


def test_default_thirty_plays_exactly_the_odds_best_keep() -> None:
    here = position(4, preset="thirty")
    rng = random.Random(12)
    for _ in range(500):
        left = rng.randint(1, 6)
        roll = [rng.randint(1, 6) for _ in range(left)]
        kept = sum(rng.randint(1, 6) for _ in range(6 - left))
        assert dice_bot.choose_keep(roll, kept, here) == odds.best_keep(roll, kept)
    assert dice_bot.expected_payoff(here) == odds.turn_odds().p_beat


def test_thirty_with_margin_hunt_dice_maximises_expected_hits() -> None:
    # Two dice left, 24 kept: keeping 6 and 1 is a sure 31, a win by 1 (one hunt die, 1/6
    # of a hit). Keeping the 6 alone and rolling the last die wins by 1..6 for 7/12 of a hit
    # on average: better, although it risks nothing more (30 + a die always beats 30).
    here = position(3, preset="thirty", hunt_dice="margin")
    assert dice_bot.choose_keep((6, 1), 24, here) == (6,)
    assert dice_bot.plan(here).payoff(36) == 1


def test_30s_keeps_the_six_and_rolls_for_a_bigger_margin() -> None:
    # 24 kept and 6, 1 rolled: 31 attacks with margin 1; keeping the 6 and rolling the last die
    # attacks with margin 1 to 6, worth 3.5 times as much.
    assert dice_bot.choose_keep((6, 1), 24, position(3, preset="30s")) == (6,)


def test_30s_chain_sets_aside_one_and_three_quarter_dice_on_average() -> None:
    # E(n) = sum_j P(j of n show the margin) * (j + E(n - j)), with E(0) = 0, worked out exactly.
    @cache
    def expected(n: int) -> Fraction:
        return sum(
            (
                Fraction(math.comb(n, j) * 5 ** (n - j), 6**n) * (j + expected(n - j))
                for j in range(1, n + 1)
            ),
            Fraction(0),
        )

    ends = dice_bot._chain(3, 0, False, False)
    assert sum(ends) == 1
    assert sum(found * p for found, p in enumerate(ends)) == expected(6)
    assert f"{float(expected(6)):.4f}" == "1.7677"


def test_precise_elimination_heals_when_no_attack_can_land_exactly() -> None:
    # Ben on 29: a margin of 6 passes 30 with any die found, so the attack is worth nothing
    # and Anna heals 6 instead.
    here = position(2, (10, 29), preset="30s", healing=True, precise_elimination=True)
    turn_plan = dice_bot.plan(here)
    assert turn_plan.heal[36] and turn_plan.payoff(36) == 6
    # A margin of 1 lands exactly only if the whole chain finds one die: worth less than a
    # sure heal of 1.
    attack = turn_plan.attacks[31]
    assert attack is not None and 0 < attack.damage < 1
    assert turn_plan.heal[31] and turn_plan.payoff(31) == 1


def test_free_for_all_attacks_the_player_it_can_knock_out() -> None:
    here = position(3, (0, 24, 10), preset="30s", free_for_all=True, precise_elimination=True)
    attack = dice_bot.plan(here).attacks[36]
    assert attack is not None and attack.victim == B and attack.knockout > 0
    # Without precise elimination, the player closest to 30 is the likeliest knock-out.
    here = position(3, (0, 5, 29), preset="30s", free_for_all=True)
    attack = dice_bot.plan(here).attacks[31]
    assert attack is not None and attack.victim == C


def test_weaker_attacks_stop_on_exactly_thirty_under_precise_elimination() -> None:
    # Victim on 24, margin 3, two dice found: 6 points land exactly on 30. Stop.
    assert not dice_bot.keep_hunting(2, 4, 3, 24, precise=True)
    # Before the first hunt roll there is nothing to keep: it always rolls.
    assert dice_bot.keep_hunting(0, 6, 3, 24, precise=True)
    # With nothing at stake past 30, a big chain is worth rolling on for.
    assert dice_bot.keep_hunting(1, 5, 6, 0, precise=False)


# Legality over random games of every rule set.


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None)
@given(rules=rule_sets, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_computer_only_ever_makes_legal_moves(rules: RuleSet, players: int, seed: int) -> None:
    game, rng = DiceGame(rules, players), random.Random(seed)
    while not game.position.finished and len(game.rows) < 40:
        here = game.position
        turn_plan = dice_bot.plan(here)
        left, kept = 6, 0
        while left:
            roll = [rng.randint(1, 6) for _ in range(left)]
            keep = dice_bot.choose_keep(roll, kept, here, turn_plan)
            assert keep and not Counter(keep) - Counter(roll)
            assert rules.set_aside == "any" or len(keep) == 1
            left, kept = left - len(keep), kept + sum(keep)
        game.push(dice_bot.play_turn(here, rng))  # refused if illegal


# Monte Carlo: what the policy expects a turn to be worth is what it gets.


def turn_worth(here: Position, turn: Turn) -> int:
    """What a played turn was worth to the roller, counted from the cells it wrote."""
    row = here.play(turn)
    roller = row.roller
    if here.rules.counts_up:
        given_away = sum(cell for seat, cell in enumerate(row.cells) if seat != roller)
        return given_away - row.cells[roller]
    return sum(row.cells) - 2 * row.cells[roller]


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        ({"preset": "30s"}, 1),
        ({"preset": "thirty", "hunt_dice": "margin", "on_failure": "shortfall"}, 2),
        ({"preset": "30s", "weaker_attacks": True, "set_aside": "one"}, 3),
    ],
)
def test_a_turn_is_worth_what_the_policy_expects(rules: dict[str, object], seed: int) -> None:
    here = position(3, None, **rules)
    rng = random.Random(seed)
    turns = examples(20_000)  # the bound is in standard errors: it widens with fewer turns
    worth = [turn_worth(here, dice_bot.play_turn(here, rng)) for _ in range(turns)]
    mean = sum(worth) / turns
    spread = math.sqrt(sum((w - mean) ** 2 for w in worth) / (turns - 1))
    # Thirty counts hits (1 each); margin hunts are worth m/6 of one, so the row's cells
    # count whole hits: the same expectation.
    expected = float(dice_bot.expected_payoff(here))
    assert abs(mean - expected) <= 4 * spread / math.sqrt(turns), (mean, expected)


@pytest.mark.parametrize(("rule", "seed"), [("any", 41), ("one", 42)])
def test_the_30s_totals_on_the_chances_page_come_up_as_often_as_predicted(
    rule: str, seed: int
) -> None:
    here = position(4, None, preset="30s", set_aside=rule)
    totals = dict(odds._distribution(dice_bot.plan(here).solution))
    rng = random.Random(seed)
    turns = examples(20_000)
    played = Counter(dice_bot.play_turn(here, rng).total for _ in range(turns))
    for chance, count in (
        (
            sum(p for total, p in totals.items() if total > 30),
            sum(played[t] for t in range(31, 37)),
        ),
        (totals[30], played[30]),
    ):
        error = math.sqrt(float(chance) * (1 - float(chance)) / turns)
        assert abs(count / turns - float(chance)) <= 4 * error, (count / turns, float(chance))
