"""The game's event stream (`/g/<id>/events`, `/api/games/<id>/events`): the version now,
then one event per change, heartbeats while nothing happens, from this process and others."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient, Client, override_settings

from games import cache, push
from games.kinds.dice import moves as dice_moves
from games.rules import dice as dice_rules
from games.versions import CHANNEL
from tests.factories import make_game
from tests.web.loops import own_loop, own_thread
from tests.web.test_card_api import visible_codes

# The stream reads the version in another thread, so the game must be committed.
pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")


def event(version: int) -> bytes:
    return f'id: {version}\nevent: version\ndata: {{"version": {version}}}\n\n'.encode()


async def next_chunk(chunks: AsyncIterator[T], seconds: float = 3.0) -> T:
    return await asyncio.wait_for(anext(chunks), seconds)


async def open_stream(
    url: str, client: AsyncClient | None = None
) -> tuple[Any, AsyncIterator[bytes]]:
    response = await (client or AsyncClient()).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    chunks: AsyncIterator[bytes] = aiter(response.streaming_content)  # type: ignore[attr-defined]
    assert await next_chunk(chunks) == b"retry: 1000\n"
    return response, chunks


# A page's stream that does not say what it shows, and the API's, whatever it is asked.
@pytest.mark.parametrize(
    "url", ["/g/{}/events", "/api/games/{}/events", "/api/games/{}/events?v=1&n=0&t="]
)
def test_it_sends_the_version_now_and_then_every_change(url: str) -> None:
    game = make_game()

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(url.format(game.pk))
        assert await next_chunk(chunks) == event(1)
        record = sync_to_async(dice_moves.record_turn, thread_sensitive=False)
        await record(game.pk, dice_rules.Turn(20))
        assert await next_chunk(chunks) == event(2)
        await record(game.pk, dice_rules.Turn(33, 1))
        assert await next_chunk(chunks) == event(3)

    run()


def test_it_sends_heartbeats_while_nothing_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game()
    monkeypatch.setattr(push, "HEARTBEAT_SECONDS", 0.05)

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(f"/g/{game.pk}/events")
        assert await next_chunk(chunks) == event(1)
        assert await next_chunk(chunks) == b": keep-alive\n\n"
        assert await next_chunk(chunks) == b": keep-alive\n\n"

    run()


@pytest.mark.sqlite
def test_on_sqlite_it_hears_a_change_committed_by_another_process() -> None:
    """Another process's write reaches this process only through SQLite's change counter."""
    game = make_game()

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(f"/g/{game.pk}/events")
        assert await next_chunk(chunks) == event(1)
        await asyncio.sleep(0.2)  # the watcher has read the counter
        other = sqlite3.connect(str(connection.settings_dict["NAME"]))
        with other:
            other.execute("UPDATE games_game SET version = 5 WHERE id = ?", (game.pk,))
        other.close()
        assert await next_chunk(chunks, 2.0) == event(5)

    run()


@pytest.mark.postgres
@override_settings(THIRTY_VERSION_PUSH=True)
def test_on_postgresql_it_hears_a_change_committed_by_another_process() -> None:
    """Another process's write reaches this process only through LISTEN/NOTIFY."""
    game = make_game()
    board = cache.version_board()
    assert board is not None
    try:
        assert board.wait_until_listening(5)

        @own_loop
        async def run() -> None:
            _, chunks = await open_stream(f"/g/{game.pk}/events")
            assert await next_chunk(chunks) == event(1)
            params = connection.settings_dict
            other = psycopg.connect(
                dbname=params["NAME"],
                user=params["USER"],
                password=params["PASSWORD"] or None,
                host=params["HOST"],
                port=params["PORT"],
                autocommit=True,
            )
            with other:
                other.execute("UPDATE games_game SET version = 5 WHERE id = %s", [game.pk])
                other.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game.pk}:5"])
            assert await next_chunk(chunks, 2.0) == event(5)

        run()
    finally:
        cache.stop_version_board()


def test_an_unknown_game_is_404_and_the_api_says_why() -> None:
    assert own_thread(lambda: Client().get("/g/nothing/events")).status_code == 404
    answer = own_thread(lambda: Client().get("/api/games/nothing/events"))
    assert answer.status_code == 404
    assert answer.json() == {"error": "There is no such game."}


