"""The create form's estimate of a game's length: asked for once the form is still."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]
FIRST_ESTIMATE_MS = 20_000


def test_quick_changes_ask_for_the_estimate_once_with_the_last_rules(open_browser: Any) -> None:
    """Figures not worked out yet cost the server seconds of play: a host who picks a preset
    and two variants in a row gets the line for the rules they ended on, and the server
    plays no games for the rules in between."""
    page = open_browser(PHONE)
    asked: list[dict[str, list[str]]] = []

    def note(request: Any) -> None:
        if urlsplit(request.url).path == "/estimate":
            asked.append(parse_qs(urlsplit(request.url).query))

    page.on("request", note)
    page.goto("/")
    page.get_by_role("radio", name=re.compile("^30s")).check()
    page.get_by_label("Healing").check()
    page.get_by_label("Free for all").check()
    # The line's link to the chances names the rules its figures are for.
    chances = page.locator("#estimate a")
    expect(chances).to_have_attribute(
        "href", re.compile(r"preset=30s.*healing=on"), timeout=FIRST_ESTIMATE_MS
    )
    expect(page.locator("#estimate")).to_contain_text("Usually")
    # The page may also have asked for the figures of the rules it opened with.
    thirty_s = [query for query in asked if query.get("preset") == ["30s"]]
    assert len(thirty_s) == 1, thirty_s
    assert thirty_s[0].get("healing") == ["on"] and thirty_s[0].get("free_for_all") == ["on"]
