"""The browser the tests start: Playwright's own settings kept, and no page of Chromium's own
address bar loaded behind each phone (tests/browser/chromium.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.chromium import ADDRESS_BAR_POPUPS

pytestmark = pytest.mark.browser

FEATURES = "--disable-features="


def browser_command_lines() -> list[list[str]]:
    """The command line of each Chromium browser process that this process started (through
    Playwright's driver), not of its renderers and helpers."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The parent's pid is the second field after the name, which is in parentheses.
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
    mine, found = os.getpid(), []
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, mine):
            ancestor = parents.get(ancestor)
        if ancestor != mine:
            continue
        try:
            args = (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        # A helper process (`--type=renderer`, ...) writes its whole command line into one.
        if "chromium" in Path(args[0]).name and not any("--type=" in arg for arg in args):
            found.append(args)
    return found


def test_playwrights_own_features_stay_off_and_the_address_bar_loads_no_page(
    browser: Any,
) -> None:
    command_lines = browser_command_lines()
    assert command_lines, "no Chromium browser process found under this test process"
    for args in command_lines:
        switches = [
            arg.removeprefix(FEATURES).split(",") for arg in args if arg.startswith(FEATURES)
        ]
        # Chromium reads only the last: it must name Playwright's (the first) and the pop-ups.
        playwrights, effective = set(switches[0]), set(switches[-1])
        assert playwrights <= effective, f"not turned off any more: {playwrights - effective}"
        assert set(ADDRESS_BAR_POPUPS) <= effective

    context = browser.new_context()
    try:
        context.new_page().goto("data:text/html,<p>A phone</p>")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    finally:
        context.close()
    assert [target["url"] for target in targets if target["type"] == "browser_ui"] == []
    assert [target["type"] for target in targets].count("page") >= 1
