"""30s (count-up) rules and each of its variants, alone and together."""

from __future__ import annotations

import pytest

from games.rules import IllegalTurnError, InvalidRulesError
from games.rules.dice import DiceGame, Effect, Position, RuleSet, Step, Turn

A, B, C, D = range(4)


def game(players: int = 4, **rules: object) -> DiceGame:
    return DiceGame(RuleSet.from_dict({"preset": "30s", **rules}), players)


def test_points_count_up_from_nothing() -> None:
    assert game().position.points == (0, 0, 0, 0)


def test_worked_example_32_then_three_twos_gives_the_next_player_six() -> None:
    g = game()
    row = g.push(Turn(32, hunt=3))
    assert row.cells == (0, 6, 0, 0) and row.margin == 2
    assert g.position.points == (0, 6, 0, 0)


def test_exactly_thirty_scores_nothing_and_a_short_total_scores_the_shortfall() -> None:
    g = game()
    assert g.push(Turn(30)).cells == (0, 0, 0, 0)
    assert g.push(Turn(26)).cells == (0, 4, 0, 0)


def test_thirty_or_more_eliminates_and_the_last_player_in_wins() -> None:
    g = game(2)
    g.push(Turn(36, hunt=5))  # A gives B 30
    assert g.position.is_out(B) and g.position.finished and g.position.winners == (A,)


def test_the_hunt_skips_players_who_are_out() -> None:
    g = game(3)
    g.push(Turn(36, hunt=5))  # B out on 30
    g.push(Turn(30))  # C
    assert g.push(Turn(31, hunt=2)).victim == C


def test_shorter_game_ends_when_a_player_goes_above_thirty_and_fewest_points_win() -> None:
    g = game(3, end="first_out")
    g.push(Turn(26))  # A +4
    g.push(Turn(26))  # B +4
    g.push(Turn(36, hunt=5))  # C gives A 30: 34, above 30
    assert g.position.finished
    assert g.position.points == (34, 4, 0)
    assert g.position.winners == (C,)


def test_shorter_game_a_player_on_exactly_thirty_plays_on() -> None:
    g = game(2, end="first_out")
    g.push(Turn(36, hunt=5))  # A gives B exactly 30
    assert g.position.points == (0, 30)
    assert not g.position.finished and not g.position.is_out(B)
    assert g.position.next_roller == B
    g.push(Turn(29))  # B +1: 31, above 30
    assert g.position.finished and g.position.winners == (A,)


def test_shorter_game_shares_the_win_between_equal_fewest() -> None:
    g = game(3, end="first_out")
    g.push(Turn(36, hunt=6))  # A gives B 36
    assert g.position.winners == (A, C)


def test_shorter_game_and_precise_elimination_are_refused_together() -> None:
    with pytest.raises(InvalidRulesError, match="nobody could ever pass 30"):
        RuleSet.from_dict({"preset": "30s", "end": "first_out", "precise_elimination": True})


def test_healing_lowers_the_rollers_points_by_the_margin_but_not_below_zero() -> None:
    g = game(2, healing=True)
    g.push(Turn(27))  # A +3
    g.push(Turn(30))  # B
    row = g.push(Turn(35, heal=True))  # A heals 5, has only 3
    assert row.effect is Effect.HEALED and row.cells == (-3, 0)
    assert g.position.points == (0, 0)


def test_healing_is_refused_without_the_variant_or_below_thirty() -> None:
    with pytest.raises(IllegalTurnError, match="Healing"):
        game().push(Turn(35, heal=True))
    with pytest.raises(IllegalTurnError, match="above 30"):
        game(healing=True).push(Turn(29, heal=True))


def test_healing_asks_heal_or_attack_before_the_hunt() -> None:
    g = game(3, healing=True)
    for total in (26, 30, 30):  # A scores 4 points, then it is A's turn again
        g.push(Turn(total))
    position = g.position
    question = position.ask(total=33)
    assert question is not None and question.step is Step.ACTION
    assert position.ask(total=33, heal=True) is None
    hunt = position.ask(total=33, heal=False)
    assert hunt is not None and hunt.step is Step.HUNT


def test_free_for_all_attacks_the_named_player() -> None:
    g = game(free_for_all=True)
    row = g.push(Turn(33, hunt=1, target=D))
    assert row.cells == (0, 0, 0, 3)


