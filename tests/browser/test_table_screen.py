"""The table screen: a laptop in the middle of the table follows the game live, large, with
the QR code and the short code beside it and nothing to tap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP
from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_game, tap

SAID = {
    "en": "Anna rolled 20 and did not beat 30: nothing happens.",
    "da": "Anna slog 20 og kom ikke over 30: der sker ingenting.",
}


def test_the_table_screen_follows_live_with_no_controls(
    open_browser: Callable[..., Any],
) -> None:
    # The host's phone in English, the table's screen in Danish.
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_game(host, ["Anna", "Ben"])
    game_path = host.url.split("?")[0].split("://", 1)[1].split("/", 1)[1]
    language = DANISH
    screen = open_browser(LAPTOP, locale=language.locale)
    screen.goto(f"/{game_path}table")
    expect(screen.locator("html")).to_have_class("table-screen")
    expect(screen.locator("#join-code")).to_be_visible()
    expect(screen.locator(".share .qr")).to_be_visible()
    expect(screen.locator("main button:visible")).to_have_count(0)
    # The QR code sits beside the sheet, not below it.
    qr, sheet = screen.locator(".share .qr").bounding_box(), screen.locator("#sheet").bounding_box()
    assert qr["x"] > sheet["x"] + sheet["width"] - 1
    tap(host, "20")
    expect(screen.locator("#sheet-rows tr")).to_have_count(1)
    # The latest moves in words beside the sheet, in large type, as the card table has them;
    # a phone has the sheet alone.
    latest = screen.locator("#latest-moves li")
    expect(latest).to_have_count(1)
    expect(latest.first).to_have_text(SAID[language.code])
    assert float(latest.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 20
    expect(host.locator("#latest-moves")).to_have_count(0)
    tap(host, "24")
    expect(latest).to_have_count(2)
    expect(latest.first).to_have_text(
        SAID[language.code].replace("Anna", "Ben").replace("20", "24")
    )
