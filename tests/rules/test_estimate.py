"""The game-length estimate: the same figures every time, and the right ones.

The percentiles are checked against a length worked out exactly (a geometric game) and
against a simple simulation of default Thirty written here from the rules alone, with real
dice, the best set-aside of `odds` and its own seed."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.dice import Position, RuleSet, odds
from games.rules.dice import bot as dice_bot
from games.rules.dice import estimate as estimates
from games.rules.dice.estimate import Estimate, estimate, percentile, remaining, simulate


def test_the_same_rules_give_the_same_figures_from_fresh_games() -> None:
    rules = RuleSet.from_dict({"preset": "30s", "end": "first_out"})
    first = simulate(rules, 3)
    again = simulate(rules, 3)  # played again from the seed, not read from a cache
    assert first == again and first.games == estimates.GAMES
    assert estimate(rules, 3) == first
    assert first.low <= first.median <= first.high


def test_a_figure_does_not_depend_on_the_machine_but_on_the_games_played() -> None:
    # Long games stop at a number of simulated turns, never at a time.
    rules = RuleSet.from_dict({"start_points": 3})
    some = simulate(rules, 2, games=1000, turns=500)
    assert some == simulate(rules, 2, games=1000, turns=500)
    assert some.games < 1000 and some.games * some.mean >= 500
    assert simulate(rules, 2, games=40) == simulate(rules, 2, games=40, turns=None)


def test_two_players_on_one_point_play_a_geometric_game() -> None:
    # Each turn ends the game when the roller beats 30 and the hunt finds at least one die,
    # so the length is geometric and every percentile is known exactly.
    p_end = float(odds.turn_odds().p_beat * (1 - Fraction(5, 6) ** 6))

    def exact(share: float) -> int:
        return math.ceil(math.log(1 - share) / math.log(1 - p_end) - 1e-9)

    found = estimate(RuleSet.from_dict({"start_points": 1}), 2)
    assert found.games == estimates.GAMES
    # The share of games at most this long, within three standard errors of the share.
    error = 3 * math.sqrt(0.1 * 0.9 / found.games)
    for figure, share in ((found.low, 0.1), (found.median, 0.5), (found.high, 0.9)):
        below = 1 - (1 - p_end) ** figure
        above = 1 - (1 - p_end) ** (figure - 1)
        assert above - error <= share <= below + error, (figure, exact(share))
    assert abs(found.mean * p_end - 1) <= 0.1


def simple_thirty(players: int, start: int, rng: random.Random) -> int:
    """Default Thirty from the rules alone: roll, set aside the best dice, hunt with six."""
    points = [start] * players
    roller, turns = 0, 0
    while sum(p > 0 for p in points) > 1:
        left, kept = 6, 0
        while left:
            keep = odds.best_keep(
                sorted((rng.randint(1, 6) for _ in range(left)), reverse=True), kept
            )
            left, kept = left - len(keep), kept + sum(keep)
        if kept > 30:
            victim = next(
                seat % players
                for seat in range(roller + 1, roller + players)
                if points[seat % players] > 0
            )
            points[victim] -= sum(rng.randint(1, 6) == kept - 30 for _ in range(6))
        turns += 1
        roller = next(
            seat % players
            for seat in range(roller + 1, roller + players + 1)
            if points[seat % players] > 0
        )
    return turns


@pytest.mark.slow
def test_the_percentiles_match_a_simple_simulation_with_other_dice() -> None:
    rules = RuleSet.from_dict({"start_points": 10})
    found = estimate(rules, 3)
    rng = random.Random("another stream")
    lengths = sorted(simple_thirty(3, 10, rng) for _ in range(1000))
    mine = Estimate.of(lengths)
    # Two samples of 1,000 games: their percentiles differ by about 1.5 % of a length.
    for theirs, ours in (
        (found.low, mine.low),
        (found.median, mine.median),
        (found.high, mine.high),
    ):
        assert abs(theirs - ours) <= max(2, 0.06 * ours), (found, mine)


def test_games_still_going_at_the_limit_count_at_the_limit() -> None:
    rules = RuleSet.from_dict({"target": 35, "set_aside": "one"})
    found = simulate(rules, 4, games=12, turns=None)
    assert found.high == estimates.MAX_TURNS and found.endless


@given(st.lists(st.integers(1, 400), min_size=1, max_size=60), st.floats(0.01, 0.99))
def test_a_percentile_is_a_length_with_that_share_of_games_at_most_as_long(
    lengths: list[int], share: float
) -> None:
    ordered = sorted(lengths)
    figure = percentile(ordered, share)
    assert figure in ordered
    assert sum(length <= figure for length in ordered) >= share * len(ordered) - 1e-9
    assert sum(length < figure for length in ordered) < share * len(ordered) + 1e-9


def test_the_time_to_go_is_seeded_and_shrinks_as_the_game_goes_on() -> None:
    rules = RuleSet.from_dict({"start_points": 10})
    everyone = frozenset(range(4))
    start = Position.start(rules, 4)
    assert remaining(start, everyone) == remaining.__wrapped__(start, everyone)
    # From the start, what is left is a whole game.
    assert abs(remaining(start, everyone) / estimate(rules, 4).mean - 1) <= 0.1
    # Near the end (one point left for all but one), little is left.
    late = Position(rules, (1, 1, 1, 10), last_roller=3)
    assert remaining(late, everyone) < remaining(start, everyone) / 5
    # Only the turns of the seats asked about count: two of four roll about half the turns.
    half = remaining(start, frozenset({0, 1}))
    assert abs(half / remaining(start, everyone) - 0.5) <= 0.05


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 60), st.integers(0, 2**32))
def test_the_time_to_go_never_grows_by_much_within_a_game(turns: int, seed: int) -> None:
    """The same seeded games from every position: the figure moves with the game."""
    rules = RuleSet.from_dict({"preset": "30s"})
    everyone = frozenset(range(3))
    position = Position.start(rules, 3)
    rng = random.Random(seed)
    before = remaining(position, everyone)
    for _ in range(turns):
        if position.finished:
            break
        position = position.after(position.play(dice_bot.play_turn(position, rng)))
        now = remaining(position, everyone) if not position.finished else 0.0
        assert now <= before + 4
        before = now


def test_minutes_at_a_stated_pace() -> None:
    assert estimates.minutes(45) == 30
    assert estimates.minutes(45, 20) == 15


def test_the_version_names_the_code_and_the_numbers() -> None:
    assert estimates.version() == estimates.version.__wrapped__()
    assert len(estimates.version()) == 16
