"""Dice thrown at the table, refereed on a phone: Anna enters each roll of her turn on her own
phone with the face buttons (the odds shown after each roll, as for the app's dice), a wrong
entry is told in a sentence and changes nothing, a roll entered wrong is corrected, and the
turn reaches every phone (each in its own language) with its rolls, marked as thrown at the
table. Once the game is over, its page and Anna's say what her choices gave away and how the
dice ran."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Turn
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_game

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

WORDS = {
    "en": {
        "open": "Or enter each roll",
        "enter": "Enter the roll",
        "then": "Set aside, then enter the roll",
        "hunt": "Hunt 6s: enter the 6 dice thrown",
        "correct": "Correct the last entry",
        "count": "Enter the 6 dice that were thrown (5 entered).",
        "thrown": "Dice thrown at the table",
        "trail": "Dice thrown at the table: 6 6 6 6 6 5 → set aside 6",
        "coach": "Luck and skill",
        "anna": "Anna’s choices gave away",
        "page": "Luck and skill, game by game",
        "hints": "Show the odds to the roller",
    },
    "da": {
        "open": "Eller skriv hvert slag ind",
        "enter": "Skriv slaget ind",
        "then": "Læg til side, og skriv slaget ind",
        "hunt": "Jagt 6'ere: skriv de 6 terninger ind",
        "correct": "Ret det sidste, der blev skrevet ind",
        "count": "Skriv de 6 terninger ind, der blev slået (5 skrevet ind).",
        "thrown": "Terninger slået ved bordet",
        "trail": "Terninger slået ved bordet: 6 6 6 6 6 5 → 6 lagt til side",
        "coach": "Held og dygtighed",
        "anna": "Annas valg kostede",
        "page": "Held og dygtighed, spil for spil",
        "hints": "Vis chancerne for den, der slår",
    },
}


def tap_faces(phone: Any, faces: str) -> None:
    entry = phone.locator("#turn-panel .dice-entry").last
    for face in faces:
        entry.locator(f'button.face[data-face="{face}"]').click()
    expect(entry.locator("[data-dice-entry]")).to_have_value(faces)


@pytest.mark.slow
def test_a_turn_thrown_at_the_table_is_refereed_roll_by_roll(
    open_browser: Callable[..., Any],
) -> None:
    # A table of both languages: Anna's phone in Danish, the host's and the watcher's in
    # English.
    words, seen = WORDS[DANISH.code], WORDS[ENGLISH.code]
    host = open_browser(PHONE, locale=ENGLISH.locale)
    share = create_game(host, ["Anna", "Ben"], start_points=1)
    anna_link = host.locator("#seat-link-1").input_value()
    host.get_by_label(seen["hints"]).check()  # the odds for the roller, after each roll
    anna = open_browser(PHONE, locale=DANISH.locale)
    anna.goto(anna_link)
    watcher = open_browser(PHONE, locale=ENGLISH.locale)
    watcher.goto(share)

    anna.get_by_text(words["open"]).click()
    tap_faces(anna, "66666")
    anna.get_by_role("button", name=words["enter"]).click()
    expect(anna.locator("#turn-panel [role=alert]")).to_have_text(words["count"])
    assert not Game.objects.get().moves.exists()  # a wrong entry changes nothing

    anna.locator("#turn-panel .dice-entry button.face[data-face='5']").click()
    anna.get_by_role("button", name=words["enter"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(6)
    expect(anna.locator("#turn-panel .hint-choice").first).to_be_visible()  # the odds
    expect(watcher.locator(".tray-status")).to_contain_text(seen["thrown"])

    # Keep one 6 and enter the five dice thrown next; then take that roll back, as if the
    # dice were read wrong, and enter it again.
    anna.locator("#turn-panel .pick input").first.check()
    tap_faces(anna, "66665")
    anna.get_by_role("button", name=words["then"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(5)
    anna.get_by_role("button", name=words["correct"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(6)
    anna.locator("#turn-panel .pick input").first.check()
    tap_faces(anna, "66666")
    anna.get_by_role("button", name=words["then"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(5)
    for place in range(5):
        anna.locator("#turn-panel .pick input").nth(place).check()
    anna.get_by_role("button", name=words["then"]).click()
    # 36: the hunt rolls six dice for 6s, entered as thrown; Ben's one point goes.
    tap_faces(anna, "666666")
    anna.get_by_role("button", name=words["hunt"]).click()

    expect(watcher.locator("#sheet-rows tr")).to_have_count(1, timeout=LIVE_TIMEOUT_MS)
    row = Turn.objects.get()
    assert row.data["table"] and row.data["total"] == 36 and len(row.data["rolls"]) == 2
    why = watcher.locator("#turn-1").get_attribute("data-why") or ""
    assert seen["trail"] in why
    # The game is over: its page and Anna's say what her choices gave away.
    watcher.reload()
    expect(watcher.locator("#chart")).to_contain_text(seen["coach"])
    expect(watcher.locator("#chart")).to_contain_text(seen["anna"])
    anna.goto("/players/Anna/")
    expect(anna.locator("#coaching h2")).to_have_text(words["page"], timeout=LIVE_TIMEOUT_MS)
