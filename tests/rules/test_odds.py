"""Exact odds for one turn of Thirty, checked against the game a player actually plays."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.dice.odds import (
    KeepChoice,
    SetAside,
    best_keep,
    keep_choices,
    turn_odds,
    win_chance,
)
from games.rules.errors import InvalidRulesError
from tests.budget import examples

RULES: tuple[SetAside, ...] = ("any", "one")
TARGETS = range(30, 36)


def ways_to_roll(faces: tuple[int, ...]) -> int:
    """How many ordered rolls show these faces."""
    ways = math.factorial(len(faces))
    for count in Counter(faces).values():
        ways //= math.factorial(count)
    return ways


def is_part_of(keep: tuple[int, ...], roll: tuple[int, ...]) -> bool:
    return not Counter(keep) - Counter(roll)


# The whole turn.


def test_the_known_chance_to_beat_thirty() -> None:
    odds = turn_odds()
    assert odds == turn_odds(30, "any")
    assert f"{float(odds.p_beat):.6f}" == "0.538447"


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", TARGETS)
def test_final_totals_are_a_distribution_over_6_to_36(target: int, rule: SetAside) -> None:
    totals = turn_odds(target, rule).totals
    assert list(totals) == list(range(6, 37))
    assert all(chance >= 0 for chance in totals.values())
    assert sum(totals.values()) == 1


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", TARGETS)
def test_chance_to_beat_is_the_chance_of_a_total_above_the_target(
    target: int, rule: SetAside
) -> None:
    odds = turn_odds(target, rule)
    assert odds.p_beat == sum(chance for total, chance in odds.totals.items() if total > target)
    if rule == "any":
        # Playing for the target pushes totals just past it: the first total that beats it
        # is more likely than the target itself.
        assert odds.totals[target + 1] > odds.totals[target]


@pytest.mark.parametrize("target", TARGETS)
def test_one_die_at_a_time_is_never_easier(target: int) -> None:
    assert turn_odds(target, "one").p_beat < turn_odds(target, "any").p_beat
    for dice_left in range(1, 7):
        for kept in range(6 - dice_left, 6 * (6 - dice_left) + 1):
            assert win_chance(dice_left, kept, target, "one") <= win_chance(
                dice_left, kept, target, "any"
            )


@pytest.mark.parametrize("rule", RULES)
def test_a_higher_target_is_never_easier(rule: SetAside) -> None:
    chances = [turn_odds(target, rule).p_beat for target in range(5, 37)]
    assert chances[0] == 1  # six dice always add up to more than 5
    assert chances[-1] == 0  # and never to more than 36
    assert all(higher < lower for lower, higher in pairwise(chances))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", [-3, 0, 5, 36, 40, 1000])
def test_targets_out_of_reach_are_certain_or_hopeless(target: int, rule: SetAside) -> None:
    odds = turn_odds(target, rule)
    assert odds.p_beat == (1 if target < 6 else 0)
    assert list(odds.totals) == list(range(6, 37))
    assert sum(odds.totals.values()) == 1


def test_with_nothing_to_play_for_every_die_is_kept_at_once() -> None:
    """Ties go to the higher sum, so a hopeless turn keeps the whole first roll."""
    sums: Counter[int] = Counter(sum(roll) for roll in product(range(1, 7), repeat=6))
    expected = {total: Fraction(sums[total], 6**6) for total in range(6, 37)}
    assert turn_odds(36, "any").totals == expected
    assert turn_odds(5, "any").totals == expected
    assert expected[6] == Fraction(1, 46656)


# Choices for one roll.


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    ("roll", "kept"),
    [
        ((6, 6, 5, 3, 1, 1), 0),
        ((1, 2, 3, 4, 5, 6), 0),
        ((4, 4, 4, 4), 12),
        ((6, 1, 6), 17),
        ((2,), 28),
    ],
)
def test_choices_are_every_legal_set_aside_once_best_first(
    roll: tuple[int, ...], kept: int, rule: SetAside
) -> None:
    choices = keep_choices(roll, kept, 30, rule)
    keeps = [choice.keep for choice in choices]
    assert len(set(keeps)) == len(keeps)
    for keep in keeps:
        assert keep
        assert list(keep) == sorted(keep, reverse=True)
        assert is_part_of(keep, roll)
        if rule == "one":
            assert len(keep) == 1
    if rule == "any":
        assert len(keeps) == math.prod(n + 1 for n in Counter(roll).values()) - 1
    else:
        assert sorted(keeps) == sorted((face,) for face in set(roll))
    order = [(-c.p_beat, -sum(c.keep), len(c.keep)) for c in choices]
    assert order == sorted(order)
    assert best_keep(roll, kept, 30, rule) == keeps[0]
    assert best_keep(list(reversed(roll)), kept, 30, rule) == keeps[0]


def test_last_die_after_thirty_always_beats_thirty() -> None:
    assert keep_choices((1,), kept=30) == [KeepChoice((1,), Fraction(1))]
    assert keep_choices((1,), kept=29) == [KeepChoice((1,), Fraction(0))]
    assert keep_choices((6,), kept=24, target=29) == [KeepChoice((6,), Fraction(1))]


def test_hand_checked_choices_with_two_dice_left() -> None:
    # Four dice set aside for 20, then 5 and 4: keeping both ends on 29. Keeping the 5 needs
    # a 6 with the last die; keeping the 4 cannot get past 30.
    assert keep_choices((5, 4), kept=20) == [
        KeepChoice((5,), Fraction(1, 6)),
        KeepChoice((5, 4), Fraction(0)),
        KeepChoice((4,), Fraction(0)),
    ]
    assert keep_choices((4, 5), kept=20, set_aside="one") == [
        KeepChoice((5,), Fraction(1, 6)),
        KeepChoice((4,), Fraction(0)),
    ]
    # Against 29, everything wins from 24 with 6 and 5: the higher sum comes first, then
    # fewer dice.
    assert [c.keep for c in keep_choices((5, 6), kept=24, target=29)] == [(6, 5), (6,), (5,)]
    assert {c.p_beat for c in keep_choices((5, 6), kept=24, target=29)} == {1}


def test_win_chance_by_hand() -> None:
    assert win_chance(0, 31) == 1
    assert win_chance(0, 30) == 0
    assert win_chance(1, 25) == Fraction(1, 6)  # only a 6 gets past 30
    assert win_chance(1, 30) == 1
    # From 24 against 35: a double 6 wins at once (1/36); a single 6 is kept and the last
    # die must be a 6 too (10/36 * 1/6); without a 6 the best is 35, which is not enough.
    assert win_chance(2, 24, 35) == Fraction(1, 36) + Fraction(10, 36) * Fraction(1, 6)
    assert win_chance(2, 24, 35) == Fraction(2, 27)
    assert win_chance(6, 0) == turn_odds().p_beat
    assert win_chance(6, 0, 33, "one") == turn_odds(33, "one").p_beat


@cache
def plain_value(dice_left: int, kept: int, target: int, rule: SetAside) -> Fraction:
    """Best chance by brute force: every ordered roll, every subset of the dice by position."""
    if dice_left == 0:
        return Fraction(int(kept > target))
    best_sum = Fraction(0)
    for roll in product(range(1, 7), repeat=dice_left):
        best = Fraction(0)
        for chosen in range(1, 2**dice_left):
            keep = [roll[i] for i in range(dice_left) if chosen >> i & 1]
            if rule == "one" and len(keep) != 1:
                continue
            best = max(best, plain_value(dice_left - len(keep), kept + sum(keep), target, rule))
        best_sum += best
    rolls: int = 6**dice_left
    return best_sum / rolls


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", [30, 33])
def test_win_chance_matches_brute_force_with_few_dice_left(target: int, rule: SetAside) -> None:
    for dice_left in range(4):
        for kept in range(6 - dice_left, 6 * (6 - dice_left) + 1):
            assert win_chance(dice_left, kept, target, rule) == plain_value(
                dice_left, kept, target, rule
            )


# Properties over many positions.


@st.composite
def positions(draw: st.DrawFn) -> tuple[tuple[int, ...], int, int, SetAside]:
    roll = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=6)))
    aside = 6 - len(roll)
    kept = draw(st.integers(aside, 6 * aside))
    target = draw(st.integers(24, 37))
    rule: SetAside = draw(st.sampled_from(RULES))
    return roll, kept, target, rule


@settings(max_examples=examples(150), deadline=None)
@given(positions())
def test_every_choice_is_worth_what_the_position_after_it_is_worth(
    position: tuple[tuple[int, ...], int, int, SetAside],
) -> None:
    roll, kept, target, rule = position
    choices = keep_choices(roll, kept, target, rule)
    for choice in choices:
        assert 0 <= choice.p_beat <= 1
        assert is_part_of(choice.keep, roll)
        after = win_chance(len(roll) - len(choice.keep), kept + sum(choice.keep), target, rule)
        assert choice.p_beat == after
    assert choices[0].p_beat == max(choice.p_beat for choice in choices)
    assert best_keep(roll, kept, target, rule) == choices[0].keep
    if sum(roll) + kept <= target:  # keeping the whole roll cannot win
        assert all(choice.p_beat == 0 for choice in choices if len(choice.keep) == len(roll))


@st.composite
def before_rolls(draw: st.DrawFn) -> tuple[int, int, int, SetAside]:
    dice_left = draw(st.integers(1, 6))
    aside = 6 - dice_left
    kept = draw(st.integers(aside, 6 * aside))
    target = draw(st.integers(27, 36))
    rule: SetAside = draw(st.sampled_from(RULES))
    return dice_left, kept, target, rule


@settings(max_examples=examples(40), deadline=None)
@given(before_rolls())
def test_a_position_is_worth_the_average_best_choice_over_all_rolls(
    position: tuple[int, int, int, SetAside],
) -> None:
    dice_left, kept, target, rule = position
    average = sum(
        (
            Fraction(ways_to_roll(roll), 6**dice_left)
            * keep_choices(roll, kept, target, rule)[0].p_beat
            for roll in combinations_with_replacement(range(1, 7), dice_left)
        ),
        Fraction(0),
    )
    assert win_chance(dice_left, kept, target, rule) == average
    assert 0 <= average <= 1


# Independent checks by playing turns with real (seeded) dice.


@cache
def legal_best_keep(
    roll: tuple[int, ...], kept: int, target: int, rule: SetAside
) -> tuple[int, ...]:
    """`best_keep`, checked to be a legal set-aside, remembered for the many repeated rolls."""
    keep = best_keep(roll, kept, target, rule)
    assert keep
    assert is_part_of(keep, roll)
    assert rule == "any" or len(keep) == 1
    return keep


def play(rng: random.Random, dice_left: int, kept: int, target: int, rule: SetAside) -> int:
    """Finish a turn from a position before rolling, setting aside `best_keep` each time."""
    while dice_left:
        roll = tuple(sorted(rng.choices(range(1, 7), k=dice_left)))
        keep = legal_best_keep(roll, kept, target, rule)
        dice_left -= len(keep)
        kept += sum(keep)
    return kept


def assert_close(hits: int, turns: int, chance: Fraction) -> None:
    p = float(chance)
    error = math.sqrt(p * (1 - p) / turns)
    assert abs(hits / turns - p) <= 4 * error + 1e-9, (hits / turns, p)


@pytest.mark.parametrize(("rule", "seed"), [("any", 3030), ("one", 3131)])
def test_playing_the_best_choices_wins_as_often_as_predicted(rule: SetAside, seed: int) -> None:
    rng = random.Random(seed)
    turns = examples(20_000)  # the bounds below are in standard errors: they widen with fewer
    totals = [play(rng, 6, 0, 30, rule) for _ in range(turns)]
    odds = turn_odds(30, rule)
    assert_close(sum(total > 30 for total in totals), turns, odds.p_beat)
    # The average total a player sees matches the predicted distribution too.
    mean = sum(total * chance for total, chance in odds.totals.items())
    spread = sum((total - mean) ** 2 * chance for total, chance in odds.totals.items())
    assert abs(sum(totals) / turns - float(mean)) <= 4 * math.sqrt(float(spread) / turns)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", range(31, 36))
def test_every_target_the_chances_page_shows_is_beaten_as_often_as_predicted(
    target: int, rule: SetAside
) -> None:
    rng = random.Random(target * 10 + len(rule))
    turns = examples(8_000)
    hits = sum(play(rng, 6, 0, target, rule) > target for _ in range(turns))
    assert_close(hits, turns, turn_odds(target, rule).p_beat)


@pytest.mark.parametrize(
    ("roll", "kept", "rule", "seed"),
    [
        ((6, 5, 3, 1), 10, "any", 7),
        ((6, 6, 2, 1, 1), 5, "any", 8),
        ((5, 4, 2), 16, "one", 9),
    ],
)
def test_choices_win_as_often_as_predicted(
    roll: tuple[int, ...], kept: int, rule: SetAside, seed: int
) -> None:
    rng = random.Random(seed)
    turns = examples(4_000)
    for choice in keep_choices(roll, kept, 30, rule)[:3]:
        dice_left = len(roll) - len(choice.keep)
        hits = sum(
            play(rng, dice_left, kept + sum(choice.keep), 30, rule) > 30 for _ in range(turns)
        )
        assert_close(hits, turns, choice.p_beat)


# Refusals.


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: keep_choices(()), "from 1 to 6 dice, not 0"),
        (lambda: keep_choices((6,) * 7), "from 1 to 6 dice, not 7"),
        (lambda: keep_choices((6, 0, 3)), "from 1 to 6, not 0"),
        (lambda: keep_choices((7,), kept=25), "from 1 to 6, not 7"),
        (lambda: keep_choices((6, 5, 4, 3, 2, 1), kept=4), "add up to 0, not 4"),
        (lambda: keep_choices((6,), kept=4), "between 5 and 30, not 4"),
        (lambda: keep_choices((6,), kept=31), "between 5 and 30, not 31"),
        (lambda: keep_choices((6, 5), kept=-1), "between 4 and 24, not -1"),
        (lambda: best_keep((6, 5), kept=8, set_aside="two"), 'not "two"'),  # type: ignore[arg-type]
        (lambda: turn_odds(30, "all"), 'not "all"'),  # type: ignore[arg-type]
        (lambda: turn_odds("30"), "whole number, not 30"),  # type: ignore[arg-type]
        (lambda: win_chance(7, 0), "from 0 to 6 dice left to roll, not 7"),
        (lambda: win_chance(-1, 0), "from 0 to 6 dice left to roll, not -1"),
        (lambda: win_chance(2, 25), "between 4 and 24, not 25"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(call: object, words: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidRulesError) as refused:
        call()
    message = str(refused.value)
    assert words in message
    assert message[0].isupper()
    assert message.endswith(".")
    assert "%(" not in message
    assert "%(" in refused.value.template
