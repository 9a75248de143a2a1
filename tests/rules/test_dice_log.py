"""The dice games' move log (games/rules/dice/log.py): every move written and read back the
same, through JSON, and a game replayed from its logged moves alone, with no seed, writes the
same rows and leaves the same turn in progress as the game played with the dice."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.chance import seeded_dice
from games.rules.dice import Position, Row, RuleSet, Turn, log
from games.rules.dice import bot as dice_bot
from games.rules.dice.rolled import Action, HuntRoll, Roll, RolledTurn
from tests.budget import examples
from tests.rules.test_properties import random_turn, rule_sets
from tests.rules.test_rolled import fixed, random_action


def through_json(move: log.DiceMove) -> log.DiceMove:
    return log.read_move(json.loads(json.dumps(log.write_move(move))))


def test_each_kind_of_move_is_written_as_documented_and_read_back() -> None:
    typed = Turn(33, 2)
    assert log.write_move(typed) == {"total": 33, "hunt": 2, "target": None, "heal": False}
    step = log.RolledStep(Action(keep=(6, 5)), (4, 1, 3, 2))
    assert log.write_move(step) == {"roll": {"keep": [6, 5]}, "dice": [4, 1, 3, 2]}
    choice = log.RolledStep(Action(target=2, hunt=True), (3, 3, 1))
    assert log.write_move(choice) == {"roll": {"target": 2, "hunt": True}, "dice": [3, 3, 1]}
    whole = log.WholeTurn(
        Turn(33, 1), (Roll((6, 6, 6, 6, 6, 3), (6, 6, 6, 6, 6, 3)),), (HuntRoll((3, 1), 1),)
    )
    assert log.write_move(whole) == {
        "total": 33,
        "hunt": 1,
        "target": None,
        "heal": False,
        "rolls": [{"dice": [6, 6, 6, 6, 6, 3], "kept": [6, 6, 6, 6, 6, 3]}],
        "hunt_rolls": [{"dice": [3, 1], "hits": 1}],
    }
    for move in (
        typed,
        step,
        choice,
        whole,
        log.RolledStep(Action()),
        log.RolledStep(Action(stop=True)),
    ):
        assert through_json(move) == move
    assert log.closes_row({"total": 20, "row": 4}) == 4 and log.closes_row({"roll": {}}) is None


def test_a_step_logs_the_dice_that_fell_for_it_and_replays_without_them_being_rolled() -> None:
    turn = RolledTurn(Position.start(RuleSet(), 3))
    turn, first = log.take_step(turn, Action(), fixed(6, 6, 5, 4, 2, 1))
    assert first == log.RolledStep(Action(), (6, 6, 5, 4, 2, 1))
    turn, keep = log.take_step(turn, Action(keep=(6, 6, 5, 4, 2, 1)), fixed())
    assert keep.dice == ()  # all six set aside: nothing more to roll
    assert turn.total == 24 and turn.ask() is None
    again = log.replay_step(log.replay_step(RolledTurn(turn.position), first), keep)
    assert again == turn


def play_logged(
    here: Position, rng: random.Random, seed: bytes, turns: int
) -> tuple[list[log.DiceMove], list[Row], RolledTurn | None]:
    """A game of typed turns, rolled turns played step by step, and rolled turns the computer
    logs whole; the last turn played step by step may stop half-way. Returns the log, the
    rows written and the turn in progress."""
    moves: list[log.DiceMove] = []
    rows: list[Row] = []
    for number in range(turns):
        if here.finished:
            break
        kind = rng.choice(["typed", "steps", "whole"])
        if kind == "typed":
            turn = random_turn(here, rng)
            moves.append(turn)
        else:
            rolled = RolledTurn(here)

            def roller(step: int, count: int, number: int = number) -> tuple[int, ...]:
                return seeded_dice(seed, number, step, count)

            while rolled.ask() is not None:
                if kind == "steps" and rolled.rolls and number == turns - 1 and rng.random() < 0.3:
                    return moves, rows, rolled  # stopped half-way: the turn in progress
                if rng.random() < 0.5:
                    action = dice_bot.rolled_action(rolled)
                else:
                    action = random_action(rolled, rng.choice)
                rolled, step = log.take_step(rolled, action, roller)
                if kind == "steps":
                    moves.append(step)
            if kind == "whole":
                moves.append(log.WholeTurn.of(rolled))
            turn = rolled.turn()
        row = here.play(turn)
        rows.append(row)
        here = here.after(row)
    return moves, rows, None


@settings(max_examples=examples(100), deadline=None)
@given(
    rules=rule_sets,
    players=st.integers(2, 5),
    seed=st.binary(min_size=1, max_size=16),
    turns=st.integers(1, 40),
)
def test_a_logged_game_replays_to_the_same_rows_and_turn_in_progress(
    rules: RuleSet, players: int, seed: bytes, turns: int
) -> None:
    start = Position.start(rules, players)
    moves, rows, rolling = play_logged(start, random.Random(seed), seed, turns)
    replayed = log.replay(start, [through_json(move) for move in moves])
    assert list(replayed.rows) == rows
    assert replayed.rolling == rolling
