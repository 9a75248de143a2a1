"""A finished card game: its chart of tokens, and its replay deal by deal with every hand."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games import store
from games.kinds.cards import tournaments
from games.rules import cards
from tests.browser.helpers import PHONE, press
from tests.browser.test_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_finished_card_game_replays_deal_by_deal(open_browser: Any) -> None:
    game, _ = tournaments.create_card_game(
        "Robots",
        [store.Player(name, computer=True) for name in ("Ada", "Bo", "Cy")],
        cards.CardRules(tokens=2),
    )
    game.refresh_from_db()
    deals = game.turn_count
    page = open_browser(PHONE)
    page.goto(f"/g/{game.pk}/")
    expect(page.locator("#chart .chart-picture")).to_be_visible()
    assert page.locator("#chart .chart-picture").evaluate("img => img.naturalWidth") > 0
    page.get_by_role("link", name="Replay the deals").click()
    expect(page.locator(".replay-where")).to_have_text(f"Deal 1 of {deals}")
    expect(page.locator(".dealt-cards .playing-card")).to_have_count(9)
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    press(page, "ArrowRight")
    expect(page.locator(".replay-where")).to_have_text(f"Deal 2 of {deals}")
    expect(page.locator("#sheet-rows tr")).to_have_count(2)
    assert serious_violations(page) == []
