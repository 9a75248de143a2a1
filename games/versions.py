"""Game versions pushed by PostgreSQL, so that an unchanged live refresh needs no query.

Every change sends `NOTIFY thirty_versions, '<game>:<version>'` inside its transaction, and
PostgreSQL delivers it on commit to every app process, on every machine. Each process keeps
one listening connection in a background thread and a board of the versions it has heard
of. A phone asking "anything new since version 7?" is then answered from the board.

The board only answers while its listener is connected, and only for entries younger than a
few seconds; anything else is read from the database as before. Versions only go up, so an
older value never replaces a newer one, whichever arrives first.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

CHANNEL = "thirty_versions"
TRUST_SECONDS = 5.0
RECONNECT_SECONDS = 1.0
# How long the listener waits for a notification before it checks whether it is to stop:
# `stop` waits up to this long (a notification itself arrives at once either way).
STOP_CHECK_SECONDS = 0.2

log = logging.getLogger(__name__)


class VersionBoard:
    def __init__(
        self,
        conninfo: dict[str, Any],
        *,
        on_version: Callable[[str, int], None] | None = None,
        watched: Callable[[], list[str]] | None = None,
    ) -> None:
        """`on_version` hears every version pushed; after every (re)connection it also hears
        the versions of the `watched` games, which may have changed while nothing listened."""
        self._conninfo = conninfo
        self._on_version = on_version
        self._watched = watched
        self._versions: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        self._listening = False
        # Goes up on every (re)connection: a value read from the database while the
        # listener was down may have missed a notification, so it is not kept.
        self._generation = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="thirty-versions", daemon=True)

    def start(self) -> VersionBoard:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def wait_until_listening(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._listening:
                return True
            time.sleep(0.01)
        return False

    def generation(self) -> int | None:
        """The current listener generation, or None while nothing is listening."""
        with self._lock:
            return self._generation if self._listening else None

    def lookup(self, game_id: str) -> int | None:
        with self._lock:
            if not self._listening:
                return None
            entry = self._versions.get(game_id)
        if entry is None or time.monotonic() - entry[1] > TRUST_SECONDS:
            return None
        return entry[0]

    def heard(self, game_id: str, version: int) -> None:
        """A version the database pushed."""
        with self._lock:
            self._keep(game_id, version)
        if self._on_version is not None:
            self._on_version(game_id, version)

    def read(self, game_id: str, version: int, generation: int | None) -> None:
        """A version read from the database while `generation` was listening: kept only if
        the same listener is still connected, so no notification can have been missed."""
        with self._lock:
            if generation is not None and self._listening and generation == self._generation:
                self._keep(game_id, version)

    def _keep(self, game_id: str, version: int) -> None:
        old = self._versions.get(game_id)
        if old is None or version >= old[0]:
            self._versions[game_id] = (version, time.monotonic())

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(**self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    with self._lock:
                        self._versions.clear()
                        self._generation += 1
                        self._listening = True
                    if self._watched is not None and (watched := self._watched()):
                        rows = conn.execute(
                            "SELECT id, version FROM games_game WHERE id = ANY(%s)", [watched]
                        )
                        for game_id, version in rows:
                            self.heard(game_id, int(version))
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=STOP_CHECK_SECONDS):
                            game_id, _, version = notify.payload.rpartition(":")
                            self.heard(game_id, int(version))
            except (psycopg.Error, OSError, ValueError) as error:
                log.warning("version listener stopped: %s", error)
            finally:
                with self._lock:
                    self._listening = False
                    self._versions.clear()
            self._stop.wait(RECONNECT_SECONDS)
