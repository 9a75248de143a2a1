"""Shared fixtures: personas (host, watcher, stranger) and the strict-skip switch."""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

STRICT = os.getenv("THIRTY_STRICT") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """Under THIRTY_STRICT=1 (CI) a skipped test is a failed one: CI must run everything."""
    outcome = yield
    report = outcome.get_result()
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under THIRTY_STRICT=1: {report.longrepr}"


@pytest.fixture
def game(db: None) -> Any:
    from tests.factories import make_game

    return make_game()


@pytest.fixture
def host(client: Any, game: Any) -> Any:
    """A browser that holds the game's host key."""
    from games.access import host_cookie_name

    client.cookies[host_cookie_name(game)] = game.host_key
    return client


@pytest.fixture
def watcher(client: Any) -> Any:
    """A phone that followed the link: it can read but holds no key."""
    return client
