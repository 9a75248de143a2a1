"""Dice the app rolls, on real phones: the host starts a game, Anna rolls and sets dice aside on
her own phone while the host and a watcher see the dice appear, Ben's phone is refused when
it is not his turn, and a computer seat plays its turn by itself."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Turn
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_game
from tests.factories import rolling

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

WORDS = {
    "en": {
        "roll": "Roll with the app instead",
        "set_aside": "Set aside and roll the rest",
        "not_your_turn": "It is not your turn.",
    },
    "da": {
        "roll": "Slå med appen",
        "set_aside": "Læg til side, og slå resten",
        "not_your_turn": "Det er ikke din tur.",
    },
}


def faces(page: Any, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    return found


@pytest.mark.slow
def test_a_seat_rolls_on_its_phone_while_the_table_watches(
    open_browser: Callable[..., Any],
) -> None:
    # A table of both languages: Anna's and the watcher's phones in Danish, the host's and
    # Ben's in English.
    words = WORDS[DANISH.code]
    host = open_browser(PHONE, locale=ENGLISH.locale)
    share = create_game(host, ["Anna", "Ben", "Cleo"])
    anna_link = host.locator("#seat-link-1").input_value()
    ben_link = host.locator("#seat-link-2").input_value()
    anna = open_browser(PHONE, locale=DANISH.locale)
    anna.goto(anna_link)
    ben = open_browser(PHONE, locale=ENGLISH.locale)
    ben.goto(ben_link)
    watcher = open_browser(PHONE, locale=DANISH.locale)
    watcher.goto(share)
    expect(watcher.locator("#sheet")).to_be_visible()

    # Ben cannot roll Anna's turn: his phone has no roll button, and a forged post is refused
    # in his language.
    expect(ben.get_by_role("button", name=WORDS[ENGLISH.code]["roll"])).to_have_count(0)
    game = Game.objects.get()
    csrf = next(c["value"] for c in ben.context.cookies() if c["name"] == "csrftoken")
    refused = ben.request.post(
        f"/g/{game.pk}/roll",
        form={"act": "roll", "v": str(game.version)},
        headers={"X-CSRFToken": csrf, "Referer": ben_link, "Accept-Language": ENGLISH.locale},
    )
    assert refused.status == 422
    assert WORDS[ENGLISH.code]["not_your_turn"] in refused.text()
    assert rolling(game) is None

    anna.get_by_role("button", name=words["roll"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(6)
    in_progress = rolling(game)
    assert in_progress is not None
    first_roll = [str(face) for face in in_progress["rolls"][0]["dice"]]
    # Everyone sees the same six dice at once.
    for viewer in (watcher, host):
        expect(viewer.locator(".dice-row.large .die")).to_have_count(6, timeout=LIVE_TIMEOUT_MS)
        assert faces(viewer, ".dice-row.large .die") == first_roll

    # Anna sets aside her highest die and rolls the rest, until all six are aside.
    for _ in range(6):
        game.refresh_from_db()
        in_progress = rolling(game)
        if in_progress is None or in_progress["rolls"][-1]["kept"] is not None:
            break
        dice = in_progress["rolls"][-1]["dice"]
        best = dice.index(max(dice))
        anna.locator("#turn-panel .pick input").nth(best).check()
        before = game.version
        anna.get_by_role("button", name=words["set_aside"]).click()
        expect(anna.locator("body")).to_have_attribute(
            "data-version", re.compile(r"\d+"), timeout=LIVE_TIMEOUT_MS
        )
        anna.wait_for_function(
            "v => Number(document.body.dataset.version) > v", arg=before, timeout=LIVE_TIMEOUT_MS
        )
        game.refresh_from_db()
        in_progress = rolling(game)
        if in_progress is not None:
            kept = sum(d for r in in_progress["rolls"] for d in r["kept"] or [])
            expect(watcher.locator(".kept-total")).to_have_text(str(kept), timeout=LIVE_TIMEOUT_MS)
        elif in_progress is None and Turn.objects.exists():
            break
        hunt = anna.locator("#turn-panel button[value=hunt]")
        if hunt.count():
            hunt.click()
            break

    expect(watcher.locator("#sheet-rows tr")).to_have_count(1, timeout=LIVE_TIMEOUT_MS * 2)
    turn = Turn.objects.get()
    rolls = turn.data["rolls"]
    assert turn.roller == 0 and rolls is not None
    assert sum(die for step in rolls for die in step["kept"]) == turn.data["total"]
    # Tapping the row tells how the turn was rolled.
    why = watcher.locator("#turn-1").get_attribute("data-why") or ""
    assert " ".join(str(d) for d in rolls[0]["dice"]) in why


@pytest.mark.journey  # on PostgreSQL too: dice rolled from the stored seed, a computer seat
def test_one_person_plays_against_a_computer(
    open_browser: Callable[..., Any],
) -> None:
    page = open_browser(PHONE)
    page.goto("/")
    inputs = page.locator('#create-form input[name="player"]')
    inputs.nth(0).fill("Anna")
    inputs.nth(1).fill("Robot")
    page.locator('select[name="seat_kind"]').nth(1).select_option("computer")
    for extra in range(inputs.count() - 1, 1, -1):
        inputs.nth(extra).fill("")
    page.get_by_role("button", name=ENGLISH.start).click()
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    page.get_by_role("button", name=WORDS["en"]["roll"]).click()
    expect(page.locator("#turn-panel .pick")).to_have_count(6)
    for _ in range(12):
        game = Game.objects.get()
        if rolling(game) is None:
            break
        before = game.version
        if page.locator("#turn-panel .pick").count():
            page.locator("#turn-panel .pick input").first.check()
            page.get_by_role("button", name=WORDS["en"]["set_aside"]).click()
        else:
            page.locator("#turn-panel button[value=hunt]").click()
        page.wait_for_function(
            "v => Number(document.body.dataset.version) > v", arg=before, timeout=LIVE_TIMEOUT_MS
        )
    # Anna's turn and then the computer's are on the sheet, each with its dice.
    expect(page.locator("#sheet-rows tr")).to_have_count(2, timeout=LIVE_TIMEOUT_MS)
    assert [t.roller for t in Turn.objects.order_by("number")] == [0, 1]
    assert all(t.data["rolls"] for t in Turn.objects.all())
    expect(page.get_by_role("button", name=WORDS["en"]["roll"])).to_be_visible()
