"""Thirty (count-down) rules, one behaviour per test, including the text's worked example."""

from __future__ import annotations

import pytest

from games.rules import GameOverError, IllegalTurnError, InvalidRulesError
from games.rules.dice import DiceGame, Effect, Position, RuleSet, Step, Turn

ANNA, BEN, CLEO, DAN = range(4)


def game(players: int = 4, **rules: object) -> DiceGame:
    return DiceGame(RuleSet.from_dict({"preset": "thirty", **rules}), players)


def test_worked_example_anna_beats_thirty_by_three_and_rolls_two_threes() -> None:
    g = game()
    row = g.push(Turn(33, hunt=2))
    assert row.cells == (0, 2, 0, 0)
    assert g.position.points == (30, 28, 30, 30)
    assert row.effect is Effect.HIT and row.victim == BEN and row.margin == 3


def test_a_turn_of_thirty_or_less_is_a_row_of_zeroes() -> None:
    g = game()
    assert g.push(Turn(30)).cells == (0, 0, 0, 0)
    assert g.push(Turn(12)).cells == (0, 0, 0, 0)
    assert g.position.points == (30, 30, 30, 30)


def test_turns_pass_round_the_table_in_seat_order() -> None:
    g = game(3)
    rollers = [g.push(Turn(20)).roller for _ in range(5)]
    assert rollers == [0, 1, 2, 0, 1]


def test_hunt_is_required_when_the_total_beats_the_target() -> None:
    g = game()
    with pytest.raises(IllegalTurnError, match="how many hunt dice showed 4"):
        g.push(Turn(34))
    assert g.rows == []


@pytest.mark.parametrize("hunt", [-1, 7])
def test_hunt_counts_outside_zero_to_six_are_refused(hunt: int) -> None:
    with pytest.raises(IllegalTurnError, match="from 0 to 6"):
        game().push(Turn(36, hunt=hunt))


@pytest.mark.parametrize("total", [5, 37, 0, -3])
def test_impossible_totals_are_refused(total: int) -> None:
    with pytest.raises(IllegalTurnError, match="from 6 to 36"):
        game().push(Turn(total))


def test_a_hunt_without_beating_the_target_is_refused() -> None:
    with pytest.raises(IllegalTurnError, match="above 30"):
        game().push(Turn(29, hunt=2))


def test_a_player_reaching_zero_is_out_and_skipped() -> None:
    g = game(3, start_points=2)
    g.push(Turn(36, hunt=2))  # Anna knocks Ben out
    assert g.position.is_out(BEN)
    assert g.position.next_roller == CLEO


def test_damage_carries_past_an_out_seat_to_the_next_player_in() -> None:
    g = game(3, start_points=2)
    g.push(Turn(36, hunt=2))  # Ben out
    g.push(Turn(20))  # Cleo
    row = g.push(Turn(31, hunt=1))  # Anna: Ben is out, so Cleo takes it
    assert row.victim == CLEO and row.cells == (0, 0, 1)


def test_damage_is_lost_at_an_empty_seat_under_that_variant() -> None:
    g = game(3, start_points=2, empty_seat="lost")
    g.push(Turn(36, hunt=2))  # Ben out
    g.push(Turn(20))  # Cleo
    row = g.push(Turn(31, hunt=1))
    assert row.effect is Effect.LOST and row.cells == (0, 0, 0)
    assert g.position.points == (2, 0, 2)


def test_lost_damage_carries_once_nobody_could_ever_be_hit_again() -> None:
    # Seats 0 and 2 out: Ben and Dan each sit before an empty seat, so with damage lost the
    # game could never end; the damage then goes on to the next player still in.
    g = game(4, start_points=1, empty_seat="lost")
    g.push(Turn(20))  # Anna
    g.push(Turn(31, hunt=1))  # Ben knocks Cleo out
    g.push(Turn(20))  # Dan
    g.push(Turn(20))  # Anna
    g.push(Turn(31, hunt=1))  # Ben: Cleo's seat is empty, but Dan sits before Anna: lost
    assert g.rows[-1].effect is Effect.LOST
    g.push(Turn(31, hunt=1))  # Dan knocks Anna out: Ben and Dan left, both before empty seats
    assert g.position.in_play == (BEN, DAN)
    row = g.push(Turn(31, hunt=1))  # Ben: carried on to Dan, who is out: Ben wins
    assert row.victim == DAN and g.position.winners == (BEN,)