def test_the_game_page_follows_its_stream_and_polls_as_a_fallback(client: Client) -> None:
    game = make_game()
    page = client.get(f"/g/{game.pk}/").content.decode()
    # The same marks as its poll: the version, the rows and the chart's key it shows.
    marks = re.search(r'hx-get="/g/[^/]+/live\?([^"]*)"', page)
    assert marks is not None and marks.group(1).startswith("v=1&amp;n=0&amp;t=&amp;k=")
    assert f'sse-connect="/g/{game.pk}/events?{marks.group(1)}"' in page
    assert 'hx-trigger="sse:version, thirty:behind, every 1s"' in page
    assert "htmx-ext-sse-2.2.4" in page


def test_a_waiting_stream_hears_a_newer_version_from_a_later_stream() -> None:
    """Two streams of one game: the second read a newer version before it was published."""
    hub = push.Hub()

    @own_loop
    async def run() -> None:
        first = hub.versions("g", read(1))
        assert await next_chunk(first) == 1
        second = hub.versions("g", read(2))
        assert await next_chunk(second) == 2
        assert await next_chunk(first) == 2
        hub.publish("g", 2)  # heard again: nothing new
        hub.publish("g", 3)
        assert await next_chunk(first) == 3
        assert await next_chunk(second) == 3
        await first.aclose()
        await second.aclose()
        assert hub.watched() == []

    run()


def read(version: int) -> Callable[[], Awaitable[int | None]]:
    """A stream's read of the game's version, as it stands in the database."""

    async def current() -> int | None:
        return version

    return current


def test_a_change_committed_while_a_stream_starts_is_heard() -> None:
    """The stream reads the game's version once it waits: a change committed between the
    page's read and the stream's start is heard then, not lost until the next change."""
    hub = push.Hub()
    database = {"g": 1}

    def read_then_commit() -> int | None:
        version = database["g"]
        database["g"] += 1  # another phone's change commits right after the read
        hub.publish("g", database["g"])
        return version

    @own_loop
    async def run() -> None:
        stream = hub.versions("g", sync_to_async(read_then_commit))
        assert await next_chunk(stream) == 2
        await stream.aclose()

    run()
    threaded = hub.versions_sync("g", read_then_commit, seconds=1)
    assert next(threaded) == 3
    threaded.close()
    assert hub.watched() == []


def test_closing_the_hub_ends_each_stream_at_once_not_at_its_next_beat() -> None:
    """A server that stops serving (the tests' live server after a test) ends its open
    streams: a waiting one returns within moments, though its beat is twenty seconds away,
    and one that starts meanwhile ends as it starts."""
    hub = push.Hub()
    threaded = hub.versions_sync("g", lambda: 1, seconds=60)
    assert next(threaded) == 1
    ended = threading.Event()

    def wait_in_a_thread() -> None:
        assert list(threaded) == []  # no version, no beat: it just ends
        ended.set()

    threading.Thread(target=wait_in_a_thread, daemon=True).start()

    @own_loop
    async def run() -> None:
        stream = hub.versions("h", read(4))
        assert await next_chunk(stream) == 4
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.05)
        hub.close()
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(waiting, 3)

    run()
    assert ended.wait(3)
    assert hub.watched() == []
    # Closed, a stream that starts ends at once; reopened, streams wait again.
    assert list(hub.versions_sync("g", lambda: 1, seconds=60)) == []
    hub.reopen()
    reopened = hub.versions_sync("g", lambda: 2, seconds=60)
    assert next(reopened) == 2
    reopened.close()


def pushed(chunk: bytes) -> tuple[str, dict[str, Any]]:
    """An event's type and data."""
    lines = dict(line.split(": ", 1) for line in chunk.decode().strip().splitlines())
    return lines["event"], json.loads(lines["data"])


def test_a_page_that_says_what_it_shows_is_sent_each_update_itself() -> None:
    game = make_game()
    record = sync_to_async(dice_moves.record_turn, thread_sensitive=False)

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(f"/g/{game.pk}/events?v=1&n=0&t=")
        # The page is current: nothing to show, and no version to fetch.
        assert pushed(await next_chunk(chunks)) == ("update", {"version": 1})
        await record(game.pk, dice_rules.Turn(20))
        kind, update = pushed(await next_chunk(chunks))
        assert kind == "update" and (update["version"], update["since"]) == (2, 1)
        assert 'id="turn-1"' in update["html"] and "<strong>Ben</strong>" in update["html"]
        await record(game.pk, dice_rules.Turn(33, 1))
        kind, update = pushed(await next_chunk(chunks))
        assert (update["version"], update["since"]) == (3, 2)
        assert 'id="turn-2"' in update["html"] and 'id="turn-1"' not in update["html"]

    run()


