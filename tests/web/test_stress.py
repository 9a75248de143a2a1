"""Readers and writers on one game at the same time, against the real database: every read
sees a consistent game, and no request ever answers 500."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from tests.budget import dev_profile
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)


def stress(seconds: float, readers: int = 4, writers: int = 2) -> Counter[str]:
    """Hammer one game for `seconds`; count the answers by path kind and status."""
    game = make_game(players=["Anna", "Ben", "Cleo"])
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    failures: list[str] = []

    def count(kind: str, status: int, body: bytes) -> None:
        with lock:
            counts[f"{kind} {status}"] += 1
            if status >= 500:
                failures.append(f"{kind}: {body[:300]!r}")

    def write(n: int) -> None:
        client = Client(raise_request_exception=False)
        headers = {"X-Host-Key": game.host_key}  # type: ignore[attr-defined]
        try:
            while time.monotonic() < stop:
                if n % 2 == 0:
                    response = client.post(
                        f"/api/games/{game.pk}/turns",
                        json.dumps({"total": 20}),
                        content_type="application/json",
                        headers=headers,
                    )
                    count("turn", response.status_code, response.content)
                else:
                    response = client.delete(f"/api/games/{game.pk}/turns/last", headers=headers)
                    count("undo", response.status_code, response.content)
                n += 2
        finally:
            connection.close()

    def read(n: int) -> None:
        client = Client(raise_request_exception=False)
        paths = [
            f"/api/games/{game.pk}",
            f"/g/{game.pk}/",
            f"/g/{game.pk}/live?v=0",
            f"/g/{game.pk}/sheet.csv",
        ]
        try:
            while time.monotonic() < stop:
                path = paths[n % len(paths)]
                response = client.get(path)
                count(path.rsplit("/", 1)[-1].split("?")[0] or "page", response.status_code, b"")
                n += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    threads += [threading.Thread(target=read, args=(n,)) for n in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    assert not failures, failures[:3]
    return counts


@pytest.mark.slow
def test_readers_and_writers_at_once_never_get_a_server_error() -> None:
    # Three seconds of it; one under `make test-fast` (tests/budget.py).
    counts = stress(1.0 if dev_profile() else 3.0)
    assert sum(n for kind, n in counts.items() if kind.startswith("turn 201")) > 0
    assert all(int(kind.rsplit(" ", 1)[1]) < 500 for kind in counts), counts
