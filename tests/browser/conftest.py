"""Browser tests: a real Chromium drives the pages the way a host and a watcher use them.

They need Chromium at /usr/bin/chromium; without it they are skipped with the reason.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import DANISH, ENGLISH, Language

# Playwright's sync API keeps an event loop running in the test thread, where Django would
# otherwise refuse database work (the live server's set-up and tear-down).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

HERE = Path(__file__).resolve().parent
LAPTOP = {"width": 1280, "height": 800}
# How long a watcher may wait for a change: at the real pace the page polls every second.
LIVE_TIMEOUT_MS = 5_000
# The pace the browser tests play at (thirty/settings.py), unless marked `real_pace`: a tap
# waits for a pad that takes taps either way. Only the stream tests (test_push.py) poll
# quicker too: elsewhere a poll would only add requests that can still reach the live server
# while a test's database is being torn down.
QUICK_COOLDOWN_MS = 50
QUICK_POLL_SECONDS = 0.25
QUICK_PACE_MS = 50


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
    }


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test here drives Chromium (`browser`), whether or not its module says so: the
    order in which the workers take the tests reads it (tests/conftest.py). Without Chromium
    they are skipped, and named with the reason."""
    if HERE not in Path(str(item.path)).resolve().parents:
        return
    item.add_marker(pytest.mark.browser)
    if not CHROMIUM.exists():
        item.add_marker(pytest.mark.skip(reason="Chromium not installed: apt-get install chromium"))


@pytest.fixture(params=[ENGLISH, DANISH], ids=str)
def language(request: pytest.FixtureRequest) -> Language:
    """A test that asks for `language` runs in English and in Danish."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _quick_pace(request: pytest.FixtureRequest, settings: Any) -> None:
    if request.node.get_closest_marker("real_pace") is None:
        settings.THIRTY_COOLDOWN_MS = QUICK_COOLDOWN_MS
        settings.THIRTY_PACE_MS = QUICK_PACE_MS


# How long a test's end waits for the live server to finish what it was doing.
SERVER_DONE_SECONDS = 30


@pytest.fixture(autouse=True)
def _live_server_done(request: pytest.FixtureRequest) -> Generator[None]:
    """A test on the live server ends when the server has finished every request it began
    and every connection is closed: no connection waits to be accepted, and no connection's
    thread is left. Set up after the test's database, so torn down before it: a phone's event
    stream (or a request its browser sent just before it closed) otherwise goes on in its
    thread, and writes a seat's presence into the next test's tables, or holds the tables
    PostgreSQL's flush must empty, which then fails."""
    if "live_server" not in request.fixturenames:
        yield
        return
    from games.push import hub

    request.getfixturevalue("transactional_db")
    listening = request.getfixturevalue("live_server").thread.httpd.socket
    yield
    hub.close()  # the browsers are closed: the streams would wait for their next beat
    deadline = time.monotonic() + SERVER_DONE_SECONDS
    while (connection_threads() or not_yet_accepted(listening)) and time.monotonic() < deadline:
        time.sleep(0.01)
    hub.reopen()  # for the next test
    assert not connection_threads(), "the live server was still answering when the test ended"


def not_yet_accepted(listening: socket.socket) -> bool:
    """A browser's connection waits for the live server to accept it (the server's thread
    may not have had its turn on a busy machine): its listening socket reads as ready."""
    ready, _, _ = select.select([listening], [], [], 0)
    return bool(ready)


def connection_threads() -> list[threading.Thread]:
    """The live server's threads, one for each connection (socketserver's ThreadingMixIn):
    a thread goes once its requests are answered (a stream's too) and the browser's end is
    closed, so none is left once the server has finished everything the browsers sent, even
    a request sent just before a browser closed."""
    return [
        thread
        for thread in threading.enumerate()
        if thread.name.endswith("(process_request_thread)") and thread.is_alive()
    ]


@pytest.fixture
def open_browser(browser: Any, live_server: Any, settings: Any) -> Generator[Callable[..., Any]]:
    """Open a fresh browser (its own cookies) on the live server: `open_browser(PHONE)`."""
    # The live server listens on loopback only: its links must not point at the LAN address.
    settings.SITE_URL = live_server.url
    contexts: list[Any] = []
    # Anything the Content-Security-Policy blocks is reported on the console: none may be.
    blocked: list[str] = []

    def watch(message: Any) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    # Requests on their way (a page's refresh after the last pushed version, say): the live
    # server must answer them before the test's database goes, or it fails them with a
    # traceback. Left out: a stream, which stays open for as long as the page does; a service
    # worker's, whose end Playwright does not report; and those of a browser the test closed.
    in_flight: dict[Any, set[Any]] = {}

    def sent(context: Any, request: Any) -> None:
        # A page's stream carries what it knows in its query (`/events?v=7&n=3&t=12`).
        if request.service_worker is None and not urlsplit(request.url).path.endswith("/events"):
            in_flight.get(context, set()).add(request)

    def done(request: Any) -> None:
        for requests in in_flight.values():
            requests.discard(request)

    def open_page(viewport: dict[str, int] = LAPTOP, *, locale: str = "en-GB") -> Any:
        """`locale` is the browser's language: what it sends as Accept-Language."""
        context = browser.new_context(viewport=viewport, base_url=live_server.url, locale=locale)
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        contexts.append(context)
        in_flight[context] = set()
        context.on("close", lambda closed: in_flight.pop(closed, None))
        context.on("request", lambda request: sent(context, request))
        context.on("requestfinished", done)
        context.on("requestfailed", done)
        page = context.new_page()
        page.on("console", watch)
        return page

    yield open_page
    pages = [page for context in contexts for page in context.pages]
    deadline = time.monotonic() + 5
    while any(in_flight.values()) and pages and time.monotonic() < deadline:
        pages[0].wait_for_timeout(20)  # Playwright hears of finished requests meanwhile
    for context in contexts:
        context.close()
    assert not blocked, blocked
