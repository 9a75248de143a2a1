"""What a person does on the pages, in a few words each, for the browser tests."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def create_game(page: Any, players: list[str], *, start_points: int | None = None) -> str:
    """Fill the home page form as a host does and start the game; returns the share link."""
    page.goto("/")
    inputs = page.locator('#create-form input[name="player"]')
    while inputs.count() < len(players):
        count = inputs.count()
        page.get_by_role("button", name="Add player").click()
        expect(inputs).to_have_count(count + 1)
    for index, name in enumerate(players):
        inputs.nth(index).fill(name)
    if start_points is not None:
        page.get_by_label("Starting points").fill(str(start_points))
    return start(page)


def start(page: Any) -> str:
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    link: str = page.get_by_label("Link to this game").input_value()
    return link


def tap(page: Any, label: str) -> None:
    """Tap one of the turn form's big buttons."""
    page.locator("#turn-panel").get_by_role("button", name=label, exact=True).click()


def footer(page: Any, seat: int) -> Any:
    """The points shown under a player's column (seats counted from 1)."""
    return page.locator("#sheet-foot td").nth(seat - 1)


def ask(page: Any) -> Any:
    """The question the turn form asks now."""
    return page.locator("#turn-panel .ask")
