"""The create form's line-ups of recent games: one tap fills in every name, with htmx and
without scripts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.rules.dice import Turn as RuleTurn
from tests.browser.helpers import PHONE
from tests.factories import make_game, play

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]
FIRST_ESTIMATE_MS = 20_000


def fields(page: Any) -> Any:
    return page.locator('#create-form input[name="player"]')


def test_a_tap_on_a_line_up_fills_the_names_and_the_game_starts(
    open_browser: Callable[..., Any],
) -> None:
    play(make_game(players=["Anna", "Ben", "Cleo"]), RuleTurn(20))
    play(make_game(players=["Dan", "Eva"]), RuleTurn(20))
    page = open_browser(PHONE)
    page.goto("/")
    page.get_by_role("radio", name=re.compile("^30s")).check()
    page.get_by_role("button", name="Anna, Ben and Cleo").click()
    # The first estimate of a game's length under new rules takes the server a few seconds.
    expect(fields(page)).to_have_count(3, timeout=FIRST_ESTIMATE_MS)
    expect(fields(page).nth(0)).to_have_value("Anna")
    expect(fields(page).nth(2)).to_have_value("Cleo")
    expect(page.get_by_role("radio", name=re.compile("^30s"))).to_be_checked()
    # htmx swaps the whole form (a field named "remove" once broke that: see
    # views._edit_player_list).
    page.get_by_role("button", name="Add player").click()
    expect(fields(page)).to_have_count(4)
    page.get_by_role("button", name="Remove").last.click()
    expect(fields(page)).to_have_count(3)
    expect(page.locator("#create-form")).to_have_count(1)
    page.get_by_role("button", name="Start the game").last.click()
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    expect(page.locator("#sheet-head th.seat")).to_have_text(["Anna", "Ben", "Cleo"])


def test_a_line_up_fills_the_names_without_scripts(browser: Any, live_server: Any) -> None:
    play(make_game(players=["Anna", "Ben"]), RuleTurn(20))
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_role("button", name="Anna and Ben").click()
        expect(fields(page)).to_have_count(2)
        expect(fields(page).nth(1)).to_have_value("Ben")
    finally:
        context.close()
