"""The host hands a seat to the computer when its player leaves, and back, from a phone; the
phone that held the seat is told so and loses its controls."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_card_game, create_game

WORDS = {
    "en": ("Someone leaving?", "Let the computer play for Anna", "Give Anna’s seat to a person"),
    "da": ("Går nogen?", "Lad computeren spille for Anna", "Giv Annas plads til en person"),
}


def test_a_seat_handed_to_the_computer_plays_at_once_and_comes_back(
    open_browser: Callable[..., Any],
) -> None:
    language = DANISH  # the next test's host is in English
    leaving, to_computer, to_person = WORDS[language.code]
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, ["Anna", "Ben"], language=language)
    host.get_by_text(leaving).click()
    host.get_by_role("button", name=to_computer).click()
    # Anna's turn was due: the computer has rolled it, and the sheet marks it.
    expect(host.locator("#sheet-rows tr")).to_have_count(1)
    expect(host.locator("#turn-1 .by-computer")).to_be_visible()
    host.get_by_text(leaving).click()
    host.get_by_role("button", name=to_person).click()
    # Anna's seat is a person's again, with a new link to hand out.
    expect(host.locator("#seat-link-1")).to_have_attribute("value", re.compile(r"/seat#."))
    expect(host.locator("#hand-over button", has_text=to_computer)).to_have_count(1)


TOLD = {
    "en": "The host gave your seat to the computer: this phone now only follows the game.",
    "da": "Værten har givet din plads til computeren: denne telefon følger nu kun med i spillet.",
}


def test_the_phone_whose_seat_goes_to_the_computer_is_told_and_loses_its_hand(
    open_browser: Callable[..., Any],
) -> None:
    # The host's phone in English, Anna's in Danish: each is told in its own language.
    leaving, to_computer, _to_person = WORDS[ENGLISH.code]
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_card_game(host, ["Anna", "Ben"], tokens=3)
    anna = open_browser(PHONE, locale=DANISH.locale)
    anna.goto(host.locator("#seat-link-1").input_value())
    expect(anna.locator("#hand")).to_be_visible()
    expect(anna.locator("#hand .playable").first).to_be_visible()  # her turn: the first card
    host.get_by_text(leaving).click()
    host.get_by_role("button", name=to_computer).click()
    # Anna's own phone is told, in so many words, and has nothing left to play with.
    notice = anna.locator("#seat-notice")
    expect(notice).to_have_text(TOLD[DANISH.code])
    expect(notice.get_by_role("alert")).to_be_visible()
    expect(anna.locator("#hand")).to_have_count(0)
    expect(anna.locator("#turn-signal")).to_have_attribute("data-my-seat", "")
    # The computer played her card at once; her phone follows the table like any watcher.
    expect(anna.locator("#card-area .card-log .by-computer").first).to_be_visible()
