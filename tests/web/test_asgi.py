"""The production ASGI application (thirty/asgi.py): pages through Django's WSGI handler in
a thread, event streams through its ASGI handler."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connections

from tests.web.loops import own_loop
from thirty.asgi import application, pages
from thirty.pages import wsgi_environ

# The pages run in the application's own thread, with its own database connection.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _let_go_of_the_database() -> Iterator[None]:
    """The pages' thread keeps its database connection, as in production; a test database
    with a connection left open could not be dropped at the end of the run."""
    yield
    pages.executor.submit(connections.close_all).result()


def scope(method: str, path: str, query: bytes = b"", **headers: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"127.0.0.1")]
        + [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


@own_loop
async def call(request: dict[str, Any], body: bytes = b"") -> tuple[int, list[Any], bytes]:
    communicator = ApplicationCommunicator(application, request)  # type: ignore[no-untyped-call]
    half = len(body) // 2
    await communicator.send_input({"type": "http.request", "body": body[:half], "more_body": True})  # type: ignore[no-untyped-call]
    await communicator.send_input({"type": "http.request", "body": body[half:]})  # type: ignore[no-untyped-call]
    start = await communicator.receive_output(10)  # type: ignore[no-untyped-call]
    content = await communicator.receive_output(10)  # type: ignore[no-untyped-call]
    await communicator.wait(1)  # type: ignore[no-untyped-call]
    return start["status"], start["headers"], content["body"]


def test_a_page_is_answered_through_the_wsgi_handler() -> None:
    status, headers, body = call(scope("GET", "/healthz"))
    assert (status, body) == (200, b"ok")
    assert (b"content-type", b"text/plain") in headers


def test_a_post_with_a_body_in_parts_reaches_the_view() -> None:
    payload = json.dumps({"players": ["Anna", "Ben"], "name": "Æblekage"}).encode()
    status, _, body = call(scope("POST", "/api/games", content_type="application/json"), payload)
    assert status == 201
    assert json.loads(body)["name"] == "Æblekage"


def test_every_cookie_of_an_answer_is_kept() -> None:
    new = scope("POST", "/api/games", content_type="application/json")
    game = json.loads(call(new, b'{"players": ["A", "B"]}')[2])
    status, headers, _ = call(scope("GET", f"/g/{game['id']}/"))
    assert status == 200
    cookies = [value for name, value in headers if name == b"set-cookie"]
    assert len(cookies) >= 2  # the CSRF token and the list of this phone's games


def test_the_environ_follows_pep_3333() -> None:
    environ = wsgi_environ(
        scope("GET", "/g/å/", b"v=1", accept="a", x_thirty="1") | {"root_path": ""},
        b"",
    )
    assert environ["PATH_INFO"] == "/g/å/".encode().decode("latin-1")
    assert environ["QUERY_STRING"] == "v=1"
    assert environ["HTTP_ACCEPT"] == "a"
    assert environ["HTTP_X_THIRTY"] == "1"
    assert environ["SERVER_PORT"] == "8000"


@own_loop
async def trickle(request: dict[str, Any]) -> tuple[int, bytes]:
    """A body that starts and never finishes arriving."""
    communicator = ApplicationCommunicator(application, request)  # type: ignore[no-untyped-call]
    await communicator.send_input({"type": "http.request", "body": b"a=", "more_body": True})  # type: ignore[no-untyped-call]
    start = await communicator.receive_output(5)  # type: ignore[no-untyped-call]
    content = await communicator.receive_output(5)  # type: ignore[no-untyped-call]
    return start["status"], content["body"]


def test_a_body_that_takes_too_long_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("thirty.pages.BODY_SECONDS", 0.2)
    status, body = trickle(scope("POST", "/"))
    assert status == 408 and b"too long" in body


@own_loop
async def open_streams(request: dict[str, Any], count: int) -> list[int | None]:
    """Open `count` streams from one address; the status each got, None while it is open."""
    communicators = []
    statuses: list[int | None] = []
    for _ in range(count):
        communicator = ApplicationCommunicator(application, request)  # type: ignore[no-untyped-call]
        await communicator.send_input({"type": "http.request", "body": b""})  # type: ignore[no-untyped-call]
        start = await communicator.receive_output(10)  # type: ignore[no-untyped-call]
        statuses.append(start["status"])
        communicators.append(communicator)
    for communicator in communicators:
        await communicator.send_input({"type": "http.disconnect"})  # type: ignore[no-untyped-call]
        await communicator.wait(5)  # type: ignore[no-untyped-call]
    return statuses


def test_streams_are_capped_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.factories import make_game
    from thirty.asgi import open_streams as counted

    monkeypatch.setattr(counted, "most", 3)
    game = make_game()
    statuses = open_streams(scope("GET", f"/g/{game.pk}/events"), 4)
    assert statuses == [200, 200, 200, 429]
    assert not counted.open  # every closed stream was let go
    # Another address still gets its stream.
    other = scope("GET", f"/g/{game.pk}/events") | {"client": ("192.0.2.7", 50000)}
    assert open_streams(other, 1) == [200]
