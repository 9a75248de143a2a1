"""The EN / DA switch in the header: a phone changes language, and the choice sticks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, ask, create_game, footer, tap

pytestmark = [
    pytest.mark.browser,
    pytest.mark.usefixtures("transactional_db", "current_translations"),
]


def switch(page: Any, code: str) -> Any:
    """One of the header's language buttons: "EN" or "DA"."""
    return page.locator("header").get_by_role("button", name=code, exact=True)


def expect_game_page_in(page: Any, say: Language, next_roller: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", say.code)
    expect(switch(page, say.code.upper())).to_have_attribute("aria-pressed", "true")
    other = "DA" if say is ENGLISH else "EN"
    expect(switch(page, other)).to_have_attribute("aria-pressed", "false")
    expect(page.locator("header nav a")).to_have_text(say.rules)
    expect(page.locator("#sheet-foot th")).to_have_text(say.points_left)
    expect(page.locator("#status")).to_have_text(say.next_to_roll.format(name=next_roller))
    expect(page.get_by_role("heading", name=say.follow)).to_be_visible()


@pytest.mark.slow
def test_the_switch_on_a_phone_turns_the_game_danish_and_it_stays_so(
    open_browser: Callable[..., Any],
) -> None:
    host = open_browser()
    link = create_game(host, ["Anna", "Ben", "Cleo", "Dan"])
    phone = open_browser(PHONE)  # a phone set to English
    phone.goto(link)
    expect_game_page_in(phone, ENGLISH, "Anna")

    danish = switch(phone, "DA")
    expect(danish).to_be_visible()
    expect(danish).to_be_in_viewport()  # on a narrow screen too
    danish.click()
    expect(phone).to_have_url(link)  # back on the same game
    expect_game_page_in(phone, DANISH, "Anna")

    phone.reload()
    expect_game_page_in(phone, DANISH, "Anna")

    # The sheet still follows the host live, now in Danish; the host's own browser stays
    # in English.
    phone.evaluate("window.__marker = 1")
    tap(host, "34")
    expect(ask(host)).to_have_text(ENGLISH.hunt.format(total=34, margin=4))
    tap(host, "2")
    row = phone.locator("#turn-1")
    expect(row).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    why = DANISH.hit.format(roller="Anna", total=34, margin=4, victim="Ben")
    expect(row).to_have_attribute("title", why)
    expect(footer(phone, 2)).to_have_text("28", timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#status")).to_have_text(DANISH.next_to_roll.format(name="Ben"))
    assert phone.evaluate("window.__marker === 1")  # not reloaded
    host.reload()
    expect_game_page_in(host, ENGLISH, "Ben")

    # Other pages follow the choice as well.
    phone.goto("/")
    expect(phone.locator("h1")).to_have_text(DANISH.new_game)
    expect(phone.get_by_role("button", name=DANISH.start)).to_be_visible()

    # And back to English, which sticks just the same.
    switch(phone, "EN").click()
    expect(phone.locator("html")).to_have_attribute("lang", ENGLISH.code)
    expect(phone.locator("h1")).to_have_text(ENGLISH.new_game)
    phone.reload()
    expect(phone.locator("h1")).to_have_text(ENGLISH.new_game)
    expect(switch(phone, "EN")).to_have_attribute("aria-pressed", "true")
