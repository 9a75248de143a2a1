"""Caches for the paths every following phone hits.

Everything cached here is keyed by the game's version, which goes up with every change, so
an entry can never be stale: a new version is simply a new key. Sheet rows are the one
exception: a row never changes once written, so its rendered HTML is keyed by the row's own
value, which holds everything it shows, and its words by the game, the turn's id (which is
never used twice: a sequence on PostgreSQL, AUTOINCREMENT on SQLite), the names and the
seed that rolled it. Each process keeps its own entries in memory, which
is safe for any number of processes. Values are kept as they are, not pickled, since a
rendered sheet is a hundred kilobytes that would otherwise be copied on every hit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import get_language

from games.models import Game
from games.push import SqliteWatcher, hub
from games.versions import CHANNEL, VersionBoard

T = TypeVar("T")
MAX_ENTRIES = 512
# Sheet rows' words and HTML, kept apart from the pages' entries, which a long game's rows
# would push out: 10,000 entries (ten games of 500 turns) are a few megabytes.
MAX_ROWS = 10_000

_VERSION_SQL = f"SELECT version FROM {Game._meta.db_table} WHERE id = %s AND deleted_at IS NULL"
_VERSION_SQL_SQLITE = _VERSION_SQL.replace("%s", "?")


def current_version(game_id: str) -> int | None:
    """The game's version: this runs for every phone every second, so it is kept as close
    to a bare request as possible. On PostgreSQL it usually comes from the versions the
    database pushed (`games.versions`); otherwise from one indexed query, without ORM objects.
    """
    board = version_board()
    generation = None
    if board is not None:
        known = board.lookup(game_id)
        if known is not None:
            return known
        generation = board.generation()
    if connection.vendor == "sqlite":
        # Straight to the driver: Django's cursor wrapper costs ten times the query itself
        # (about 50 against 5 microseconds), and this is the whole cost of the answer.
        connection.ensure_connection()
        row = connection.connection.execute(_VERSION_SQL_SQLITE, (game_id,)).fetchone()
    else:
        with connection.cursor() as cursor:
            cursor.execute(_VERSION_SQL, [game_id])
            row = cursor.fetchone()
    if row is None:
        return None
    if board is not None:
        board.read(game_id, int(row[0]), generation)
    return int(row[0])


_board: VersionBoard | None = None
_board_lock = threading.Lock()


def version_board() -> VersionBoard | None:
    """This process's board of pushed versions, started on first use (PostgreSQL only)."""
    global _board
    if connection.vendor != "postgresql" or not settings.THIRTY_VERSION_PUSH:
        return None
    with _board_lock:
        if _board is None:
            params = connection.settings_dict
            conninfo = {
                key: params[name]
                for key, name in (
                    ("dbname", "NAME"),
                    ("user", "USER"),
                    ("password", "PASSWORD"),
                    ("host", "HOST"),
                    ("port", "PORT"),
                )
                if params.get(name)
            }
            _board = VersionBoard(conninfo, on_version=hub.publish, watched=hub.watched).start()
        return _board


_sqlite_watcher: SqliteWatcher | None = None


def hear_other_processes() -> None:
    """Make sure this process hears versions written by the others, for its streams: the
    PostgreSQL listener, or the SQLite watcher (see games/push.py)."""
    global _sqlite_watcher
    if connection.vendor == "sqlite":
        with _board_lock:
            if _sqlite_watcher is None:
                path = str(connection.settings_dict["NAME"])
                _sqlite_watcher = SqliteWatcher(path, Game._meta.db_table, hub)
                hub.on_first_waiter(_sqlite_watcher.start)
        if hub.watched():
            _sqlite_watcher.start()
    else:
        version_board()


def stop_version_board() -> None:
    global _board
    with _board_lock:
        if _board is not None:
            _board.stop()
            _board = None


def announce(game: Game) -> None:
    """Tell every process the game's new version, when the current transaction commits:
    this process's streams directly, the others through PostgreSQL."""
    game_id, version = game.pk, game.version

    def committed() -> None:
        # This process's board learns the version before its streams send it: a phone that
        # asks this process for the update at once must not be told "unchanged" because the
        # database's own notification is still on its way.
        if _board is not None:
            _board.heard(game_id, version)  # also publishes
        else:
            hub.publish(game_id, version)

    transaction.on_commit(committed)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game.pk}:{game.version}"])


class _Memory:
    """A small least-recently-used map, safe to share between a process's threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get_or_build(self, key: Hashable, build: Callable[[], T]) -> T:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                value: T = self.entries[key]
                return value
        value = build()  # built outside the lock; two threads may build it once each
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def get(self, key: Hashable) -> Any:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        return None

    def put(self, key: Hashable, value: object) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


_memory = _Memory(MAX_ENTRIES)
_rows = _Memory(MAX_ROWS)


def cached(key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """The value for `key` in the reader's language, built once per process."""
    return _memory.get_or_build((*key, get_language()), build)


def cached_or_none(key: tuple[Hashable, ...]) -> Any:
    """What `cached` holds for `key` in the reader's language, or None: nothing is built."""
    return _memory.get((*key, get_language()))


def remembered(key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """The value for `key`, whatever the language, built once per process."""
    return _memory.get_or_build(key, build)


def recall(key: tuple[Hashable, ...]) -> Any:
    """The value remembered for `key`, whatever the language, or None."""
    return _memory.get(key)


peek = recall


def remember(key: tuple[Hashable, ...], value: object, *, replace: bool = False) -> None:
    if replace:
        _memory.put(key, value)
    else:
        _memory.get_or_build(key, lambda: value)


def cached_row(row: Hashable, build: Callable[[], T]) -> T:
    """A sheet row's rendering, or its words, in the reader's language, built once per
    process: `row` is the row's whole value (a frozen dataclass), or a key that names
    everything the result depends on, so a row that differs is a new key."""
    return _rows.get_or_build((row, get_language()), build)


def clear(*, rows: bool = True) -> None:
    """Forget what this process drew, as a new process would; with `rows` False, keep the
    rows, as a worker that drew the game before and has not drawn its newest version."""
    _memory.clear()
    if rows:
        _rows.clear()
