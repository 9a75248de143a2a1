"""Two app processes on one database, over real HTTP: a turn entered through one is seen
through the other, and pushed by the other to the phones that follow it there. This is how
the app runs behind a load balancer."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from thirty.serve import server_command

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, password = settings["USER"], settings["PASSWORD"] or ""
    return f"postgres://{user}:{password}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(url: str, body: Any = None, key: str | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} | ({"X-Host-Key": key} if key else {})
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def two_servers() -> Iterator[tuple[str, str]]:
    env = os.environ | {"DATABASE_URL": database_url(), "DEBUG": "true", "DB_CONN_MAX_AGE": "0"}
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(
            # The production server, one worker each.
            server_command("127.0.0.1", str(port), "1"),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        deadline = time.monotonic() + 30
        for url in urls:
            while True:
                try:
                    if request(f"{url}/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "the app servers did not start"
                time.sleep(0.1)
        yield urls[0], urls[1]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


def test_a_turn_through_one_process_is_seen_through_the_other(two_servers: tuple[str, str]) -> None:
    first, second = two_servers
    status, body = request(f"{first}/api/games", {"players": ["Anna", "Ben", "Cleo", "Dan"]})
    assert status == 201
    game = json.loads(body)
    status, _ = request(
        f"{first}/api/games/{game['id']}/turns", {"total": 33, "hunt": 2}, game["host_key"]
    )
    assert status == 201
    status, body = request(f"{second}/api/games/{game['id']}")
    seen = json.loads(body)
    assert [seat["points"] for seat in seen["seats"]] == [30, 28, 30, 30]
    # A phone following through the second process gets the new row on its next refresh.
    status, body = request(f"{second}/g/{game['id']}/live?v={game['version']}&n=0&t=")
    assert status == 200 and b'id="turn-1"' in body
    status, _ = request(f"{second}/g/{game['id']}/live?v={seen['version']}&n=1&t=")
    assert status == 204


class Stream:
    """An open event stream, read line by line as a browser's EventSource would."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split("/")[0].split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=5)
        self.connection.request("GET", "/" + url.split("/", 3)[3])
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type") == "text/event-stream"

    def next_version(self) -> int:
        while True:
            line = self.response.readline()
            assert line, "the stream ended"
            if line.startswith(b"data: "):
                return int(json.loads(line[6:])["version"])

    def close(self) -> None:
        self.connection.close()


def test_a_change_made_through_one_process_is_pushed_by_the_other(
    two_servers: tuple[str, str],
) -> None:
    first, second = two_servers
    status, body = request(f"{first}/api/games", {"players": ["Anna", "Ben", "Cleo"]})
    game = json.loads(body)
    streams = [
        Stream(f"{second}/g/{game['id']}/events"),
        Stream(f"{first}/api/games/{game['id']}/events"),
    ]
    try:
        for stream in streams:
            assert stream.next_version() == game["version"]
        for turn, server in enumerate((first, second, first)):
            started = time.monotonic()
            status, _ = request(
                f"{server}/api/games/{game['id']}/turns", {"total": 20}, game["host_key"]
            )
            assert status == 201
            for stream in streams:
                # Each process pushes what the other recorded, well within a second.
                assert stream.next_version() == game["version"] + turn + 1
            assert time.monotonic() - started < 1.0
    finally:
        for stream in streams:
            stream.close()
