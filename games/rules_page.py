"""The rules page: how to play each game the app runs, how the sheet keeps score, every
variant, and how the app reads the points the rule texts leave open.

Each game is one section with a template of its own, so another game is one more entry in
`SECTIONS` and one more template.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from games.rules.cards import CardRules
from games.rules.dice import MAX_PLAYERS, MIN_PLAYERS, RuleSet
from games.rules.dice.ruleset import (
    MAX_START_POINTS,
    MAX_TARGET,
    MIN_START_POINTS,
    MIN_TARGET,
    THIRTY_S_LIMIT,
)


@dataclass(frozen=True)
class RulesSection:
    anchor: str  # the section's id on the page, for links like /rules/#thirty
    title: str | Promise
    template: str


SECTIONS = (
    RulesSection("thirty", _("Thirty"), "rules/thirty.html"),
    RulesSection("thirty-s", _("30s"), "rules/thirty_s.html"),
    RulesSection("cards", _("Thirty, the card game"), "rules/cards.html"),
)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    defaults = RuleSet()
    return render(
        request,
        "rules.html",
        {
            "sections": SECTIONS,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "start_points": defaults.start_points,
            "min_start_points": MIN_START_POINTS,
            "max_start_points": MAX_START_POINTS,
            "target": defaults.target,
            "min_target": MIN_TARGET,
            "max_target": MAX_TARGET,
            "limit": THIRTY_S_LIMIT,
            "tokens": CardRules().tokens,
        },
    )
