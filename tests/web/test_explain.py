"""The sentence a row shows for the rule readings that leave a cell at 0."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.kinds.dice.explain import explain_row
from games.rules.dice import DiceGame, RuleSet, Turn

NAMES = ("Anna", "Ben")


@pytest.mark.usefixtures("current_translations")
def test_a_shortfall_spared_by_precise_elimination_says_why_in_both_languages() -> None:
    rules = RuleSet.from_dict({"preset": "30s", "precise_elimination": True})
    game = DiceGame(rules, 2)
    game.push(Turn(36, hunt=4))  # Anna gives Ben 24
    row = game.push(Turn(6))  # Ben's own 24 would take him past 30
    with translation.override("en"):
        assert explain_row(row, NAMES, rules) == (
            "Ben rolled 6, short of 30: Ben +24 would reach 30, and only an exact attack puts"
            " a player out, so it has no effect."
        )
    with translation.override("da"):
        assert explain_row(row, NAMES, rules).startswith(
            "Ben slog 6 og nåede ikke op på 30: med +24 ville Ben nå 30"
        )
