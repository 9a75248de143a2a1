"""The create form's estimate of a game's length: asked for once the form is still, and for
the rules the form shows last."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from games.kinds.dice import chances
from games.rules.dice import RuleSet
from games.rules.dice import estimate as estimates
from tests.browser.helpers import PHONE, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]
FIRST_ESTIMATE_MS = 20_000


def estimates_asked(page: Any) -> list[dict[str, list[str]]]:
    """The query of every estimate the page asks for from now on, in order."""
    asked: list[dict[str, list[str]]] = []

    def note(request: Any) -> None:
        if urlsplit(request.url).path == "/estimate":
            asked.append(parse_qs(urlsplit(request.url).query))

    page.on("request", note)
    return asked


def shows_figures_for(page: Any, pattern: str) -> None:
    # The line's link to the chances names the rules its figures are for.
    expect(page.locator("#estimate a")).to_have_attribute(
        "href", re.compile(pattern), timeout=FIRST_ESTIMATE_MS
    )
    expect(page.locator("#estimate")).to_contain_text("Usually")


@pytest.fixture
def quick_figures(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data directory of its own, where nothing is worked out yet and figures are played
    with 20 games instead of 1,000: these tests read which rules the line's figures are for,
    not the figures, and a cold server's seconds of play would only slow them down."""
    settings.DATA_DIR = tmp_path
    chances.forget_estimates()

    def quick(rules: RuleSet, players: int) -> estimates.Estimate:
        return estimates.simulate(rules, players, games=20)

    monkeypatch.setattr(estimates, "estimate", quick)
    yield tmp_path
    chances.forget_estimates()  # no later test reads the figures of 20 games


@pytest.mark.waits
def test_quick_changes_ask_for_the_estimate_once_with_the_last_rules(
    open_browser: Any, quick_figures: Path
) -> None:
    """Figures not worked out yet cost the server seconds of play: a host who picks a preset
    and two variants in a row gets the line for the rules they ended on, and the server
    plays no games for the rules in between."""
    page = open_browser(PHONE)
    asked = estimates_asked(page)
    page.goto("/")
    shows_figures_for(page, r"preset=thirty")  # the usual rules', asked for as it opened
    before = len(asked)
    page.get_by_role("radio", name=re.compile("^30s")).check()
    page.get_by_label("Healing").check()
    page.get_by_label("Free for all").check()
    shows_figures_for(page, r"preset=30s.*healing=on")
    changes = asked[before:]
    assert len(changes) == 1, changes
    assert changes[0].get("preset") == ["30s"]
    assert changes[0].get("healing") == ["on"] and changes[0].get("free_for_all") == ["on"]


@pytest.mark.waits
def test_a_change_while_the_first_figures_are_worked_out_gets_its_own(
    open_browser: Any, quick_figures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a server that has not worked out the usual rules' figures, the page asks for them
    as it opens, and they take seconds; a host who picks 30s meanwhile is shown 30s."""
    worked_out = threading.Event()
    quick = estimates.estimate

    def held_back(rules: RuleSet, players: int) -> estimates.Estimate:
        if rules.preset == "thirty":
            worked_out.wait(FIRST_ESTIMATE_MS / 1000)  # the usual rules' games, still playing
        return quick(rules, players)

    monkeypatch.setattr(estimates, "estimate", held_back)
    page = open_browser(PHONE)
    asked = estimates_asked(page)
    try:
        page.goto("/")
        wait_until(page, lambda: any(q.get("preset") == ["thirty"] for q in asked))
        page.get_by_role("radio", name=re.compile("^30s")).check()
        wait_until(
            page,
            lambda: any(query.get("preset") == ["30s"] for query in asked),
            why=lambda: "the change waited behind the figures on their way",
        )
    finally:
        worked_out.set()
    shows_figures_for(page, r"preset=30s")
    # The held-back request ends too, before the fixture forgets the figures made here.
    wait_until(page, lambda: len(list((quick_figures / "estimates").glob("*.json"))) == 2)
