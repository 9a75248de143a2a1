"""Phones follow the game's event stream: a change comes in the event itself and shows
without any request, a phone that lost its connection catches up through `/live` when it is
back, and where the stream cannot get through (a proxy that buffers or refuses it) the
page polls as before."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.web import game as game_views
from tests.browser.conftest import LIVE_TIMEOUT_MS, QUICK_POLL_SECONDS
from tests.browser.helpers import PHONE, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]
LIVE = re.compile(r"/live\?")
EVENTS = re.compile(r"/events(\?|$)")


@pytest.fixture(autouse=True)
def _quick_poll(request: pytest.FixtureRequest, settings: Any) -> None:
    """These tests wait for polls, or for their absence: at a quarter of a second's pace."""
    if request.node.get_closest_marker("real_pace") is None:
        settings.THIRTY_POLL_SECONDS = QUICK_POLL_SECONDS


def api(
    live_server: Any, path: str, body: dict[str, Any] | None, key: str = "", **headers: str
) -> dict[str, Any]:
    """A POST of `body` through the JSON API, or a GET without one."""
    request = urllib.request.Request(
        f"{live_server.url}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Host-Key": key, **headers},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def new_game(live_server: Any) -> dict[str, Any]:
    return api(live_server, "/api/games", {"players": ["Anna", "Ben", "Cleo"]})


def enter(live_server: Any, game: dict[str, Any], total: int = 20) -> None:
    api(live_server, f"/api/games/{game['id']}/turns", {"total": total}, game["host_key"])


def open_phone(
    open_browser: Callable[..., Any], game: dict[str, Any], seat: tuple[str, str] | None = None
) -> tuple[Any, list[str]]:
    """A phone on the game's page (a seat's: its key, and the server's address for its
    cookie), and the addresses it asked for from then on."""
    phone = open_browser(PHONE)
    if seat is not None:
        key, url = seat
        phone.context.add_cookies([{"name": f"thirty_seat_{game['id']}", "value": key, "url": url}])
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url))
    phone.goto(f"/g/{game['id']}/")
    return phone, asked


def polls(asked: list[str]) -> int:
    return sum("/live?" in url for url in asked)


def streams(asked: list[str]) -> int:
    return sum(bool(EVENTS.search(url)) for url in asked)


def following(phone: Any, asked: list[str]) -> None:
    """Wait until the phone's stream is open and has said the page is current."""
    wait_until(phone, lambda: streams(asked) >= 1)
    expect(phone.locator("body[data-stream=open]")).to_be_attached()


