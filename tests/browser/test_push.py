"""Phones follow the game's event stream: a change shows at once without polling, a phone
that lost its connection catches up when it is back, and where the stream cannot get
through (a proxy that buffers or refuses it) the page polls as before."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import views
from tests.browser.conftest import PHONE, QUICK_POLL_SECONDS

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]
LIVE = re.compile(r"/live\?")


@pytest.fixture(autouse=True)
def _quick_poll(request: pytest.FixtureRequest, settings: Any) -> None:
    """These tests wait for polls, or for their absence: at a quarter of a second's pace."""
    if request.node.get_closest_marker("real_pace") is None:
        settings.THIRTY_POLL_SECONDS = QUICK_POLL_SECONDS


def api(live_server: Any, path: str, body: dict[str, Any], key: str = "") -> dict[str, Any]:
    request = urllib.request.Request(
        f"{live_server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Host-Key": key},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def new_game(live_server: Any) -> dict[str, Any]:
    return api(live_server, "/api/games", {"players": ["Anna", "Ben", "Cleo"]})


def enter(live_server: Any, game: dict[str, Any], total: int = 20) -> None:
    api(live_server, f"/api/games/{game['id']}/turns", {"total": total}, game["host_key"])


def open_phone(open_browser: Callable[..., Any], game: dict[str, Any]) -> tuple[Any, list[str]]:
    """A phone on the game's page, and the addresses it asked for from then on."""
    phone = open_browser(PHONE)
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url))
    # Counts the events the page heard from its stream, so a test can wait for the first.
    phone.add_init_script(
        "document.addEventListener('htmx:sseMessage', () => {"
        " window.streamEvents = (window.streamEvents || 0) + 1; });"
    )
    phone.goto(f"/g/{game['id']}/")
    return phone, asked


def wait_until(
    page: Any, condition: Callable[[], bool], seconds: float = 5.0, why: str = "waited in vain"
) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, why
        page.wait_for_timeout(50)


def stream_events(page: Any) -> int:
    return int(page.evaluate("window.streamEvents || 0"))


def polls(asked: list[str]) -> int:
    return sum("/live?" in url for url in asked)


def streams(asked: list[str]) -> int:
    return sum(url.endswith("/events") for url in asked)


def test_a_change_is_pushed_and_the_page_stops_polling(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    game = new_game(live_server)
    phone, asked = open_phone(open_browser, game)
    # The stream's first event (the version now) brings one refresh, which finds nothing.
    wait_until(phone, lambda: stream_events(phone) >= 1 and polls(asked) >= 1)
    phone.wait_for_timeout(300)
    assert streams(asked) == 1
    before = polls(asked)
    # Four of the poll's intervals (it polls every QUICK_POLL_SECONDS in the browser tests).
    phone.wait_for_timeout(4 * QUICK_POLL_SECONDS * 1000)
    assert polls(asked) == before, "a healthy stream holds the poll back"

    enter(live_server, game)
    expect(phone.locator("#turn-1")).to_be_visible(timeout=2000)
    assert polls(asked) == before + 1  # the refresh the pushed version asked for


@pytest.mark.journey  # on PostgreSQL too: the rows a phone missed, read back after a cut
def test_a_phone_that_lost_its_connection_catches_up(
    open_browser: Callable[..., Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test server's streams end after a second, so the connection is cut soon.
    monkeypatch.setattr(views, "THREADED_STREAM_SECONDS", 1)
    game = new_game(live_server)
    phone, asked = open_phone(open_browser, game)
    ended: list[str] = []
    phone.on("requestfinished", lambda request: ended.append(request.url))
    wait_until(phone, lambda: polls(asked) >= 1)  # the stream's first event
    assert streams(asked) == 1

    # The phone loses the server: the stream ends and nothing gets through until it is back.
    opened_before_the_cut = streams(asked)
    refuse = lambda route: route.abort()  # noqa: E731
    phone.route(LIVE, refuse)
    phone.route("**/events", refuse)
    wait_until(phone, lambda: streams(ended) == 1)  # the stream the phone had is over
    for total in (20, 25, 12):
        enter(live_server, game, total)
    # Without the stream the page polls; two refused polls after the turns, and it has none.
    tried = polls(asked)
    wait_until(phone, lambda: polls(asked) >= tried + 2)
    expect(phone.locator("#sheet-rows tr")).to_have_count(0)  # it missed them
    monkeypatch.setattr(views, "THREADED_STREAM_SECONDS", 55)

    phone.unroute(LIVE)
    phone.unroute("**/events")
    expect(phone.locator("#sheet-rows tr")).to_have_count(3, timeout=5000)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Anna")
    wait_until(
        phone, lambda: streams(asked) > opened_before_the_cut, why="the stream was opened again"
    )
    enter(live_server, game)  # and the phone follows on
    expect(phone.locator("#sheet-rows tr")).to_have_count(4, timeout=3000)


@pytest.mark.real_pace  # the poll this test is about: every second, as players have it
def test_without_the_stream_the_page_polls(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    """A proxy that refuses or buffers the stream: the page polls every second instead."""
    game = new_game(live_server)
    phone = open_browser(PHONE)
    phone.route("**/events", lambda route: route.abort())
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url))
    phone.goto(f"/g/{game['id']}/")
    wait_until(phone, lambda: polls(asked) >= 2, seconds=2.5)

    enter(live_server, game)
    expect(phone.locator("#turn-1")).to_be_visible(timeout=3000)
    enter(live_server, game, 25)
    expect(phone.locator("#sheet-rows tr")).to_have_count(2, timeout=3000)
