"""Nothing on a phone is wider than the phone: no page scrolls sideways at 390 px, with long
names in the line-ups, on the sheet and in the dice tray."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.kinds.dice import moves as dice_moves
from games.rules.dice import RuleSet, Turn
from games.rules.dice.rolled import Action
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

LONG_NAMES = ["Anna", "Benjamin Christoffersen", "Esther-Marie Kjærsgaard", "Frederik", "Gustav"]


@pytest.mark.parametrize("language", [ENGLISH, DANISH], ids=str)
def test_no_page_scrolls_sideways_on_a_phone(
    open_browser: Callable[..., Any], language: Language
) -> None:
    game, _ = dice_moves.create_game("Friday", LONG_NAMES, RuleSet())
    dice_moves.record_turn(game.pk, Turn(20))
    dice_moves.roll(game.pk, Action())  # a turn in progress: its dice show on every phone
    page = open_browser(PHONE, locale=language.locale)
    for path in ("/", f"/g/{game.pk}/", "/history/", "/rules/"):
        page.goto(path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide"