@pytest.mark.waits
def test_a_change_comes_in_the_event_and_the_page_asks_for_nothing(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    game = new_game(live_server)
    phone, asked = open_phone(open_browser, game)
    following(phone, asked)
    before = polls(asked)
    phone.wait_for_timeout(1000)  # four of the test's quicker polls (0.25 s) would have gone
    assert polls(asked) == before, "a healthy stream holds the poll back"

    enter(live_server, game)
    expect(phone.locator("#turn-1")).to_be_visible(timeout=2000)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Ben")
    enter(live_server, game, 25)
    expect(phone.locator("#sheet-rows tr")).to_have_count(2, timeout=2000)
    assert polls(asked) == before, "the rows came in the events themselves"
    assert streams(asked) == 1


def test_the_first_frame_that_shows_a_pushed_row_has_it_in_view(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    """A sheet longer than the screen scrolls: the frame in which a new row first shows
    already has the sheet scrolled down to it and the points below it, however the update
    settles after that."""
    game = new_game(live_server)
    for _ in range(24):
        enter(live_server, game)
    phone, asked = open_phone(open_browser, game)
    following(phone, asked)
    assert phone.locator("#sheet-wrap").evaluate("el => el.scrollHeight > el.clientHeight")
    phone.evaluate(
        """() => {
          window.__inView = [];
          const wrap = document.getElementById("sheet-wrap");
          const rows = document.getElementById("sheet-rows");
          new MutationObserver(() => requestAnimationFrame(() => {
            window.__inView.push(wrap.scrollTop + wrap.clientHeight >= wrap.scrollHeight - 1);
          })).observe(rows, { childList: true });
        }"""
    )
    enter(live_server, game, 25)
    expect(phone.locator("#sheet-rows tr")).to_have_count(25)
    wait_until(phone, lambda: bool(phone.evaluate("window.__inView.length")))
    assert phone.evaluate("window.__inView[0]"), "the sheet showed the new row before its end"


def test_a_card_table_comes_in_the_event_with_the_seat_s_own_hand(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    game = api(
        live_server, "/api/games", {"players": ["Anna", "Ben"], "rules": {"preset": "cards"}}
    )
    claims = "/api/games/{}/seats/{}/claim"
    keys = [
        api(live_server, claims.format(game["id"], seat), {}, **{"X-Seat-Key": key})["seat_key"]
        for seat, key in enumerate(game["seat_keys"], start=1)
    ]
    watcher, watched = open_phone(open_browser, game)
    ben, asked_by_ben = open_phone(open_browser, game, (keys[1], live_server.url))
    expect(ben.locator("#hand [data-card]")).to_have_count(3)
    for phone, asked in ((watcher, watched), (ben, asked_by_ben)):
        following(phone, asked)
    before = polls(watched), polls(asked_by_ben)

    state = api(live_server, f"/api/games/{game['id']}", None, **{"X-Seat-Key": keys[0]})
    move = next(move for move in state["legal"] if not move["card"].startswith("X"))
    api(live_server, f"/api/games/{game['id']}/moves", move, **{"X-Seat-Key": keys[0]})
    after = api(live_server, f"/api/games/{game['id']}", None, **{"X-Seat-Key": keys[1]})

    for phone in (watcher, ben):
        expect(phone.locator("#running-total")).to_have_text(str(after["deal"]["total"]))
    # Ben's phone shows Ben's hand, now that it is his turn; the watcher's shows no hand.
    expect(ben.locator("#hand.my-turn")).to_be_visible()
    shown = ben.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(shown) == set(after["hand"])
    expect(watcher.locator("#hand")).to_have_count(0)
    assert (polls(watched), polls(asked_by_ben)) == before, "no phone asked for the update"


@pytest.mark.waits
@pytest.mark.journey  # on PostgreSQL too: the rows a phone missed, read back after a cut
def test_a_phone_that_lost_its_connection_catches_up(
    open_browser: Callable[..., Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test server's streams end after a second, so the connection is cut soon.
    monkeypatch.setattr(game_views, "THREADED_STREAM_SECONDS", 1)
    game = new_game(live_server)
    phone, asked = open_phone(open_browser, game)
    following(phone, asked)
    # (The stream may already have been ended and opened again: it lasts a second here.)

    # The phone loses the server: the stream ends and nothing gets through until it is back.
    opened_before_the_cut = streams(asked)
    refuse = lambda route: route.abort()  # noqa: E731
    phone.route(LIVE, refuse)
    phone.route(EVENTS, refuse)
    # The server ends the stream after its second; the phone tries again, and is refused.
    expect(phone.locator("body[data-stream=closed]")).to_be_attached(timeout=LIVE_TIMEOUT_MS * 3)
    for total in (20, 25, 12):
        enter(live_server, game, total)
    missed = polls(asked)
    wait_until(phone, lambda: polls(asked) >= missed + 2)  # two refused polls: nothing came
    expect(phone.locator("#sheet-rows tr")).to_have_count(0)  # it missed them
    monkeypatch.setattr(game_views, "THREADED_STREAM_SECONDS", 55)
    polled_before = polls(asked)

    phone.unroute(LIVE)
    phone.unroute(EVENTS)
    expect(phone.locator("#sheet-rows tr")).to_have_count(3, timeout=5000)
    expect(phone.locator("#status")).to_contain_text("Next to roll: Anna")
    # The stream is opened again: by the browser itself after a dropped connection (every
    # second, the server's `retry`), or, had the browser given it up, with the first poll that
    # gets through (the next test). The long wait is from a run on a slow machine in which no
    # stream was asked for within 40 s; its cause was not found.
    wait_until(phone, lambda: streams(asked) > opened_before_the_cut, seconds=70.0)
    assert polls(asked) > polled_before, "what it missed came through /live"
    # The reopened stream speaks again, and the phone stops asking /live.
    expect(phone.locator("body[data-stream=open]")).to_be_attached(timeout=LIVE_TIMEOUT_MS * 8)
    polled_before = polls(asked)
    enter(live_server, game)  # and the phone follows on, from the stream alone
    expect(phone.locator("#sheet-rows tr")).to_have_count(4, timeout=3000)
    assert polls(asked) == polled_before


@pytest.mark.waits
def test_a_stream_the_server_refused_opens_again_with_the_first_poll_that_gets_through(
    open_browser: Callable[..., Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream answered with an error (a proxy whose app is restarting, the server's limit
    of streams per address) is given up by the browser, and htmx-ext-sse tries again after
    a wait that doubles with each refusal, up to 64 s. The page does not wait that out: the
    first poll that gets through opens the stream again."""
    monkeypatch.setattr(game_views, "THREADED_STREAM_SECONDS", 1)
    game = new_game(live_server)
    phone, asked = open_phone(open_browser, game)
    following(phone, asked)

    # The proxy answers everything with 502 while the app restarts. The stream, ended after
    # its second, is refused three times: the browser's own try, then the extension's after
    # 0.5 s and 1 s. Its next is 2 s away, eight polls at this test's pace.
    refused_from = streams(asked)

    def restarting(route: Any) -> None:
        route.fulfill(status=502, body="Bad gateway")

    phone.route(LIVE, restarting)
    phone.route(EVENTS, restarting)
    wait_until(phone, lambda: streams(asked) >= refused_from + 3, seconds=15.0)
    expect(phone.locator("body[data-stream=closed]")).to_be_attached()
    enter(live_server, game)
    # In the order the phone made them: each poll's answer, and each stream it asked for.
    seen: list[tuple[str, str]] = []
    phone.on(
        "response",
        lambda r: seen.append((f"poll {r.status}", r.url)) if LIVE.search(r.url) else None,
    )
    phone.on("request", lambda r: seen.append(("stream", r.url)) if EVENTS.search(r.url) else None)

    # The app is back. Its streams are still refused until a poll has got through: the
    # extension's own next try (2 s after the last) may fall due at any moment on a slow
    # machine, and a stream it opened first would leave this test nothing to check.
    def back_after_a_poll(route: Any) -> None:
        if any(what == "poll 200" for what, _ in seen):
            route.continue_()
        else:
            restarting(route)

    phone.route(EVENTS, back_after_a_poll)
    phone.unroute(EVENTS, restarting)
    phone.unroute(LIVE)

    expect(phone.locator("body[data-stream=open]")).to_be_attached(timeout=LIVE_TIMEOUT_MS)
    expect(phone.locator("#sheet-rows tr")).to_have_count(1)
    # The stream came right after the first poll that got through, the one that brought the
    # turn, not after the extension's wait; and from the version that poll brought.
    through = next(i for i, (what, _) in enumerate(seen) if what == "poll 200")
    assert seen[through + 1][0] == "stream", seen
    version = api(live_server, f"/api/games/{game['id']}", None)["version"]
    assert f"events?v={version}&" in seen[through + 1][1], seen


@pytest.mark.waits
@pytest.mark.real_pace  # the poll this test is about: every second, as players have it
def test_without_the_stream_the_page_polls(
    open_browser: Callable[..., Any], live_server: Any
) -> None:
    """A proxy that refuses or buffers the stream: the page polls every second instead."""
    game = new_game(live_server)
    phone = open_browser(PHONE)
    phone.route(EVENTS, lambda route: route.abort())
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url))
    phone.goto(f"/g/{game['id']}/")
    wait_until(phone, lambda: polls(asked) >= 2, seconds=5.0)  # once a second, as players have it

    enter(live_server, game)
    expect(phone.locator("#turn-1")).to_be_visible(timeout=3000)
    enter(live_server, game, 25)
    expect(phone.locator("#sheet-rows tr")).to_have_count(2, timeout=3000)
