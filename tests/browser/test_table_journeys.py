"""A real table on phones (390×844), in English and in Danish (each page in its own): names
typed with the phone's keyboard, double taps on the pad, what the host sees after a turn, a
seat whose turn the host entered, and the share buttons."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Turn
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, ask, create_game, footer, tap

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
# Words these journeys read, from the catalogue (locale/da/LC_MESSAGES/django.po).
WORDS = {
    "en": {"copy": "Copy", "copied": "Copied", "entered": "The host entered your turn: {total}"},
    "da": {"copy": "Kopiér", "copied": "Kopieret", "entered": "Værten skrev din tur ind: {total}"},
}


def names_field(page: Any, index: int) -> Any:
    return page.locator('#create-form input[name="player"]').nth(index)


def test_enter_in_a_name_moves_on_and_then_starts_the_game_with_everyone(
    open_browser: Callable[..., Any], language: Language
) -> None:
    page = open_browser(PHONE, locale=language.locale)
    page.goto("/")
    for index, name in enumerate(PLAYERS):
        names_field(page, index).fill(name)
    names_field(page, 0).press("Enter")  # the phone keyboard's Go / Next
    expect(names_field(page, 1)).to_be_focused()
    expect(page.locator('#create-form input[name="player"]')).to_have_count(4)  # nobody removed
    names_field(page, 3).press("Enter")
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    expect(page.locator("#sheet-head th.seat")).to_have_text(PLAYERS)
    assert Game.objects.get().seats.count() == 4


def test_enter_without_scripts_starts_the_game_and_removes_nobody(
    browser: Any, live_server: Any, language: Language
) -> None:
    context = browser.new_context(
        viewport=PHONE,
        base_url=live_server.url,
        locale=language.locale,
        java_script_enabled=False,
    )
    try:
        page = context.new_page()
        page.goto("/")
        for index, name in enumerate(PLAYERS):
            names_field(page, index).fill(name)
        names_field(page, 0).press("Enter")
        expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
        expect(page.locator("#sheet-head th.seat")).to_have_text(PLAYERS)
    finally:
        context.close()


@pytest.mark.waits
@pytest.mark.real_pace  # the cool-down this test is about: 600 ms, as players have it
def test_a_double_tap_on_the_pad_records_one_turn(open_browser: Callable[..., Any]) -> None:
    language = DANISH  # the pad is the same in both languages
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, PLAYERS, language=language)
    button = host.locator("#turn-panel .pad").get_by_role("button", name="27", exact=True)
    tap(host, "20")  # Anna's first turn: the sheet now comes before sharing, the pad at the top
    expect(host.locator("#turn-panel h2")).to_have_text(language.turn.format(name="Ben"))
    expect(button).to_be_enabled()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Two taps 250 ms apart where 27 is: the second lands on Cleo's fresh pad.
    host.mouse.click(x, y)
    host.wait_for_timeout(250)
    host.mouse.click(x, y)
    expect(host.locator("#sheet-rows tr")).to_have_count(2)
    expect(host.locator("#turn-panel h2")).to_have_text(language.turn.format(name="Cleo"))
    # Once Cleo's pad takes taps again, a second turn from the second tap would be recorded.
    expect(button).to_be_enabled()
    assert Turn.objects.count() == 2
    # The fastest double tap the screen can make records one turn as well.
    host.mouse.dblclick(x, y)
    expect(host.locator("#sheet-rows tr")).to_have_count(3)
    expect(host.locator("#turn-panel h2")).to_have_text(language.turn.format(name="Dan"))
    expect(button).to_be_enabled()
    assert list(Turn.objects.values_list("roller", flat=True)) == [0, 1, 2]


def tap_in_view(page: Any, label: str) -> None:
    """Tap a pad button where it is on the screen, as a finger does. A locator's click would
    scroll the page itself whenever it retries, which would hide a page that scrolls."""
    button = page.locator("#turn-panel").get_by_role("button", name=label, exact=True)
    expect(button).to_be_enabled()
    expect(button).to_be_in_viewport()
    box = button.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_the_host_sees_the_turn_and_the_points_it_changed_without_scrolling(
    open_browser: Callable[..., Any], language: Language
) -> None:
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, PLAYERS, language=language)
    tap(host, "20")  # the pad sits below sharing until the first turn: this tap scrolls to it
    # Then the sheet comes first and the page goes back to its top, by itself.
    expect(host.locator("#share-area")).not_to_have_class(re.compile(r"\bfirst\b"))
    host.wait_for_function("window.scrollY === 0")
    for total in ("21", "22", "23", "24"):  # a few rows first, so the sheet is long
        tap_in_view(host, total)
    expect(host.locator("#sheet-rows tr")).to_have_count(5)
    tap_in_view(host, "33")
    expect(ask(host)).to_have_text(language.hunt.format(total=33, margin=3))
    tap_in_view(host, "2")
    expect(host.locator("#turn-panel .confirm")).to_have_text("✓ Ben 33 · Cleo −2")
    expect(host.locator("#turn-panel .confirm")).to_be_in_viewport()
    expect(host.locator("#turn-6")).to_be_in_viewport()
    expect(footer(host, 3)).to_have_text("28")
    expect(footer(host, 3)).to_be_in_viewport()
    assert host.evaluate("window.scrollY") == 0


def test_a_seats_phone_hears_that_the_host_entered_its_turn(
    open_browser: Callable[..., Any],
) -> None:
    # The host's phone in English, Anna's in Danish: she is told in her own language.
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_game(host, PLAYERS)
    anna_link = host.locator("#seat-link-1").input_value()
    language = DANISH
    anna = open_browser(PHONE, locale=language.locale)
    anna.goto(anna_link)
    expect(ask(anna)).to_have_text(language.total)  # seat play is on: her own turn form
    expect(host.locator("#share .qr")).to_be_visible()  # the host's page put sharing first

    tap(host, "25")
    notice = anna.locator("#turn-panel .notice")
    expect(notice).to_have_text(
        WORDS[language.code]["entered"].format(total=25), timeout=LIVE_TIMEOUT_MS
    )
    expect(anna.locator("#turn-panel form")).to_have_count(0)  # Ben's turn now, not hers
    expect(anna.locator("#turn-1")).to_be_visible()


def test_copy_puts_the_games_link_on_the_clipboard(
    open_browser: Callable[..., Any], language: Language
) -> None:
    host = open_browser(PHONE, locale=language.locale)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = create_game(host, PLAYERS, language=language)
    words = WORDS[language.code]
    share = host.locator("#share")
    copy = share.locator("[data-copy]")
    expect(copy).to_have_text(words["copy"])
    # "Copied" shows for 1.5 s: on a busy machine that can pass between two of the test's
    # looks, so every label the button shows is noted as it changes.
    copy.evaluate(
        """button => {
            window.labels = [];
            new MutationObserver(() => window.labels.push(button.textContent))
                .observe(button, {childList: true, characterData: true, subtree: true});
        }"""
    )
    copy.click()
    expect(copy).to_have_attribute("data-result", "copied")
    assert host.evaluate("window.labels")[0] == words["copied"]
    assert host.evaluate("navigator.clipboard.readText()") == link
    # The Share button shows only where the phone has a share sheet to hand the link to.
    has_share_sheet = host.evaluate("Boolean(navigator.share)")
    expect(share.locator("[data-share]")).to_be_visible(visible=has_share_sheet)
