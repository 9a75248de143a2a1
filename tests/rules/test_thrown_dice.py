"""Dice thrown at the table and entered roll by roll (`games.rules.dice.log.throw_step`): the
same rules check every step as for the app's dice, a wrong entry is refused in a sentence and
changes nothing, and entering by hand the rolls of a turn the app rolled gives the same turn
and the same cells."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalTurnError
from games.rules.chance import seeded_dice
from games.rules.dice import DiceState, Position, RuleSet
from games.rules.dice.log import RolledStep, take_step, throw_step
from games.rules.dice.rolled import Action, Ask, RolledTurn
from tests.budget import examples
from tests.rules.test_properties import rule_sets
from tests.rules.test_rolled import random_action


def thrown(turn: RolledTurn, action: Action, *dice: int) -> RolledTurn:
    return throw_step(turn, RolledStep(action, dice, table=True))[0]


def start(players: int = 3, **rules: object) -> RolledTurn:
    return RolledTurn(Position.start(RuleSet.from_dict(rules), players))


@pytest.mark.parametrize(
    ("steps", "refused", "sentence"),
    [
        ([], (Action(), (6, 6, 5, 1, 1)), "Enter the 6 dice that were thrown (5 entered)."),
        ([], (Action(), (6, 6, 5, 1, 1, 7)), "A die shows a number from 1 to 6, not 7."),
        (
            [(Action(), (6, 6, 5, 1, 1, 2))],
            (Action(keep=(4,)), (1, 2, 3, 4, 5)),
            "Set aside only dice from the last roll.",
        ),
        (
            [(Action(), (6, 6, 5, 1, 1, 2))],
            (Action(keep=()), (1, 2, 3, 4, 5, 6)),
            "Set aside at least one die.",
        ),
        (
            [(Action(), (6, 6, 5, 1, 1, 2))],
            (Action(keep=(6, 6)), (1, 2, 3)),
            "Enter the 4 dice that were thrown (3 entered).",
        ),
        (
            [(Action(), (6, 6, 6, 6, 6, 6))],
            (Action(keep=(6, 6, 6, 6, 6, 6)), (1,)),
            "This step throws no dice: enter none.",
        ),
        (
            [(Action(), (6, 6, 6, 6, 6, 3)), (Action(keep=(6, 6, 6, 6, 6, 3)), ())],
            (Action(hunt=True), (3, 3, 1)),
            "Enter the 6 dice that were thrown (3 entered).",
        ),
    ],
)
def test_every_wrong_entry_is_refused_in_a_sentence_and_changes_nothing(
    steps: list[tuple[Action, tuple[int, ...]]],
    refused: tuple[Action, tuple[int, ...]],
    sentence: str,
) -> None:
    turn = start()
    for action, dice in steps:
        turn = thrown(turn, action, *dice)
    before = turn
    with pytest.raises(IllegalTurnError) as error:
        thrown(turn, refused[0], *refused[1])
    assert str(error.value) == sentence
    assert turn == before


def test_one_die_at_a_time_holds_for_dice_thrown_at_the_table_too() -> None:
    turn = thrown(start(set_aside="one"), Action(), 6, 6, 5, 1, 1, 2)
    with pytest.raises(IllegalTurnError, match="one die at a time"):
        thrown(turn, Action(keep=(6, 6)), 1, 2, 3, 4)
    assert thrown(turn, Action(keep=(6,)), 1, 2, 3, 4, 5).dice_left == 5


def test_a_turn_thrown_at_the_table_is_marked_and_plays_to_its_row() -> None:
    state = DiceState.start(RuleSet(), 3)
    for action, dice in (
        (Action(), (6, 6, 6, 6, 6, 5)),
        (Action(keep=(6, 6, 6, 6, 6, 5)), ()),
        (Action(hunt=True), (5, 5, 1, 2, 3, 4)),
    ):
        state, event = state.play(RolledStep(action, dice, table=True))
    assert event.row is not None and event.table
    assert event.row.turn.total == 35 and event.row.cells == (0, 2, 0)
    assert state.rolling is None


def test_naming_whom_to_attack_chooses_the_attack() -> None:
    rules = RuleSet.from_dict({"preset": "30s", "healing": True, "free_for_all": True})
    anna_has_points = Position(rules, (6, 0, 0))  # so that she could heal
    turn = thrown(RolledTurn(anna_has_points), Action(), 6, 6, 6, 6, 6, 5)
    turn = thrown(turn, Action(keep=(6, 6, 6, 6, 6, 5)))
    assert turn.ask() is Ask.ACTION
    turn = thrown(turn, Action(target=2, hunt=True), 5, 1, 1, 1, 1, 1)
    assert turn.heal is False and turn.target == 2 and turn.found == 1


@settings(max_examples=examples(300), deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32))
def test_entering_an_app_rolled_turn_by_hand_gives_the_same_turn_and_cells(
    rules: RuleSet, seed: int
) -> None:
    rng = random.Random(seed)
    position = Position.start(rules, 4)
    rolled, entered = RolledTurn(position), RolledTurn(position)
    number = rng.randrange(1, 100)
    while rolled.ask() is not None:
        action = random_action(rolled, rng.choice)
        rolled, step = take_step(
            rolled, action, lambda s, n: seeded_dice(seed.to_bytes(8, "big"), number, s, n)
        )
        entered, logged = throw_step(entered, RolledStep(action, step.dice, table=True))
        assert logged.dice == step.dice and logged.table
    assert entered.ask() is None and entered.table and not rolled.table
    assert entered.turn() == rolled.turn()
    assert position.play(entered.turn()).cells == position.play(rolled.turn()).cells
