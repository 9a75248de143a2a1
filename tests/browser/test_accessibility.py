"""Accessibility: axe-core on every kind of page, in both colour schemes and both languages;
the keyboard through a whole turn; the dark mode switch; the chart on the sheet."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.rules.dice import Turn as RuleTurn
from tests.browser.conftest import LAPTOP
from tests.browser.helpers import (
    DANISH,
    ENGLISH,
    PHONE,
    Language,
    create_game,
    press,
    tap,
    wait_until,
)
from tests.factories import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.14.1.min.js"
SERIOUS = ("serious", "critical")


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """What axe finds on the page as it is now, keeping only serious and critical problems.
    The script goes in through the DevTools protocol, so no page policy can block it."""
    page.evaluate(AXE.read_text())
    result: dict[str, Any] = page.evaluate(
        """async () => {
          const result = await axe.run(document);
          return {
            passed: result.passes.map((rule) => rule.id),
            violations: result.violations.map((v) => ({
              id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " " + n.failureSummary),
            })),
          };
        }"""
    )
    assert "color-contrast" in result["passed"]  # axe ran, and checked the text's contrast
    return [found for found in result["violations"] if found["impact"] in SERIOUS]


# Each colour scheme once and each language once: the colours are the same in both languages,
# and the words (labels, names, the page's language) the same in both schemes.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "scheme"), [(ENGLISH, "dark"), (DANISH, "light")], ids=["en-dark", "da-light"]
)
def test_no_serious_violations_on_any_page(
    open_browser: Any, language: Language, scheme: str
) -> None:
    host = open_browser(PHONE, locale=language.locale)
    host.emulate_media(color_scheme=scheme)
    host.goto("/")
    assert serious_violations(host) == []

    link = create_game(host, ["Anna", "Ben", "Cleo"], start_points=3, language=language)
    tap(host, "33")
    tap(host, "2")
    tap(host, "20")
    expect(host.locator("#sheet-rows tr")).to_have_count(2)
    expect(host.locator("#turn-panel fieldset:not([disabled])")).to_have_count(1)
    host.locator(".legend summary").click()  # the legend's marks are checked too
    assert serious_violations(host) == [], "host"

    watcher = open_browser(LAPTOP, locale=language.locale)
    watcher.emulate_media(color_scheme=scheme)
    watcher.goto(link)
    expect(watcher.locator("#sheet-rows tr")).to_have_count(2)
    assert serious_violations(watcher) == [], "watcher"

    watcher.goto("/rules/")
    assert serious_violations(watcher) == [], "rules"

    watcher.goto(link)
    watcher.locator(".chart-key a", has_text="Anna").click()
    expect(watcher.locator("h1")).to_have_text("Anna")
    assert serious_violations(watcher) == [], "player"

    watcher.goto("/history/?player=anna")
    expect(watcher.locator(".games li")).to_have_count(1)
    assert serious_violations(watcher) == [], "history"


def test_a_whole_turn_by_keyboard_keeps_focus_in_the_turn_form(open_browser: Any) -> None:
    page = open_browser(LAPTOP)
    create_game(page, ["Anna", "Ben", "Cleo"])
    page.locator("#turn-panel .pad button").first.focus()
    # From the first total, 33 is 27 buttons on: arrow-free, with Tab, as a keyboard user would.
    for _ in range(27):
        page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("33")
    page.keyboard.press("Enter")
    # The next step asks how many dice showed 3: focus is on its first answer already.
    expect(page.locator("#turn-panel .ask")).to_contain_text("how many dice showed 3")
    expect(page.locator(":focus")).to_have_text("0")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("2")
    page.keyboard.press("Enter")
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    # After the turn is recorded, focus comes back to the next player's pad.
    expect(page.locator("#turn-panel h2")).to_have_text("Ben’s turn")
    expect(page.locator(":focus")).to_have_text("6")


def test_the_dark_mode_switch_overrides_the_system_and_is_remembered(open_browser: Any) -> None:
    page = open_browser(PHONE)
    page.emulate_media(color_scheme="light")
    page.goto("/")
    switch = page.get_by_role("button", name="Dark mode")
    expect(switch).to_have_attribute("aria-pressed", "false")
    background = "getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(background)
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.evaluate(background)
    assert dark != light and dark == "rgb(20, 25, 30)"
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(background) == dark
    # Back to light, which is what the system shows: the page follows the system again.
    page.get_by_role("button", name="Dark mode").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(background) == dark


def test_the_sheet_draws_its_chart_and_a_watcher_sees_it_grow(open_browser: Any) -> None:
    host = open_browser(LAPTOP)
    link = create_game(host, ["Anna", "Ben"], start_points=2)
    watcher = open_browser(PHONE)
    watcher.goto(link)
    expect(watcher.locator("#chart")).to_contain_text("The chart starts with the first turn.")
    tap(host, "33")
    tap(host, "2")  # Ben is out: Anna wins
    picture = watcher.locator("#chart img.chart-picture")
    expect(picture).to_be_visible()
    expect(picture).to_have_attribute("alt", re.compile("Now: Anna 2 and Ben out"))
    width = watcher.wait_for_function(
        "() => document.querySelector('#chart img').naturalWidth"
    ).json_value()
    assert width == 400  # a phone gets the narrow picture, with text it can read
    expect(watcher.locator("#chart")).to_contain_text("Biggest hit")
    expect(watcher.locator("#chart")).to_contain_text("Anna hit Ben for 2 in turn 1.")
    # The game is over: it offers itself to BG Stats, a play in the app's push format.
    bgstats = watcher.get_by_role("link", name="Log in BG Stats")
    data = json.loads(unquote(bgstats.get_attribute("href").split("?data=", 1)[1]))
    assert data["sourceName"] == "Thirty" and data["game"]["sourceGameId"] == "thirty"
    assert [(p["name"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Anna", True, 1),
        ("Ben", False, 2),
    ]


@pytest.mark.slow
def test_a_phone_fetches_the_chart_only_once_it_comes_into_sight(open_browser: Any) -> None:
    """A watcher's chart below a long sheet is not fetched after every turn: the update's
    picture waits until the phone scrolls to it, and then shows the latest turn's chart."""
    host = open_browser(LAPTOP)
    create_game(host, ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"])
    game = Game.objects.get()
    play(game, *[RuleTurn(20)] * 24)  # a sheet as tall as a phone lets it be
    watcher = open_browser(PHONE)
    watcher.goto(f"/g/{game.pk}/")
    below = watcher.evaluate(
        "document.querySelector('#chart').getBoundingClientRect().top - innerHeight"
    )
    assert below > 0, f"the chart begins {-below} px above the bottom of the screen"
    watcher.evaluate("navigator.serviceWorker.ready.then(() => true)")
    watcher.reload()  # now the worker controls the page: it keeps its chart for offline
    charts: list[str] = []

    def fetched(request: Any) -> None:
        if "/chart.svg" in request.url:
            charts.append(request.url)

    watcher.on("request", fetched)
    host.reload()
    rows = watcher.locator("#sheet-rows tr")
    for number in range(25, 28):
        tap(host, "20")
        expect(rows).to_have_count(number)
    version = watcher.evaluate("document.body.dataset.version")
    picture = watcher.locator("#chart img.chart-picture")
    expect(picture).to_have_attribute("data-src", re.compile(f"v={version}&"))
    assert charts == [], "the phone fetched a chart it did not show"

    watcher.locator("#chart").scroll_into_view_if_needed()
    width = watcher.wait_for_function(
        "() => document.querySelector('#chart img').naturalWidth"
    ).json_value()
    assert width == 400  # the narrow picture, of the turn the phone shows
    assert len(charts) == 1 and f"v={version}&" in charts[0] and "size=narrow" in charts[0]

    # Without a connection the page the worker kept (at an earlier turn) shows the newest
    # chart the phone fetched: a game's chart is kept once, whatever its version.
    watcher.context.set_offline(True)
    watcher.reload()
    expect(watcher.locator("#offline")).to_be_visible()
    assert (
        watcher.wait_for_function(
            "() => document.querySelector('#chart img').naturalWidth"
        ).json_value()
        == 400
    )
    watcher.context.set_offline(False)


def test_printing_repeats_the_sheet_header_and_hides_the_controls(open_browser: Any) -> None:
    page = open_browser(LAPTOP)
    create_game(page, ["Anna", "Ben"])
    tap(page, "20")
    page.emulate_media(media="print")
    display = page.evaluate("getComputedStyle(document.getElementById('sheet-head')).display")
    assert display == "table-header-group"
    expect(page.locator("#turn-panel")).to_be_hidden()
    expect(page.locator("header.bar")).to_be_hidden()
    expect(page.locator("#sheet")).to_be_visible()


def test_the_app_can_be_installed_and_shows_the_last_sheet_offline(open_browser: Any) -> None:
    host = open_browser(PHONE)
    link = create_game(host, ["Anna", "Ben"])
    watcher = open_browser(PHONE, locale=DANISH.locale)
    watcher.goto(link)
    # Install criteria: a manifest with icons, and a service worker controlling the page.
    manifest = watcher.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    watcher.evaluate("navigator.serviceWorker.ready.then(() => true)")
    watcher.reload()  # now the worker controls the page and keeps its copy
    assert watcher.evaluate("Boolean(navigator.serviceWorker.controller)")
    # The whole page the worker fetches to keep, each time.
    copies: list[str] = []
    page_path = urlsplit(watcher.url).path
    watcher.context.on(
        "request",
        lambda r: (
            copies.append(r.url) if r.service_worker and urlsplit(r.url).path == page_path else None
        ),
    )

    def kept_rows() -> int:
        """The rows of the sheet in the copy the worker keeps."""
        count: int = watcher.evaluate(
            """() => caches.match(location.origin + location.pathname)
              .then((kept) => kept ? kept.text() : "")
              .then((text) => (text.match(/id="turn-[0-9]+"/g) || []).length)"""
        )
        return count

    tap(host, "20")
    expect(watcher.locator("#sheet-rows tr")).to_have_count(1)
    # Not while the update goes in on every phone at the table: once the game is still (2 s),
    # the worker keeps a fresh copy of the page.
    assert copies == []
    wait_until(watcher, lambda: kept_rows() == 1, why=lambda: f"kept {kept_rows()} rows")
    # The next ones, close behind, do not each fetch the whole page again...
    for turns in (2, 3):
        tap(host, "20")
        expect(host.locator("#sheet-rows tr")).to_have_count(turns)
    expect(watcher.locator("#sheet-rows tr")).to_have_count(3)
    assert len(copies) == 1 and kept_rows() == 1, copies
    # ...until the phone is put away (the page is hidden), when the copy is brought up to date.
    watcher.evaluate(
        """() => {
          Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
          document.dispatchEvent(new Event("visibilitychange"));
          delete document.visibilityState;
        }"""
    )
    wait_until(watcher, lambda: kept_rows() == 3, why=lambda: f"kept {kept_rows()} rows")
    assert len(copies) == 2, copies

    offline = watcher.locator("#offline")
    expect(offline).to_be_hidden()
    watcher.context.set_offline(True)
    expect(offline).to_be_visible()
    expect(offline).to_contain_text("Du er offline")
    watcher.reload()  # without a connection: the copy the service worker kept
    expect(watcher.locator("#sheet")).to_be_visible()
    expect(watcher.locator("#sheet-rows tr")).to_have_count(3)
    expect(watcher.locator("#offline")).to_be_visible()
    watcher.context.set_offline(False)
    expect(watcher.locator("#offline")).to_be_hidden()


def test_the_screen_stays_awake_while_a_game_is_open(open_browser: Any) -> None:
    page = open_browser(PHONE)
    page.context.grant_permissions(["screen-wake-lock"])
    create_game(page, ["Anna", "Ben"], start_points=1)
    expect(page.locator("html")).to_have_attribute("data-awake", "true")
    tap(page, "33")
    tap(page, "1")  # Ben is out: the game is over and the screen may sleep again
    expect(page.locator("#status.finished")).to_be_visible()
    expect(page.locator("html")).not_to_have_attribute("data-awake", "true")


def test_a_finished_game_replays_turn_by_turn(open_browser: Any) -> None:
    page = open_browser(LAPTOP)
    create_game(page, ["Anna", "Ben"], start_points=2)
    tap(page, "20")
    tap(page, "33")
    tap(page, "2")  # Ben hits Anna for 2: Ben wins
    page.get_by_role("link", name="Replay the game").click()
    expect(page.locator(".replay-where")).to_have_text("Before the first turn")
    page.get_by_role("link", name="Next ▶").click()
    expect(page.locator(".replay-where")).to_have_text("Turn 1 of 2")
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    expect(page.locator(".chart-picture")).to_be_visible()
    press(page, "ArrowRight")  # the arrow keys step too
    expect(page.locator(".replay-where")).to_have_text("Turn 2 of 2")
    expect(page.locator("#sheet-rows tr")).to_have_count(2)
    expect(page.locator("#sheet-foot td").first).to_have_text("0")
    press(page, "ArrowLeft")
    expect(page.locator(".replay-where")).to_have_text("Turn 1 of 2")
    assert serious_violations(page) == []
