"""Caches for the paths every following phone hits.

Everything cached here is keyed by the game's version, which goes up with every change, so
an entry can never be stale: a new version is simply a new key. Each process keeps its own
entries in memory, which is safe for any number of processes. Values are kept as they are,
not pickled, since a rendered sheet is a hundred kilobytes that would otherwise be copied
on every hit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.db import connection
from django.utils.translation import get_language

from games.models import Game

T = TypeVar("T")
MAX_ENTRIES = 512

_VERSION_SQL = f"SELECT version FROM {Game._meta.db_table} WHERE id = %s"


def current_version(game_id: str) -> int | None:
    """The game's version in one indexed query, without building ORM objects: this runs
    for every phone every second, so it is kept as close to a bare request as possible."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [game_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


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

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


_memory = _Memory(MAX_ENTRIES)


def cached(key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """The value for `key` in the reader's language, built once per process."""
    return _memory.get_or_build((*key, get_language()), build)


def remembered(key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """The value for `key`, whatever the language, built once per process."""
    return _memory.get_or_build(key, build)


def remember(key: tuple[Hashable, ...], value: object) -> None:
    _memory.get_or_build(key, lambda: value)


def clear() -> None:
    _memory.clear()