@pytest.mark.postgres
def test_a_stream_outlives_a_connection_the_database_dropped() -> None:
    """PostgreSQL restarted, or something between cut its connections: the stream's thread
    opens a new connection, and the page goes on being sent its updates."""
    game = make_game()

    def turn(total: int) -> None:
        own_thread(lambda: dice_moves.record_turn(game.pk, dice_rules.Turn(total)))

    def drop_every_other_connection() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(f"/g/{game.pk}/events?v=1&n=0&t=")
        assert pushed(await next_chunk(chunks)) == ("update", {"version": 1})
        turn(20)
        assert pushed(await next_chunk(chunks))[0] == "update"  # its thread has a connection
        own_thread(drop_every_other_connection)
        turn(25)
        # The first update after the drop meets the dead connection: the page is told the
        # version instead, and asks /live, as after any cut.
        assert pushed(await next_chunk(chunks))[0] in ("update", "version")
        turn(22)
        kind, update = pushed(await next_chunk(chunks))
        assert kind == "update" and update["version"] == 4

    try:
        run()
    finally:
        connection.close()  # this thread's connection was dropped too


def test_a_page_that_missed_changes_catches_up_through_live() -> None:
    """A stream opened again after a cut: the page asks `/live`, then is sent what follows."""
    game = make_game()
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    record = sync_to_async(dice_moves.record_turn, thread_sensitive=False)

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(f"/g/{game.pk}/events?v=1&n=0&t=")
        assert await next_chunk(chunks) == event(2)
        await record(game.pk, dice_rules.Turn(25))
        kind, update = pushed(await next_chunk(chunks))
        assert kind == "update" and (update["version"], update["since"]) == (3, 2)
        assert 'id="turn-2"' in update["html"] and 'id="turn-1"' not in update["html"]

    run()


def test_a_seat_is_sent_its_own_hand_and_a_watcher_none() -> None:
    client = Client()

    def post(url: str, body: dict[str, Any], **headers: str) -> Any:
        return client.post(url, json.dumps(body), content_type="application/json", headers=headers)

    game = post("/api/games", {"players": ["Anna", "Ben"], "rules": {"preset": "cards"}}).json()
    url = f"/api/games/{game['id']}"
    anna = post(f"{url}/seats/1/claim", {}, **{"X-Seat-Key": game["seat_keys"][0]}).json()
    ben = post(f"{url}/seats/2/claim", {}, **{"X-Seat-Key": game["seat_keys"][1]}).json()
    keys = {1: anna["seat_key"], 2: ben["seat_key"]}
    state = client.get(url, headers={"X-Seat-Key": keys[1]}).json()
    version = state["version"]
    stream_url = f"/g/{game['id']}/events?v={version}"

    def play() -> dict[int, dict[str, Any]]:
        post(f"{url}/moves", state["legal"][0] | {"version": version}, **{"X-Seat-Key": keys[1]})
        return {
            who: client.get(url, headers={"X-Seat-Key": key}).json() for who, key in keys.items()
        }

    @own_loop
    async def run() -> tuple[dict[str, Any], dict[str, Any], dict[int, dict[str, Any]]]:
        seat = AsyncClient()
        seat.cookies[f"thirty_seat_{game['id']}"] = keys[1]
        _, seat_chunks = await open_stream(stream_url, seat)
        _, watcher_chunks = await open_stream(stream_url)
        assert pushed(await next_chunk(watcher_chunks))[1] == {"version": version}
        assert pushed(await next_chunk(seat_chunks))[1] == {"version": version}
        after = await sync_to_async(play, thread_sensitive=False)()
        _, for_seat = pushed(await next_chunk(seat_chunks))
        _, for_watcher = pushed(await next_chunk(watcher_chunks))
        return for_seat, for_watcher, after

    for_seat, for_watcher, after = run()
    assert for_seat["version"] == for_watcher["version"] == after[1]["version"]
    assert for_seat["since"] is None  # the whole table: it fits any older page
    own, other = set(after[1]["hand"]), set(after[2]["hand"])
    noise = (game["id"], *keys.values())
    assert 'id="hand"' in for_seat["html"] and own <= visible_codes(for_seat["html"], *noise)
    assert not visible_codes(for_seat["html"], *noise) & other
    assert 'id="hand"' not in for_watcher["html"]
    assert not visible_codes(for_watcher["html"], *noise) & (own | other)
    # Nothing this process shares between phones holds a hand.
    assert not any('id="hand"' in repr(value) for value in cache._memory.entries.values())
