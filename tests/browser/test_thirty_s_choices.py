"""30s with healing and free for all: the turn form asks attack or heal, then whom."""

from __future__ import annotations

import re
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


def tap_target(page: Any, name: str) -> None:
    """Tap a player on the attack's target picker, which shows each player's points too."""
    choices(page).filter(has_text=re.compile("^" + re.escape(name) + r"\b")).click()


@pytest.mark.journey  # on PostgreSQL too: 30s: an attack and a heal change other seats' points
def test_attack_asks_whom_then_the_hunt_and_heal_lowers_the_rollers_points(
    open_browser: Callable[..., Any],
) -> None:
    host = open_browser()
    create_thirty_s_game(host, ["Anna", "Ben", "Cleo", "Dan"])
    expect(host.locator("#sheet-foot th")).to_have_text("Points")
    expect(host.locator("#sheet-foot td")).to_have_text(["0", "0", "0", "0"])

    # Anna knocks Dan out: 36 is 6 over, five sixes make 30. On 0 points she has nothing to
    # heal, so the form goes straight to whom she attacks, with each player's points.
    tap(host, "36")
    expect(ask(host)).to_have_text("36: whom do you attack?")
    expect(choices(host)).to_have_text(["Ben 0 points", "Cleo 0 points", "Dan 0 points"])
    tap_target(host, "Dan")
    expect(ask(host)).to_have_text("36. Attack: how many 6s did you set aside in all?")
    tap(host, "5")
    expect(host.locator("#turn-panel .confirm")).to_have_text("✓ Anna 36 · Dan +30")
    expect(footer(host, 4)).to_have_text("30")
    expect(host.locator("#sheet-head th.seat").nth(3)).to_have_class("seat out")

    # Ben may attack only players still in, and not himself.
    expect(host.locator("#turn-panel h2")).to_have_text("Ben’s turn")
    tap(host, "34")
    expect(choices(host)).to_have_text(["Anna 0 points", "Cleo 0 points"])
    tap_target(host, "Cleo")
    tap(host, "2")
    expect(footer(host, 3)).to_have_text("8")  # margin 4 × 2 dice

    # Cleo, on 8 points, may heal: she heals 3.
    expect(host.locator("#turn-panel h2")).to_have_text("Cleo’s turn")
    tap(host, "33")
    expect(ask(host)).to_have_text("33: 3 over. Heal or attack?")
    expect(choices(host)).to_have_text(["Attack", "Heal 3"])
    tap(host, "Heal 3")
    expect(footer(host, 3)).to_have_text("5")

    # Anna, at 0, attacks Ben and her hunt finds nothing.
    expect(host.locator("#turn-panel h2")).to_have_text("Anna’s turn")
    tap(host, "35")
    tap_target(host, "Ben")
    tap(host, "0")
    expect(host.locator("#sheet-rows tr")).to_have_count(4)
    expect(host.locator("#sheet-foot td")).to_have_text(["0", "0", "5", "30"])
    expect(host.locator("#turn-panel h2")).to_have_text("Ben’s turn")
