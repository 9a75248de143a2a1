"""Robustness under load, for `make bench` (bench/run.py robustness ...).

Against a running production server (two worker processes on one database):

 6. readers and writers on one game at once for a while: every answer counted by kind and
    status [no 5xx];
 7. the import of a 5,000-turn file (the most a game may have) through the page, timed,
    while /healthz and another game's API are asked every 50 ms [both keep answering].
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import Counter
from typing import Any

from run import Client, build_game, pct

from games.rules.dice import DiceGame, RuleSet, Turn  # pure Python: no Django needed

IMPORT_TURNS = 5_000
READ_PATHS = (
    ("api", "/api/games/{id}"),
    ("page", "/g/{id}/"),
    ("live", "/g/{id}/live?v=0"),
    ("csv", "/g/{id}/sheet.csv"),
)


def stress(client: Client, seconds: float, readers: int = 6, writers: int = 3) -> dict[str, Any]:
    """Writers enter turns without a version (and undo some); readers read every view."""
    game = build_game(client, "bench stress", 20, players=["Anna", "Ben", "Cleo", "Dan"])
    counts: Counter[str] = Counter()
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def note(kind: str, status: int, body: bytes) -> None:
        with lock:
            counts[f"{kind} {status}"] += 1
            if status >= 500 and len(errors) < 5:
                errors.append(f"{kind} {status}: {body[:200]!r}")

    def write(n: int) -> None:
        while time.monotonic() < stop:
            n += 1
            if n % 5 == 0:
                reply = client.call(
                    "DELETE", f"/api/games/{game.id}/turns/last", headers={"X-Host-Key": game.key}
                )
                note("undo", reply.status, reply.body)
            else:
                reply = client.api("POST", f"/api/games/{game.id}/turns", {"total": 20}, game.key)
                note("turn", reply.status, reply.body)

    def read(n: int) -> None:
        while time.monotonic() < stop:
            name, path = READ_PATHS[n % len(READ_PATHS)]
            reply = client.call("GET", path.format(id=game.id))
            note(name, reply.status, b"")
            n += 1

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    threads += [threading.Thread(target=read, args=(n,)) for n in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = sum(counts.values())
    server_errors = sum(n for kind, n in counts.items() if int(kind.rsplit(" ", 1)[1]) >= 500)
    return {
        "seconds": seconds,
        "readers": readers,
        "writers": writers,
        "requests": total,
        "server_errors": server_errors,
        "counts": dict(sorted(counts.items())),
        "errors": errors,
    }


def export_file(turns: int) -> bytes:
    replay = DiceGame(RuleSet.from_dict({}), 4)
    rows = [replay.push(Turn(20)) for _ in range(turns)]
    return json.dumps(
        {
            "format": "thirty-game",
            "format_version": 1,
            "name": "bench import",
            "rules": {},
            "players": ["Anna", "Ben", "Cleo", "Dan"],
            "turns": [{"total": 20, "cells": list(row.cells)} for row in rows],
        }
    ).encode()


def import_while_watching(client: Client, turns: int = IMPORT_TURNS) -> dict[str, Any]:
    """Import a long game through the page while /healthz and another game are asked."""
    other = build_game(client, "bench neighbour", 10, players=["Anna", "Ben"])
    home = client.call("GET", "/")
    token = re.search(rb'"X-CSRFToken"\s*:\s*"([^"]+)"', home.body)
    cookie = re.search(r"csrftoken=([^;\s]+)", home.headers.get("set-cookie", ""))
    if token is None or cookie is None:
        raise RuntimeError("the home page set no CSRF cookie or token")
    data = export_file(turns)
    boundary = uuid.uuid4().hex
    body = b"".join(
        [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"'
            f"\r\n\r\n{token.group(1).decode()}\r\n".encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            'filename="game.json"\r\nContent-Type: application/json\r\n\r\n'.encode(),
            data,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    watched: dict[str, list[float]] = {"healthz": [], "other game": []}
    failures: Counter[str] = Counter()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            for name, path in (("healthz", "/healthz"), ("other game", f"/api/games/{other.id}")):
                reply = client.call("GET", path)
                watched[name].append(reply.seconds)
                if reply.status != 200:
                    failures[f"{name} {reply.status}"] += 1
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.3)
    try:
        reply = client.call(
            "POST",
            "/import",
            body,
            {
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Cookie": f"csrftoken={cookie.group(1)}",
            },
        )
    finally:
        time.sleep(0.3)
        done.set()
        watcher.join()
    if reply.status != 302:
        raise RuntimeError(f"POST /import answered {reply.status}: {reply.body[:300]!r}")
    return {
        "turns": turns,
        "bytes": len(data),
        "seconds": round(reply.seconds, 3),
        "watch": {
            name: {"requests": len(times), "p50": pct(times, 50), "max": max(times)}
            for name, times in watched.items()
        },
        "failures": dict(failures),
    }


def measure(port: int, db: str, seconds: float) -> dict[str, Any]:
    client = Client(port)
    print(f"-- stress: readers and writers on one game for {seconds:.0f} s", flush=True)
    stressed = stress(client, seconds)
    print(
        f"   {stressed['requests']} requests, {stressed['server_errors']} server errors", flush=True
    )
    print(f"-- import of a {IMPORT_TURNS}-turn file", flush=True)
    imported = import_while_watching(client)
    print(f"   {imported['seconds']} s; watched: {imported['watch']}", flush=True)
    return {"db": db, "stress": stressed, "import": imported}


def report(results: list[dict[str, Any]]) -> str:
    lines = [
        "| # | measure | " + " | ".join(r["db"] for r in results) + " | target |",
        "|---|---|" + "---|" * len(results) + "---|",
    ]

    def row(number: str, label: str, cells: list[str], target: str) -> None:
        lines.append(f"| {number} | {label} | " + " | ".join(cells) + f" | {target} |")

    row(
        "6",
        "readers and writers on one game: requests (5xx)",
        [f"{r['stress']['requests']:,} ({r['stress']['server_errors']})" for r in results],
        "0 × 5xx",
    )
    row(
        "7",
        f"import of a {IMPORT_TURNS:,}-turn file, s",
        [f"{r['import']['seconds']:.2f}" for r in results],
        "",
    )
    for name in ("healthz", "other game"):
        row(
            "7",
            f"`{'/healthz' if name == 'healthz' else 'GET /api/games/<other>'}` during the"
            " import: answers, slowest",
            [
                f"{r['import']['watch'][name]['requests']}, "
                f"{r['import']['watch'][name]['max'] * 1000:.0f} ms"
                for r in results
            ],
            "all 200",
        )
    details = []
    for r in results:
        details.append(
            f"- {r['db']}: stress {r['stress']['seconds']:.0f} s with "
            f"{r['stress']['writers']} writers and {r['stress']['readers']} readers, answers "
            + ", ".join(f"{kind}: {n}" for kind, n in r["stress"]["counts"].items())
            + f"; import {r['import']['bytes']:,} bytes, failures while watching: "
            + (json.dumps(r["import"]["failures"]) if r["import"]["failures"] else "none")
        )
        details.extend(f"  - 5xx: {error}" for error in r["stress"]["errors"])
    return "\n".join([*lines, "", *details])
