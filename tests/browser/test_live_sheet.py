"""A host enters turns; a phone that opened the share link sees them without reloading."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, ask, create_game, footer, tap

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def follow(open_browser: Callable[..., Any], link: str, language: Language = ENGLISH) -> Any:
    """A phone opens the share link and is marked, so a reload would show."""
    phone = open_browser(PHONE, locale=language.locale)
    phone.goto(link)
    phone.evaluate("window.__marker = 1")
    return phone


def still_the_same_page(page: Any) -> bool:
    return bool(page.evaluate("window.__marker === 1"))


@pytest.mark.journey  # on PostgreSQL too: turns the host enters, and an undo
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

    # The host undoes the turn once its own page shows it: an undo sent from the page as it
    # was before (its version) is one of a turn already taken, and is ignored.
    expect(host.locator("#sheet-rows tr")).to_have_count(2)
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


@pytest.mark.usefixtures("current_translations")
def test_a_whole_game_is_followed_live_to_the_winner_in_each_language(
    open_browser: Callable[..., Any],
) -> None:
    # The host's browser asks for English and the phone's for Danish (Accept-Language), as
    # browsers set to them do: each page is in its own language, whatever the other's.
    host_says, say = ENGLISH, DANISH
    host = open_browser(locale=host_says.locale)
    link = create_game(host, PLAYERS, start_points=2, language=host_says)
    expect(host.locator("html")).to_have_attribute("lang", host_says.code)
    expect(host.locator(".rules-line")).to_contain_text(host_says.rules_summary.format(points=2))

    phone = follow(open_browser, link, say)
    expect(phone.locator("html")).to_have_attribute("lang", say.code)
    expect(phone.get_by_role("heading", name=say.follow)).to_be_visible()
    expect(phone.locator("#sheet-foot th")).to_have_text(say.points_left)
    expect(phone.locator("#sheet-foot td")).to_have_text(["2", "2", "2", "2"])
    expect(phone.locator("#status")).to_have_text(say.next_to_roll.format(name="Anna"))
    expect(phone.locator("#turn-panel")).to_have_count(0)  # a watcher gets no turn form

    # Anna, Cleo and Anna again each beat 30 by 4 and find two 4s: the next player still in
    # loses both points, and Anna is the last one left.
    turns = [
        ("Anna", "Ben", "Cleo", ["34", "0", "2", "0", "0"]),
        ("Cleo", "Dan", "Anna", ["34", "0", "0", "0", "2"]),
        ("Anna", "Cleo", None, ["34", "0", "0", "2", "0"]),
    ]
    for row, (roller, victim, next_roller, cells) in enumerate(turns, start=1):
        expect(host.locator("#turn-panel h2")).to_have_text(host_says.turn.format(name=roller))
        expect(ask(host)).to_have_text(host_says.total)
        tap(host, "34")
        expect(ask(host)).to_have_text(host_says.hunt.format(total=34, margin=4))
        tap(host, "2")

        added = phone.locator(f"#turn-{row}")
        expect(added).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        expect(added.locator("td")).to_have_text(cells)
        why = say.hit.format(roller=roller, total=34, margin=4, victim=victim)
        expect(added).to_have_attribute("title", why)
        seat = PLAYERS.index(victim) + 1
        expect(footer(phone, seat)).to_have_text("0", timeout=LIVE_TIMEOUT_MS)
        expect(phone.locator("#sheet-head th").nth(seat + 1)).to_have_class("seat out")
        if next_roller:
            expect(phone.locator("#status")).to_have_text(say.next_to_roll.format(name=next_roller))
            expect(phone.locator("#sheet-head th.next")).to_have_text(next_roller)

    winner = say.wins.format(name="Anna")
    expect(phone.locator("#status .banner")).to_contain_text(winner, timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#sheet-foot td")).to_have_text(["2", "0", "0", "0"])
    expect(phone.locator("#sheet-foot th")).to_have_text(say.points_left)
    expect(host.locator("#status .banner")).to_contain_text(host_says.wins.format(name="Anna"))
    expect(host.locator("#turn-panel button")).to_have_count(0)  # nothing left to enter
    assert still_the_same_page(phone)

    # Only the host starts the rematch, and the phone following the game goes along.
    expect(phone.get_by_role("button", name=say.rematch)).to_have_count(0)
    host.get_by_role("button", name=host_says.rematch).click()
    expect(host).not_to_have_url(re.compile(re.escape(link)))
    expect(host.locator("#sheet-foot td")).to_have_text(["2", "2", "2", "2"])
    # A finished game's phones look every five seconds.
    expect(phone).to_have_url(host.url, timeout=LIVE_TIMEOUT_MS + 7_000)
    expect(phone.locator("#status")).to_have_text(say.next_to_roll.format(name="Anna"))


def test_the_share_card_shows_a_qr_code_that_loads(open_browser: Callable[..., Any]) -> None:
    host = open_browser()
    link = create_game(host, PLAYERS)
    phone = follow(open_browser, link)
    qr = phone.locator(".share img.qr")
    expect(qr).to_be_visible()
    qr.evaluate("img => img.decode().catch(() => null)")
    assert qr.evaluate("img => img.naturalWidth") > 0  # a broken image has no size
    expect(phone.get_by_label("Link to this game")).to_have_value(link)
