"""The host sees which seats have a phone at the table, and whose phone went quiet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, create_game

WORDS = {
    "en": ("Ben: not here yet", "Ben’s phone is asleep"),
    "da": ("Ben er ikke kommet endnu", "Bens telefon sover"),
}


@pytest.mark.parametrize("language", [ENGLISH, DANISH], ids=["en", "da"])
def test_the_host_sees_a_phone_arrive_and_go_quiet(
    open_browser: Callable[..., Any],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    language: Language,
) -> None:
    not_here, asleep = WORDS[language.code]
    # Quicker beats and a shorter quiet, so that the test need not wait a minute.
    monkeypatch.setattr("games.push.HEARTBEAT_SECONDS", 0.5)
    settings.THIRTY_PRESENCE_QUIET_SECONDS = 3
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, ["Anna", "Ben"], language=language)
    presence = host.locator("#presence")
    expect(presence).to_contain_text(not_here)
    ben = open_browser(PHONE, locale=language.locale)
    ben.goto(host.locator("#seat-link-2").input_value())
    expect(ben.locator("#turn-signal")).to_have_attribute("data-my-seat", "1")
    expect(presence.locator(".seat-presence.here")).to_contain_text("Ben", timeout=8_000)
    ben.context.close()  # the phone sleeps: its stream stops beating
    expect(presence).to_contain_text(asleep, timeout=10_000)
