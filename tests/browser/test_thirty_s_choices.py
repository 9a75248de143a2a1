"""30s with healing and free for all: the turn form asks attack or heal, then whom."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ask, footer, start, tap

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


def create_thirty_s_game(page: Any, players: list[str]) -> None:
    page.goto("/")
    inputs = page.locator('#create-form input[name="player"]')
    for index, name in enumerate(players):
        inputs.nth(index).fill(name)
    page.get_by_label("30s: points count up, 30 is out").check()
    page.locator('input[name="healing"]').check()
    page.locator('input[name="free_for_all"]').check()
    start(page)
    expect(page.locator(".rules-line")).to_contain_text("30s")


def choices(page: Any) -> Any:
    return page.locator("#turn-panel .pad button")


def test_attack_asks_whom_then_the_hunt_and_heal_lowers_the_rollers_points(
    open_browser: Callable[..., Any],
) -> None:
    host = open_browser()
    create_thirty_s_game(host, ["Anna", "Ben", "Cleo", "Dan"])
    expect(host.locator("#sheet-foot th")).to_have_text("Points")
    expect(host.locator("#sheet-foot td")).to_have_text(["0", "0", "0", "0"])

    # Anna knocks Dan out: 36 is 6 over, five sixes make 30.
    tap(host, "36")
    expect(ask(host)).to_have_text("36: 6 over. Heal or attack?")
    expect(choices(host)).to_have_text(["Attack", "Heal 6"])
    tap(host, "Attack")
    expect(ask(host)).to_have_text("36: whom do you attack?")
    expect(choices(host)).to_have_text(["Ben", "Cleo", "Dan"])  # not the roller herself
    tap(host, "Dan")
    expect(ask(host)).to_have_text("36: how many dice showed 6?")
    tap(host, "5")
    expect(footer(host, 4)).to_have_text("30")
    expect(host.locator("#sheet-head th.seat").nth(3)).to_have_class("seat out")

    # Ben may attack only players still in, and not himself.
    expect(host.locator("#turn-panel h2")).to_have_text("Ben’s turn")
    tap(host, "34")
    tap(host, "Attack")
    expect(choices(host)).to_have_text(["Anna", "Cleo"])
    tap(host, "Cleo")
    tap(host, "2")
    expect(footer(host, 3)).to_have_text("8")  # margin 4 × 2 dice

    # Cleo heals 3 of her 8 points.
    expect(host.locator("#turn-panel h2")).to_have_text("Cleo’s turn")
    tap(host, "33")
    tap(host, "Heal 3")
    expect(footer(host, 3)).to_have_text("5")

    # Anna, at 0, heals: her points stay at 0.
    expect(host.locator("#turn-panel h2")).to_have_text("Anna’s turn")
    tap(host, "35")
    tap(host, "Heal 5")
    expect(host.locator("#sheet-rows tr")).to_have_count(4)
    expect(host.locator("#sheet-foot td")).to_have_text(["0", "0", "5", "30"])
    expect(host.locator("#turn-panel h2")).to_have_text("Ben’s turn")
