"""The game-length estimate: seeded, and checked against a length worked out exactly."""

from __future__ import annotations

from fractions import Fraction

from games.rules.dice import RuleSet, odds
from games.rules.dice.estimate import Estimate, estimate, simulate


def test_two_players_on_one_point_play_a_geometric_game() -> None:
    # Each turn ends the game when the roller beats 30 and the hunt finds at least one die.
    p_end = odds.turn_odds().p_beat * (1 - Fraction(5, 6) ** 6)
    exact = 1 / float(p_end)
    rules = RuleSet.from_dict({"start_points": 1})
    long = simulate(rules, 2, games=20_000, seed=7)
    assert abs(long.turns / exact - 1) <= 0.02
    assert abs(long.turns - exact) <= 4 * long.error
    quick = estimate(rules, 2)
    assert abs(quick.turns / exact - 1) <= 4 * quick.error / exact + 0.005


def test_the_estimate_is_seeded_and_cached() -> None:
    rules = RuleSet.from_dict({"preset": "30s", "end": "first_out"})
    first = estimate(rules, 3)
    assert first is estimate(rules, 3)
    assert simulate(rules, 3, games=50, seed=1) == simulate(rules, 3, games=50, seed=1)
    assert first.error <= 0.01 * first.turns or first.games >= 100


def test_minutes_at_a_stated_pace() -> None:
    assert Estimate(45, 1, 100).minutes() == 30
    assert Estimate(45, 1, 100).minutes(20) == 15
