"""The host sees which seats have a phone at the table, and whose phone went quiet, on each of
its screens in that screen's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_game

WORDS = {
    "en": ("Ben: not here yet", "Ben’s phone is asleep"),
    "da": ("Ben er ikke kommet endnu", "Bens telefon sover"),
}


@pytest.mark.waits
def test_the_host_sees_a_phone_arrive_and_go_quiet(
    open_browser: Callable[..., Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Quicker beats and a shorter quiet, so that the test need not wait a minute.
    monkeypatch.setattr("games.push.HEARTBEAT_SECONDS", 0.5)
    settings.THIRTY_PRESENCE_QUIET_SECONDS = 3
    host = open_browser(PHONE)
    create_game(host, ["Anna", "Ben"])
    # The host follows on a second screen too, in Danish: its laptop, say.
    laptop = open_browser(locale=DANISH.locale)
    laptop.context.add_cookies(host.context.cookies())
    laptop.goto(host.url.split("?")[0])
    hosts = {ENGLISH.code: host, DANISH.code: laptop}
    for code, page in hosts.items():
        expect(page.locator("#presence")).to_contain_text(WORDS[code][0])
    ben = open_browser(PHONE)
    ben.goto(host.locator("#seat-link-2").input_value())
    expect(ben.locator("#turn-signal")).to_have_attribute("data-my-seat", "1")
    for page in hosts.values():
        expect(page.locator("#presence .seat-presence.here")).to_contain_text("Ben", timeout=8_000)
    ben.context.close()  # the phone sleeps: its stream stops beating
    for code, page in hosts.items():
        expect(page.locator("#presence")).to_contain_text(WORDS[code][1], timeout=10_000)
