"""Change to phone, measured in a real browser: `make bench` section 6.

Opens a few phones (Chromium through Playwright, each its own browser context, on the
game's watcher page), lets their event streams settle, then posts turns through the JSON
API one after another. Each page notes, with a MutationObserver on the sheet, the moment
each new row is in its document (`performance.timeOrigin + performance.now()`, the same
clock as the driver's `time.time()` on one machine). The delay of a turn on a phone is
that moment minus the moment the post started.

Two ways to follow, measured side by side: the page as it is (its stream carries each
update), and the two-step path it had before (the stream says only the version, and the
page then fetches `/live`): the page's stream is then opened without the marks that ask
for updates, which the server answers with versions only. A phone can also be put a
mobile round trip away: it then reaches the server through `delay_proxy.py`, which delays
every chunk each way by half of `latency_ms`, as a network does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

# Chromium is started as the browser tests start it: one place says how.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS

WATCH_ROWS = """() => {
  window.__seen = [];
  const rows = () => document.querySelectorAll("#sheet-rows tr").length;
  new MutationObserver(() => {
    window.__seen.push([rows(), performance.timeOrigin + performance.now()]);
  }).observe(document.body, { childList: true, subtree: true });
}"""


# When each event of the stream reaches the page's scripts, by the version it speaks of: the
# delay of a turn splits into the part before the page has the event (the server, the
# network) and the part after it (the page's own work, and on the two-step path its /live
# request). Listened for as the stream is made, before the page's own listeners.
WATCH_EVENTS = """(() => {
  window.__events = [];
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url, init) {
      super(url, init);
      for (const type of ["update", "version"]) {
        this.addEventListener(type, (message) => {
          let version = 0;
          try { version = Number(JSON.parse(message.data).version) || 0; } catch {}
          window.__events.push([version, performance.timeOrigin + performance.now()]);
        });
      }
    }
  };
})();"""


# The two-step path: the stream is opened without the marks (v/n/t) that ask for updates.
TWO_STEP = """(() => {
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url, init) { super(String(url).split("?")[0], init); }
  };
})();"""


def available() -> str | None:
    """Why the browser measure cannot run here, or None."""
    if not CHROMIUM.exists():
        return "Chromium is not installed (Debian package 'chromium')"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed"
    return None


def post_turn(port: int, game_id: str, key: str, turn: dict[str, int]) -> int:
    connection = HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(
            "POST",
            f"/api/games/{game_id}/turns",
            json.dumps(turn).encode(),
            {"Content-Type": "application/json", "X-Host-Key": key},
        )
        response = connection.getresponse()
        body = response.read()
        if response.status != 201:
            raise RuntimeError(f"turn answered {response.status}: {body[:200]!r}")
        return int(json.loads(body)["version"])
    finally:
        connection.close()


@contextmanager
def far_away(port: int, latency_ms: float) -> Iterator[int]:
    """The port a phone `latency_ms` away reaches the server on: the server's own, or a
    delaying proxy's (`delay_proxy.py`) for as long as the phones are open."""
    if not latency_ms:
        yield port
        return
    proxy = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("delay_proxy.py")),
            f"--to={port}",
            f"--round-trip-ms={latency_ms}",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proxy.stdin is not None and proxy.stdout is not None
    try:
        said, listening = proxy.stdout.readline().split()
        if said != "ready":
            raise RuntimeError(f"the delaying proxy said {said!r}")
        yield int(listening)
    finally:
        proxy.stdin.close()
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
            raise


def measure(
    port: int,
    game_id: str,
    key: str,
    turns: list[dict[str, int]],
    *,
    phones: int = 3,
    spacing: float = 0.5,
    on_post: Callable[[int, float], None] | None = None,
    two_step: bool = False,
    latency_ms: float = 0,
) -> dict[str, Any]:
    """Post `turns` and return every (turn, phone) delay in seconds, and what went wrong."""
    from playwright.sync_api import sync_playwright

    delays: list[float] = []
    to_page: list[float] = []  # post started → its event in the page's scripts
    in_page: list[float] = []  # that event → the row in the page
    missed = 0
    with far_away(port, latency_ms) as phone_port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            pages = []
            for _ in range(phones):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                if two_step:
                    context.add_init_script(TWO_STEP)
                context.add_init_script(WATCH_EVENTS)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{phone_port}/g/{game_id}/")
                page.evaluate(WATCH_ROWS)
                pages.append(page)
            time.sleep(1.5)  # every stream open and its first event handled
            rows_before = pages[0].evaluate("document.querySelectorAll('#sheet-rows tr').length")
            posted = []
            for index, turn in enumerate(turns):
                started = time.time()
                version = post_turn(port, game_id, key, turn)
                posted.append((rows_before + index + 1, started, version))
                if on_post is not None:
                    on_post(version, started)
                time.sleep(spacing)
            time.sleep(1.5)
            for page in pages:
                seen = page.evaluate("window.__seen")
                events = page.evaluate("window.__events")
                for rows, started, version in posted:
                    at = next((t / 1000 for count, t in seen if count >= rows), None)
                    if at is None:
                        missed += 1
                        continue
                    delays.append(at - started)
                    heard = next((t / 1000 for v, t in events if v >= version), None)
                    if heard is not None and heard <= at:
                        to_page.append(heard - started)
                        in_page.append(at - heard)
        finally:
            browser.close()
    return {
        "delays": delays,
        "to_page": to_page,
        "in_page": in_page,
        "missed": missed,
        "phones": phones,
        "turns": len(turns),
        "two_step": two_step,
        "latency_ms": latency_ms,
    }