@pytest.mark.parametrize("on_failure", ["one", "shortfall"])
def test_lost_damage_stays_lost_when_failed_turns_cost_something(on_failure: str) -> None:
    # As above, but failed turns cost points, so the game can still end: the damage is lost.
    g = game(4, start_points=1, empty_seat="lost", on_failure=on_failure)
    g.push(Turn(31, hunt=1))  # Anna knocks Ben out
    g.push(Turn(31, hunt=1))  # Cleo knocks Dan out: Anna and Cleo left, neither next to the other
    assert g.position.in_play == (ANNA, CLEO)
    row = g.push(Turn(31, hunt=1))  # Anna: Ben's seat is empty
    assert row.effect is Effect.LOST and row.victim == BEN and row.cells == (0, 0, 0, 0)
    assert g.position.points == (1, 0, 1, 0)


def test_the_last_player_holding_points_wins() -> None:
    g = game(2, start_points=1)
    g.push(Turn(33, hunt=1))
    assert g.position.finished and g.position.winners == (ANNA,)
    assert g.position.next_roller is None
    with pytest.raises(GameOverError):
        g.push(Turn(20))


def test_points_may_go_below_zero() -> None:
    g = game(2, start_points=1)
    g.push(Turn(36, hunt=5))
    assert g.position.points == (1, -4)


@pytest.mark.parametrize(
    ("on_failure", "total", "cost"),
    [
        ("nothing", 12, 0),
        ("one", 12, 1),
        ("one", 30, 1),
        ("shortfall", 12, 18),
        ("shortfall", 30, 0),
        ("shortfall", 29, 1),
    ],
)
def test_failure_costs_the_roller(on_failure: str, total: int, cost: int) -> None:
    g = game(on_failure=on_failure)
    row = g.push(Turn(total))
    assert row.cells == (cost, 0, 0, 0) and row.effect is Effect.MISSED


def test_shortfall_is_measured_from_a_raised_target() -> None:
    g = game(on_failure="shortfall", target=33)
    assert g.push(Turn(31)).cells == (2, 0, 0, 0)


def test_a_roller_can_knock_themselves_out_on_failure() -> None:
    g = game(3, start_points=1, on_failure="one")
    g.push(Turn(10))
    assert g.position.is_out(ANNA) and g.position.next_roller == BEN


def test_a_raised_target_moves_the_margin() -> None:
    g = game(target=33)
    assert g.push(Turn(33)).effect is Effect.MISSED
    row = g.push(Turn(35, hunt=1))
    assert row.margin == 2 and row.cells == (0, 0, 1, 0)


def test_hunt_with_the_margins_dice_caps_the_count_at_the_margin() -> None:
    g = game(hunt_dice="margin")
    with pytest.raises(IllegalTurnError, match="from 0 to 2"):
        g.push(Turn(32, hunt=3))
    assert g.push(Turn(32, hunt=2)).cells == (0, 2, 0, 0)


def test_undo_takes_back_the_last_row_only() -> None:
    g = game()
    g.push(Turn(33, hunt=2))
    g.push(Turn(34, hunt=1))
    g.pop()
    assert g.position.points == (30, 28, 30, 30) and g.position.next_roller == BEN
    g.pop()
    with pytest.raises(IllegalTurnError):
        g.pop()


def test_undoing_the_winning_turn_reopens_the_game() -> None:
    g = game(2, start_points=1)
    g.push(Turn(33, hunt=1))
    g.pop()
    assert not g.position.finished and g.position.next_roller == ANNA


def test_thirty_refuses_a_named_target_and_healing() -> None:
    with pytest.raises(IllegalTurnError, match="free for all"):
        game().push(Turn(33, hunt=1, target=CLEO))
    with pytest.raises(IllegalTurnError, match="Healing"):
        game().push(Turn(33, heal=True))


def test_the_form_asks_only_what_the_rules_allow() -> None:
    position = Position.start(RuleSet.from_dict({"hunt_dice": "margin"}), 4)
    assert position.ask().step is Step.TOTAL  # type: ignore[union-attr]
    assert position.ask(total=25) is None
    question = position.ask(total=33)
    assert question is not None and question.step is Step.HUNT and question.options == (0, 1, 2, 3)


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "chess"},
        {"target": 29},
        {"target": 36},
        {"target": "31"},
        {"start_points": 0},
        {"start_points": True},
        {"on_failure": "sometimes"},
        {"healing": True},  # 30s only
        {"tagret": 31},
    ],
)
def test_bad_rule_sets_are_refused_with_a_sentence(rules: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError) as error:
        RuleSet.from_dict(rules)
    assert str(error.value).endswith(".")


def test_rule_sets_round_trip_through_their_dict() -> None:
    rules = RuleSet.from_dict(
        {"start_points": 20, "target": 32, "on_failure": "shortfall", "hunt_dice": "margin"}
    )
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert set(rules.to_dict()) == {
        "preset",
        "start_points",
        "target",
        "set_aside",
        "on_failure",
        "empty_seat",
        "hunt_dice",
    }


@pytest.mark.parametrize("players", [1, 13])
def test_a_game_has_two_to_twelve_players(players: int) -> None:
    with pytest.raises(InvalidRulesError):
        game(players)