def test_free_for_all_refuses_an_attack_without_a_target_or_on_yourself_or_an_out_player() -> None:
    g = game(3, free_for_all=True)
    with pytest.raises(IllegalTurnError, match="name the player"):
        g.push(Turn(33, hunt=1))
    with pytest.raises(IllegalTurnError, match="still in"):
        g.push(Turn(33, hunt=1, target=A))
    g.push(Turn(36, hunt=5, target=C))  # C out
    g.push(Turn(30))  # B
    with pytest.raises(IllegalTurnError, match="still in"):
        g.push(Turn(33, hunt=1, target=C))


def test_free_for_all_asks_for_a_target_among_players_still_in() -> None:
    position = Position.start(RuleSet.from_dict({"preset": "30s", "free_for_all": True}), 4)
    question = position.ask(total=34)
    assert question is not None and question.step is Step.TARGET and question.options == (B, C, D)


def test_precise_elimination_ignores_an_attack_past_thirty_and_needs_exactly_thirty() -> None:
    g = game(2, precise_elimination=True)
    g.push(Turn(24))  # A +6
    g.push(Turn(36, hunt=5))  # B: A would reach 36, past 30
    assert g.rows[-1].effect is Effect.OVERSHOT and g.rows[-1].cells == (0, 0)
    assert g.position.points == (6, 0)
    g.push(Turn(30))  # A
    g.push(Turn(36, hunt=4))  # B: A 6 + 24 lands exactly on 30
    assert g.position.points == (30, 0) and g.position.winners == (B,)


def test_precise_elimination_ignores_a_rollers_own_shortfall_past_thirty() -> None:
    g = game(2, precise_elimination=True)
    g.push(Turn(36, hunt=4))  # A gives B 24
    row = g.push(Turn(6))  # B would score 24 more: 48, so nothing
    assert row.effect is Effect.OVERSHOT and row.victim == B and row.cells == (0, 0)
    assert g.position.points == (0, 24) and not g.position.finished


def test_precise_elimination_ignores_a_shortfall_landing_exactly_on_thirty() -> None:
    g = game(2, precise_elimination=True)
    g.push(Turn(36, hunt=4))  # A gives B 24
    g.push(Turn(30))  # B
    g.push(Turn(30))  # A
    row = g.push(Turn(24))  # B would score 6: exactly 30, but not by an attack
    assert row.effect is Effect.OVERSHOT and row.cells == (0, 0)
    g.push(Turn(30))  # A
    assert g.push(Turn(25)).cells == (0, 5)  # B: 29, below 30, counts in full
    assert g.position.points == (0, 29)


def test_weaker_attacks_change_nothing_the_sheet_can_check() -> None:
    plain, weak = game(), game(weaker_attacks=True)
    for turn in (Turn(33, hunt=2), Turn(28), Turn(31, hunt=0)):
        assert plain.push(turn).cells == weak.push(turn).cells


def test_all_variants_together() -> None:
    g = game(
        3,
        healing=True,
        free_for_all=True,
        weaker_attacks=True,
        precise_elimination=True,
    )
    g.push(Turn(34, heal=False, hunt=2, target=C))  # C +8
    g.push(Turn(25))  # B +5
    g.push(Turn(33, heal=True))  # C heals 3
    assert g.position.points == (0, 5, 5)
    g.push(Turn(36, hunt=4, target=B))  # A: B 5 + 24 = 29
    g.push(Turn(36, hunt=1, target=A))  # B: A +6
    g.push(Turn(31, hunt=5, target=B))  # C: B 29 + 5 = 34 > 30: no effect
    assert g.rows[-1].effect is Effect.OVERSHOT
    g.push(Turn(31, hunt=1, target=B))  # A: B exactly 30, out
    assert g.position.is_out(B) and g.position.in_play == (A, C)
    assert g.position.next_roller == C


def test_thirty_only_options_are_refused_for_30s() -> None:
    for key, value in (
        ("target", 31),
        ("start_points", 20),
        ("on_failure", "one"),
        ("hunt_dice", "margin"),
    ):
        with pytest.raises(InvalidRulesError, match="not part of this game"):
            RuleSet.from_dict({"preset": "30s", key: value})


def test_30s_rule_set_lists_its_own_keys() -> None:
    assert set(RuleSet.from_dict({"preset": "30s"}).to_dict()) == {
        "preset",
        "set_aside",
        "end",
        "healing",
        "free_for_all",
        "weaker_attacks",
        "precise_elimination",
    }


def test_healing_is_not_offered_to_a_player_with_nothing_to_heal() -> None:
    position = Position.start(RuleSet.from_dict({"preset": "30s", "healing": True}), 3)
    question = position.ask(total=33)
    assert question is not None and question.step is Step.HUNT
