"""The browser the tests start: Playwright's own settings kept, and no page of Chromium's own
address bar, nor a renderer started ahead, loaded behind each phone (tests/browser/chromium.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.chromium import ADDRESS_BAR_POPUPS, NO_SPARE_RENDERER

pytestmark = pytest.mark.browser

FEATURES = "--disable-features="


def parents() -> dict[int, int]:
    """Every process's parent, by pid."""
    found: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The parent's pid is the second field after the name, which is in parentheses.
            found[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
    return found


def descends(pid: int, ancestor: int, parent_of: dict[int, int]) -> bool:
    """Whether `pid` was started, through any number of generations, by `ancestor`."""
    parent = parent_of.get(pid)
    while parent not in (None, 0, 1, ancestor):
        parent = parent_of.get(parent)
    return parent == ancestor


def command_line(pid: int) -> list[str]:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def browser_processes() -> dict[int, list[str]]:
    """The command line of each Chromium browser process that this process started (through
    Playwright's driver), by pid: not its renderers and helpers."""
    parent_of, found = parents(), {}
    for pid in parent_of:
        if not descends(pid, os.getpid(), parent_of):
            continue
        args = command_line(pid)
        # A helper process (`--type=renderer`, ...) writes its whole command line into one.
        if args and "chromium" in Path(args[0]).name and not any("--type=" in a for a in args):
            found[pid] = args
    return found


def renderers_of(browser_pid: int) -> int:
    """How many renderer processes the browser with this pid has running."""
    parent_of = parents()
    return sum(
        "--type=renderer" in " ".join(command_line(pid))
        for pid in parent_of
        if descends(pid, browser_pid, parent_of)
    )


def test_playwrights_own_features_stay_off_and_the_address_bar_loads_no_page(
    browser: Any,
) -> None:
    command_lines = list(browser_processes().values())
    assert command_lines, "no Chromium browser process found under this test process"
    for args in command_lines:
        switches = [
            arg.removeprefix(FEATURES).split(",") for arg in args if arg.startswith(FEATURES)
        ]
        # Chromium reads only the last: it must name Playwright's (the first), the pop-ups and
        # the renderer started ahead.
        playwrights, effective = set(switches[0]), set(switches[-1])
        assert playwrights <= effective, f"not turned off any more: {playwrights - effective}"
        assert {*ADDRESS_BAR_POPUPS, *NO_SPARE_RENDERER} <= effective

    context = browser.new_context()
    try:
        context.new_page().goto("data:text/html,<p>A phone</p>")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    finally:
        context.close()
    assert [target["url"] for target in targets if target["type"] == "browser_ui"] == []
    assert [target["type"] for target in targets].count("page") >= 1


def test_a_phone_gets_one_renderer_and_none_is_started_ahead(
    browser_type: Any, browser_type_launch_args: dict[str, Any]
) -> None:
    # A browser of its own, so that no other test's pages are counted.
    running = set(browser_processes())
    browser = browser_type.launch(**browser_type_launch_args)
    try:
        (pid,) = set(browser_processes()) - running
        context = browser.new_context()
        page = context.new_page()
        page.goto("data:text/html,<p>A phone</p>")
        # The renderer of the blank page the context opened with may take a moment to go on
        # a busy machine; one started ahead stays.
        deadline = time.monotonic() + 5
        while renderers_of(pid) > 1 and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        page.wait_for_timeout(1_000)  # a renderer started ahead would be there by now
        assert renderers_of(pid) == 1
    finally:
        browser.close()
