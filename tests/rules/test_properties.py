"""Invariants over thousands of random games of every rule set (hypothesis).

Each example draws a rule set, a table and a seed; the seed then plays a whole game by
answering the turn form's questions at random, so only answers the form offers are given.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import GameOverError
from games.rules.dice import DiceGame, Effect, Position, Row, RuleSet, Step, Turn
from tests.budget import examples

MAX_TURNS = 3000

thirty_rules = st.fixed_dictionaries(
    {"preset": st.just("thirty")},
    optional={
        "start_points": st.integers(1, 40),
        "target": st.integers(30, 35),
        "set_aside": st.sampled_from(["any", "one"]),
        "on_failure": st.sampled_from(["nothing", "one", "shortfall"]),
        "empty_seat": st.sampled_from(["carry", "lost"]),
        "hunt_dice": st.sampled_from(["six", "margin"]),
    },
)
thirty_s_rules = st.fixed_dictionaries(
    {"preset": st.just("30s")},
    optional={
        "end": st.sampled_from(["last_standing", "first_out"]),
        "healing": st.booleans(),
        "free_for_all": st.booleans(),
        "weaker_attacks": st.booleans(),
        "precise_elimination": st.booleans(),
    },
)
rule_sets = (
    st.one_of(thirty_rules, thirty_s_rules)
    # Precise elimination never lets anyone pass 30, so the shorter game could not end.
    .filter(lambda d: not (d.get("precise_elimination") and d.get("end") == "first_out"))
    .map(RuleSet.from_dict)
)


def random_turn(position: Position, rng: random.Random) -> Turn:
    """Answer the form's questions at random, favouring totals that beat the mark."""
    total = rng.choice([rng.randint(6, 36), rng.randint(position.rules.beat_above, 36)])
    heal: bool | None = None
    target: int | None = None
    hunt: int | None = None
    while (question := position.ask(total, heal, target)) is not None:
        answer = rng.choice(question.options)
        if question.step is Step.ACTION:
            heal = answer == "heal"
        elif question.step is Step.TARGET:
            assert isinstance(answer, int)
            target = answer
        else:
            assert question.step is Step.HUNT and isinstance(answer, int)
            hunt = answer
            break
    return Turn(total, hunt, target, bool(heal))


def play_out(rules: RuleSet, players: int, seed: int) -> DiceGame:
    game, rng = DiceGame(rules, players), random.Random(seed)
    while not game.position.finished and len(game.rows) < MAX_TURNS:
        before = game.position
        row = game.push(random_turn(before, rng))
        check_turn(before, row, game.position)
    return game


def check_turn(before: Position, row: Row, after: Position) -> None:
    seats = range(len(before.points))
    # Out players never roll and never take damage.
    assert not before.is_out(row.roller)
    assert all(row.cells[seat] == 0 for seat in seats if before.is_out(seat))
    # Only the roller and at most one victim are written to.
    assert sum(1 for value in row.cells if value) <= 1
    # At most one player goes out per turn.
    newly_out = [seat for seat in seats if after.is_out(seat) and not before.is_out(seat)]
    assert len(newly_out) <= 1
    # Nobody comes back in.
    assert all(after.is_out(seat) for seat in seats if before.is_out(seat))
    if before.rules.counts_up:
        # Healing never takes a player below nothing.
        assert min(after.points) >= 0
        if before.rules.precise_elimination:
            # Nobody ever passes 30, and only an attack landing exactly on 30 puts anyone out.
            assert max(after.points) <= 30
            for seat in newly_out:
                assert row.effect is Effect.HIT and seat == row.victim != row.roller
                assert after.points[seat] == 30
    elif (
        before.rules.empty_seat == "lost"
        and before.rules.on_failure != "nothing"
        and row.effect in (Effect.HIT, Effect.LOST)
    ):
        # Damage lost at an empty seat never carries on when failed turns cost something.
        assert row.victim == (row.roller + 1) % len(before.points)
    if after.finished:
        assert after.next_roller is None
    else:
        assert after.next_roller is not None and not after.is_out(after.next_roller)


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None)
@given(rules=rule_sets, players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(rules: RuleSet, players: int, seed: int) -> None:
    game = play_out(rules, players, seed)
    position = game.position
    # The points follow from the cells.
    sign = 1 if rules.counts_up else -1
    start = Position.start(rules, players).points
    for seat in range(players):
        assert position.points[seat] == start[seat] + sign * sum(
            row.cells[seat] for row in game.rows
        )
    assert position == Position.from_cell_sums(
        rules,
        [sum(row.cells[seat] for row in game.rows) for seat in range(players)],
        game.rows[-1].roller,
    )
    # Random play always ends well inside the bound, and exactly once.
    assert position.finished
    try:
        position.play(Turn(20))
    except GameOverError:
        pass
    else:
        raise AssertionError("a finished game accepted another turn")
    if rules.counts_up and rules.end == "first_out":
        # The game ends as soon as anyone goes above 30; the fewest points win, ties shared.
        assert any(points > 30 for points in position.points)
        before_last = DiceGame(rules, players, game.rows[:-1]).position
        assert all(points <= 30 for points in before_last.points)
        assert position.winners == tuple(
            seat for seat in range(players) if position.points[seat] == min(position.points)
        )
    else:
        # The game ends exactly when one player is left, and that player wins.
        assert len(position.in_play) == 1 and position.winners == position.in_play
        assert len(DiceGame(rules, players, game.rows[:-1]).position.in_play) == 2


@settings(max_examples=examples(300), deadline=None)
@given(
    rules=rule_sets, players=st.integers(2, 6), seed=st.integers(0, 2**32), undo=st.integers(1, 40)
)
def test_undo_restores_exactly_the_earlier_position(
    rules: RuleSet, players: int, seed: int, undo: int
) -> None:
    game = play_out(rules, players, seed)
    undo = min(undo, len(game.rows))
    expected = DiceGame(rules, players, game.rows[: len(game.rows) - undo]).position
    for _ in range(undo):
        game.pop()
    assert game.position == expected
