"""The game's event stream (`/g/<id>/events`, `/api/games/<id>/events`): the version now,
then one event per change, heartbeats while nothing happens, from this process and others."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient, Client, override_settings

from games import cache, push, store
from games.rules import dice as dice_rules
from games.versions import CHANNEL
from tests.factories import make_game
from tests.web.loops import own_loop, own_thread

# The stream reads the version in another thread, so the game must be committed.
pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")


def event(version: int) -> bytes:
    return f'id: {version}\nevent: version\ndata: {{"version": {version}}}\n\n'.encode()


async def next_chunk(chunks: AsyncIterator[T], seconds: float = 3.0) -> T:
    return await asyncio.wait_for(anext(chunks), seconds)


async def open_stream(url: str) -> tuple[Any, AsyncIterator[bytes]]:
    response = await AsyncClient().get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    chunks: AsyncIterator[bytes] = aiter(response.streaming_content)  # type: ignore[attr-defined]
    assert await next_chunk(chunks) == b"retry: 1000\n"
    return response, chunks


@pytest.mark.parametrize("url", ["/g/{}/events", "/api/games/{}/events"])
def test_it_sends_the_version_now_and_then_every_change(url: str) -> None:
    game = make_game()

    @own_loop
    async def run() -> None:
        _, chunks = await open_stream(url.format(game.pk))
        assert await next_chunk(chunks) == event(1)
        record = sync_to_async(store.record_turn, thread_sensitive=False)
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
    assert f'sse-connect="/g/{game.pk}/events"' in page
    assert 'hx-trigger="sse:version, every 1s"' in page
    assert "htmx-ext-sse-2.2.4" in page


def test_a_waiting_stream_hears_a_newer_version_from_a_later_stream() -> None:
    """Two streams of one game: the second read a newer version before it was published."""
    hub = push.Hub()

    @own_loop
    async def run() -> None:
        first = hub.versions("g", 1)
        assert await next_chunk(first) == 1
        second = hub.versions("g", 2)
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
