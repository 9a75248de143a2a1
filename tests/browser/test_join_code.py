"""A laptop without a camera joins by typing the short code the host's screen shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, create_game

WORDS = {"en": ("Code", "Open the game"), "da": ("Kode", "Åbn spillet")}


@pytest.mark.parametrize("language", [ENGLISH, DANISH], ids=["en", "da"])
def test_typing_the_code_opens_the_game(
    open_browser: Callable[..., Any], language: Language
) -> None:
    host = open_browser(PHONE, locale=language.locale)
    create_game(host, ["Anna", "Ben"], language=language)
    code = host.locator("#join-code").inner_text()
    assert len(code) == 5 and host.locator(".join-line").get_by_text("/join").count() == 1
    laptop = open_browser(LAPTOP, locale=language.locale)
    laptop.goto("/join")
    label, button = WORDS[language.code]
    laptop.get_by_label(label).fill(code.lower())
    laptop.get_by_role("button", name=button).click()
    expect(laptop).to_have_url(host.url.split("?")[0])
    expect(laptop.locator("#sheet")).to_be_visible()
