"""A player's page: merging another spelling of their name, confirmed on its own page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.rules.dice import Turn as RuleTurn
from tests.browser.helpers import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.factories import make_game, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.journey  # on PostgreSQL too: a merge rewrites seats across games in one transaction
def test_another_spelling_is_merged_after_a_confirmation(open_browser: Any) -> None:
    play(make_game(name="Friday", players=["Anna", "Ben"]), RuleTurn(20))
    play(make_game(name="Saturday", players=["Ana", "Ben"]), RuleTurn(20))
    play(make_game(name="Both", players=["Anna", "Ana"]), RuleTurn(20))
    page = open_browser(PHONE)
    page.goto("/players/Anna/")
    expect(page.get_by_role("heading", name="Anna", exact=True)).to_be_visible()
    page.get_by_text("Same player, another spelling?").click()
    page.get_by_label("The same player, written another way").fill("Zed")
    page.get_by_role("button", name="Merge…").click()
    expect(page.get_by_role("alert")).to_have_text("Nobody called “Zed” has played here.")
    page.get_by_label("The same player, written another way").fill("ana")
    page.get_by_role("button", name="Merge…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Merge “ana” into Anna?")
    assert serious_violations(page) == []
    page.get_by_role("button", name="Merge the names").click()
    expect(page.get_by_role("status").first).to_contain_text("“ana” is now Anna in 1 game.")
    expect(page.locator(".merge-skipped a")).to_have_text("Both")
    expect(page.locator(".rules-line")).to_contain_text("3 games played")
