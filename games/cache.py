"""Caches for the paths every following phone hits.

Everything cached here is keyed by the game's version, which goes up with every change, so
an entry can never be stale: a new version is simply a new key. Each process keeps its own
entries (Django's local-memory cache), which is safe for any number of processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import connection
from django.utils.translation import get_language

from games.models import Game

T = TypeVar("T")
ENTRY_SECONDS = 10 * 60

_VERSION_SQL = f"SELECT version FROM {Game._meta.db_table} WHERE id = %s"


def current_version(game_id: str) -> int | None:
    """The game's version in one indexed query, without building ORM objects: this runs
    for every phone every second, so it is kept as close to a bare request as possible."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [game_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def cached(key: str, build: Callable[[], T]) -> T:
    """The value for `key` in the reader's language, built once per process."""
    full_key = f"{key}:{get_language()}"
    value: T | None = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(full_key, value, ENTRY_SECONDS)
    return value
