"""A host enters turns; a phone that opened the share link sees them without reloading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LIVE_TIMEOUT_MS, PHONE
from tests.browser.helpers import ask, create_game, footer, tap

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def follow(open_browser: Callable[..., Any], link: str) -> Any:
    """A phone opens the share link and is marked, so a reload would show."""
    phone = open_browser(PHONE)
    phone.goto(link)
    phone.evaluate("window.__marker = 1")
    return phone


def still_the_same_page(page: Any) -> bool:
    return bool(page.evaluate("window.__marker === 1"))


def test_a_watcher_sees_each_turn_and_an_undo_without_reloading(
    open_browser: Callable[..., Any],
) -> None:
    host = open_browser()
    link = create_game(host, PLAYERS)
    phone = follow(open_browser, link)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Anna")
    expect(phone.locator("#turn-panel")).to_have_count(0)  # a watcher gets no turn form
    expect(footer(phone, 2)).to_have_text("30")

    tap(host, "33")
    expect(ask(host)).to_have_text("33: how many dice showed 3?")
    tap(host, "2")

    expect(footer(host, 2)).to_have_text("28")
    expect(phone.locator("#turn-1")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#turn-1 td")).to_have_text(["33", "0", "2", "0", "0"])
    expect(footer(phone, 2)).to_have_text("28", timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Ben")
    expect(phone.locator("#sheet-head th.next")).to_have_text("Ben")

    tap(host, "20")  # Ben misses: a row, no points change
    expect(phone.locator("#sheet-rows tr")).to_have_count(2, timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Cleo")

    host.on("dialog", lambda dialog: dialog.accept())
    host.get_by_role("link", name="Undo last turn").click()
    expect(host.locator("#sheet-rows tr")).to_have_count(1)
    expect(ask(host)).to_have_text("Total of the dice kept")
    expect(host.locator("#turn-panel h2")).to_have_text("Ben’s turn")
    expect(phone.locator("#sheet-rows tr")).to_have_count(1, timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Ben")

    host.get_by_role("link", name="Undo last turn").click()
    expect(phone.locator("#turn-1")).to_have_count(0, timeout=LIVE_TIMEOUT_MS)
    expect(footer(phone, 2)).to_have_text("30", timeout=LIVE_TIMEOUT_MS)
    expect(host.locator("#sheet-rows tr")).to_have_count(0)
    expect(footer(host, 2)).to_have_text("30")
    assert still_the_same_page(phone)


def test_a_short_game_ends_with_the_winner_on_the_watchers_phone(
    open_browser: Callable[..., Any],
) -> None:
    host = open_browser()
    link = create_game(host, PLAYERS, start_points=2)
    phone = follow(open_browser, link)
    expect(footer(phone, 1)).to_have_text("2")

    for roller, victim in (("Anna", 2), ("Cleo", 4), ("Anna", 3)):
        expect(host.locator("#turn-panel h2")).to_have_text(f"{roller}’s turn")
        tap(host, "34")
        tap(host, "2")
        expect(footer(phone, victim)).to_have_text("0", timeout=LIVE_TIMEOUT_MS)
        expect(phone.locator("#sheet-head th").nth(victim + 1)).to_have_class("seat out")

    expect(phone.locator("#status .banner")).to_contain_text("Anna wins!", timeout=LIVE_TIMEOUT_MS)
    expect(phone.get_by_role("button", name="Rematch")).to_be_visible()
    expect(host.locator("#status .banner")).to_contain_text("Anna wins!")
    expect(host.locator("#turn-panel button")).to_have_count(0)  # nothing left to enter
    assert still_the_same_page(phone)


def test_the_share_card_shows_a_qr_code_that_loads(open_browser: Callable[..., Any]) -> None:
    host = open_browser()
    link = create_game(host, PLAYERS)
    phone = follow(open_browser, link)
    qr = phone.locator(".share img.qr")
    expect(qr).to_be_visible()
    qr.evaluate("img => img.decode().catch(() => null)")
    assert qr.evaluate("img => img.naturalWidth") > 0  # a broken image has no size
    expect(phone.get_by_label("Link to this game")).to_have_value(link)
