"""Every phone knows whose turn it is: the phone whose turn it is vibrates and, in the
background, shows it in the tab's title and icon; every other phone's screen reader hears
whose turn it is. One signal for every kind of game (templates/games/turn_signal.html)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import DANISH, ENGLISH, Language, create_game, tap

# What each phone records: the vibrations asked for, and a page that can be sent to the
# background (Playwright's pages are always in front).
PHONE_HOOKS = """
window.vibrations = [];
navigator.vibrate = (pattern) => { window.vibrations.push(pattern); return true; };
window.inBackground = false;
Object.defineProperty(document, "visibilityState", {
  get: () => (window.inBackground ? "hidden" : "visible"),
});
"""
WORDS = {
    "en": {"your_turn": "● Your turn · ", "bens_turn": "Ben’s turn", "sound": "Sound on my turn"},
    "da": {
        "your_turn": "● Din tur · ",
        "bens_turn": "Bens tur",
        "sound": "Lyd, når det er min tur",
    },
}


def phone(open_browser: Callable[..., Any], language: Language, link: str) -> Any:
    page = open_browser(PHONE, locale=language.locale)
    page.add_init_script(PHONE_HOOKS)
    page.goto(link)
    expect(page.locator("#turn-signal")).to_have_count(1)
    return page


@pytest.mark.parametrize("language", [ENGLISH, DANISH], ids=["en", "da"])
def test_the_phone_whose_turn_it_is_is_told_and_the_others_hear_whose_it_is(
    open_browser: Callable[..., Any], language: Language
) -> None:
    words = WORDS[language.code]
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, ["Anna", "Ben", "Cleo"], language=language)
    ben = phone(open_browser, language, host.locator("#seat-link-2").input_value())
    cleo = phone(open_browser, language, host.locator("#seat-link-3").input_value())
    title = ben.title()
    # Opening the page is no news: nothing vibrates, and Anna is to roll.
    assert ben.evaluate("window.vibrations") == []
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "false")
    expect(ben.get_by_role("button", name=words["sound"])).to_be_visible()
    expect(host.get_by_role("button", name=words["sound"])).to_have_count(0)  # no seat

    ben.evaluate("window.inBackground = true")
    tap(host, "20")  # Anna's turn, entered by the host: now it is Ben's
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "true")
    expect(ben).to_have_title(words["your_turn"] + title)
    assert ben.locator('link[rel="icon"]').get_attribute("href").endswith(".svg")
    assert "die-turn" in (ben.locator('link[rel="icon"]').get_attribute("href") or "")
    assert len(ben.evaluate("window.vibrations")) == 1
    # Cleo's phone only hears it, politely, and does not vibrate.
    expect(cleo.locator("#turn-announce")).to_have_text(words["bens_turn"])
    assert cleo.locator("#turn-announce").get_attribute("aria-live") == "polite"
    assert cleo.evaluate("window.vibrations") == []

    # Back in front, the tab is plain again; Ben plays his turn and Cleo's phone is told.
    ben.evaluate(
        "window.inBackground = false; document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(ben).to_have_title(title)
    tap(ben, "20")
    expect(cleo.locator("html")).to_have_attribute("data-your-turn", "true")
    assert len(cleo.evaluate("window.vibrations")) == 1
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "false")
    assert len(ben.evaluate("window.vibrations")) == 1


@pytest.mark.parametrize("language", [ENGLISH, DANISH], ids=["en", "da"])
def test_a_seat_s_phone_follows_the_rematch_in_its_own_seat(
    open_browser: Callable[..., Any], language: Language
) -> None:
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, ["Anna", "Ben"], start_points=1, language=language)
    ben = phone(open_browser, language, host.locator("#seat-link-2").input_value())
    old = ben.url
    tap(host, "33")
    tap(host, "1")  # Ben is out: the game is over
    host.get_by_role("button", name=language.rematch).click()
    expect(ben).not_to_have_url(old, timeout=15_000)
    # In the rematch Ben's phone holds Ben's seat: no new link was handed out.
    expect(ben.locator("#turn-signal")).to_have_attribute("data-my-seat", "1")
    expect(ben.get_by_role("button", name=WORDS[language.code]["sound"])).to_be_visible()
    expect(host.locator("#seat-links")).to_contain_text("Ben")
