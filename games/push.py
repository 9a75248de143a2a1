"""A game's new version, pushed to every phone and program that follows it.

Each process keeps a hub: the streams waiting on a game (`games.web.game.events`) and the
newest version it has heard of for each. Three things publish a version into it:

- the write path, when its transaction commits (`games.store`), for this process at once;
- on PostgreSQL, the versions every process hears over `LISTEN` (`games.versions`), so a
  change made through one process is pushed by every other;
- on SQLite, a watcher thread that reads SQLite's own change counter (`PRAGMA data_version`,
  a few microseconds) every 5 ms while anything is waiting, and reads the versions of the
  watched games when another connection has committed: so several worker processes on one
  machine also hear each other within about 5 ms, for about 1.4 % of a core per process
  while streams are open (0.8 % at 20 ms, measured once by hand), and nothing once none is.

The hub only ever hands out versions. A program's stream sends them as they are; a page's
stream turns each into the update the page needs (games/page_stream.py), and `/g/<id>/live`
answers the same for a page whose stream does not get through or that was cut off.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from contextlib import suppress
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 20.0
SQLITE_CHECK_SECONDS = 0.005


@dataclass(eq=False)
class _Waiter:
    """One open stream: how to wake it from any thread."""

    game_id: str
    wake: Callable[[], None]
    loop: asyncio.AbstractEventLoop | None = None
    event: asyncio.Event | threading.Event = field(default_factory=threading.Event)
    ended: bool = False


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._waiters: dict[str, set[_Waiter]] = {}
        self._watcher: Callable[[], None] | None = None
        self._closed = False

    def on_first_waiter(self, start: Callable[[], None] | None) -> None:
        """Something to start when a stream begins waiting (the SQLite watcher)."""
        self._watcher = start

    def publish(self, game_id: str, version: int) -> None:
        """A game's version, from any thread: wakes its streams if it is new to them."""
        with self._lock:
            waiters = self._waiters.get(game_id)
            if not waiters:
                return
            old = self._latest.get(game_id)
            if old is not None and version <= old:
                return
            self._latest[game_id] = version
            waiting = list(waiters)
        _wake(waiting)

    def close(self) -> None:
        """End every stream, as a server that stops serving does (the tests' live server
        after each test): each open one returns at once instead of at its next change or
        beat, and one that starts meanwhile ends as it starts, so none touches the database
        after that. `reopen` lets streams wait again."""
        with self._lock:
            self._closed = True
            waiting = [waiter for waiters in self._waiters.values() for waiter in waiters]
            for waiter in waiting:
                waiter.ended = True
        _wake(waiting)

    def reopen(self) -> None:
        with self._lock:
            self._closed = False

    def latest(self, game_id: str) -> int | None:
        with self._lock:
            return self._latest.get(game_id)

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._waiters)

    def _add(self, waiter: _Waiter) -> None:
        with self._lock:
            waiter.ended = self._closed
            first = not self._waiters
            self._waiters.setdefault(waiter.game_id, set()).add(waiter)
        if first and self._watcher is not None:
            self._watcher()

    def _read(self, game_id: str, version: int | None) -> None:
        # The version a stream read once it waited may be news to the streams already
        # waiting. Read only then: a change committed between a read and the wait would be
        # published to nobody, and the stream would wait for it in vain.
        if version is not None:
            self.publish(game_id, version)

    def _remove(self, waiter: _Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(waiter.game_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[waiter.game_id]
                    self._latest.pop(waiter.game_id, None)

    async def versions(
        self, game_id: str, read: Callable[[], Awaitable[int | None]]
    ) -> AsyncGenerator[int | None]:
        """The game's versions, the current one first (`read` once the stream waits), and
        None whenever `HEARTBEAT_SECONDS` pass without a change; for an async view."""
        event = asyncio.Event()
        waiter = _Waiter(game_id, event.set, asyncio.get_running_loop(), event)
        self._add(waiter)
        try:
            self._read(game_id, await read())
            seen = None
            while not waiter.ended:
                latest = self.latest(game_id)
                if latest is not None and latest != seen:
                    seen = latest
                    yield latest
                    continue
                event.clear()
                if waiter.ended or self.latest(game_id) != seen:
                    continue  # published (or ended) between the look and the clear
                try:
                    # A timeout scope, not wait_for: no task made per wait, which counts
                    # when a change wakes a thousand streams at once.
                    async with asyncio.timeout(HEARTBEAT_SECONDS):
                        await event.wait()
                except TimeoutError:
                    yield None
        finally:
            self._remove(waiter)

    def versions_sync(
        self, game_id: str, read: Callable[[], int | None], *, seconds: float
    ) -> Generator[int | None]:
        """The same for a thread (Django's development server and the WSGI tests), for at
        most `seconds`: a browser then connects again by itself."""
        event = threading.Event()
        waiter = _Waiter(game_id, event.set, None, event)
        self._add(waiter)
        deadline = time.monotonic() + seconds
        try:
            self._read(game_id, read())
            seen = None
            while time.monotonic() < deadline and not waiter.ended:
                latest = self.latest(game_id)
                if latest is not None and latest != seen:
                    seen = latest
                    yield latest
                    continue
                event.clear()
                if waiter.ended or self.latest(game_id) != seen:
                    continue
                if not event.wait(min(HEARTBEAT_SECONDS, max(0.0, deadline - time.monotonic()))):
                    yield None
        finally:
            self._remove(waiter)


def _wake(waiters: list[_Waiter]) -> None:
    """Wake streams from any thread: one hop into each event loop for all its streams, not one
    per stream."""
    loops: dict[asyncio.AbstractEventLoop, list[_Waiter]] = {}
    for waiter in waiters:
        if waiter.loop is None:
            waiter.wake()
        else:
            loops.setdefault(waiter.loop, []).append(waiter)
    for loop, group in loops.items():
        with suppress(RuntimeError):  # that loop has closed: its streams are gone
            loop.call_soon_threadsafe(_wake_all, group)


def _wake_all(waiters: list[_Waiter]) -> None:
    for waiter in waiters:
        waiter.wake()


hub = Hub()


class SqliteWatcher:
    """Hears commits made by other processes on the same SQLite file (see the module's
    docstring). Runs only while some stream waits; stops by itself after that."""

    def __init__(self, path: str, table: str, target: Hub) -> None:
        self._path = path
        self._sql = f"SELECT id, version FROM {table} WHERE id IN "
        self._hub = target
        self._lock = threading.Lock()
        self._running = False

    def start(self) -> None:
        with self._lock:
            if self._running:
                return
            self._running = True
        threading.Thread(target=self._run, name="thirty-sqlite-versions", daemon=True).start()

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self._path, timeout=1, check_same_thread=False)
            try:
                self._watch(connection)
            finally:
                connection.close()
        except sqlite3.Error as error:
            log.warning("SQLite version watcher stopped: %s", error)
        finally:
            with self._lock:
                self._running = False
            if self._hub.watched():
                time.sleep(1)
                self.start()

    def _watch(self, connection: sqlite3.Connection) -> None:
        counter = None  # read the watched games at once: a commit may precede the watcher
        idle_since: float | None = None
        while True:
            time.sleep(SQLITE_CHECK_SECONDS)
            watched = self._hub.watched()
            if not watched:
                # Nothing waits: stop after a few idle seconds (a page reload reconnects).
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since > 5:
                    return
                continue
            idle_since = None
            now = connection.execute("PRAGMA data_version").fetchone()[0]
            if now == counter:
                continue
            counter = now
            for start in range(0, len(watched), 500):
                chunk = watched[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for game_id, version in connection.execute(f"{self._sql}({marks})", chunk):
                    self._hub.publish(game_id, int(version))
