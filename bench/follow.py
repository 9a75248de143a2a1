"""Following phones and hosts that behave as the game page does, for the latency runs.

A follower polls `/g/<id>/live?v=..&n=..&t=..` on a fixed one-second timer, like htmx's
`hx-trigger="every 1s"`: the timer keeps its beat whatever the answer takes, and a tick that
falls while a request is still out sends one request as soon as it returns (htmx queues the
last trigger). A 200 answer carries a new `<div id="live" hx-get=...>` out of band: the
follower takes v/n/t from it, and since htmx swaps in a new element, the timer starts again
one second after that answer. An answer older than what the follower shows is ignored,
like the page ignores one whose `X-Thirty-Version` is lower than its own. Each follower
keeps its connection between polls, as a browser does (HTTP/1.1 keep-alive), for as long
as the server keeps it open.

A host posts turns through the htmx form path (`POST /g/<id>/turn` with `HX-Request`), with
the v/n/t of its last answer, as the turn panel does, on its own kept connection.

Everything runs on one asyncio loop per process; `simulate_in_processes` spreads games over
processes so that one client can generate more polls than one core allows.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import multiprocessing
import os
import random
import re
import resource
import socket
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

HOST = "127.0.0.1"
POLL_SECONDS = 1.0
REQUEST_TIMEOUT = 15.0

_LIVE_TAG = re.compile(r"<div\b[^>]*\bid=\"live\"[^>]*>", re.S)
_HX_GET = re.compile(r"\bhx-get=\"([^\"]*)\"")
_INPUT = re.compile(r"<input\b[^>]*>")
_NAME = re.compile(r"\bname=\"([^\"]*)\"")
_VALUE = re.compile(r"\bvalue=\"([^\"]*)\"")


@dataclass
class LiveState:
    """What a page knows about its game: the poll address and the version, rows, last row,
    and the mark of the chart's key it shows."""

    path: str
    v: str
    n: str
    t: str
    k: str = ""

    def url(self) -> str:
        marks = {"v": self.v, "n": self.n, "t": self.t} | ({"k": self.k} if self.k else {})
        return f"{self.path}?{urlencode(marks)}"

    @property
    def version(self) -> int:
        try:
            return int(self.v)
        except ValueError:
            return -1


def parse_live(page: str) -> LiveState | None:
    """The state in a page or an update: the `hx-get` of `<div id="live">`."""
    tag = _LIVE_TAG.search(page)
    if tag is None:
        return None
    found = _HX_GET.search(tag.group(0))
    if found is None:
        return None
    url = urlsplit(html.unescape(found.group(1)))
    query = parse_qs(url.query, keep_blank_values=True)
    return LiveState(
        url.path,
        query.get("v", [""])[0],
        query.get("n", [""])[0],
        query.get("t", [""])[0],
        query.get("k", [""])[0],
    )


def parse_form_state(page: str) -> dict[str, str]:
    """The hidden v/n/t inputs of the turn panel, as the host's next post sends them."""
    found: dict[str, str] = {}
    for tag in _INPUT.findall(page):
        name, value = _NAME.search(tag), _VALUE.search(tag)
        if name and value and name.group(1) in ("v", "n", "t"):
            found[name.group(1)] = html.unescape(value.group(1))
    return found


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


def _chunked_end(payload: bytes) -> int:
    """Where a chunked body ends (the offset after its last chunk), or -1 if it is not in."""
    at = 0
    while True:
        line_end = payload.find(b"\r\n", at)
        if line_end < 0:
            return -1
        size_text = payload[at:line_end].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return -1
        at = line_end + 2
        if size == 0:
            trailer_end = payload.find(b"\r\n\r\n", at - 2)
            return -1 if trailer_end < 0 else trailer_end + 4
        if len(payload) < at + size + 2:
            return -1
        at += size + 2


def _dechunk(payload: bytes) -> bytes:
    body, at = b"", 0
    while True:
        line_end = payload.index(b"\r\n", at)
        size = int(payload[at:line_end].split(b";", 1)[0].strip(), 16)
        if size == 0:
            return body
        body += payload[line_end + 2 : line_end + 2 + size]
        at = line_end + 2 + size + 2


def _complete(data: bytes) -> bool:
    """Whether `data` holds a whole answer (headers, then Content-Length bytes of body or
    a whole chunked body)."""
    head, found, payload = data.partition(b"\r\n\r\n")
    if not found:
        return False
    status = head[9:12]
    if status in (b"204", b"304"):
        return True
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            return value.strip().isdigit() and len(payload) >= int(value.strip())
        if name == b"transfer-encoding" and b"chunked" in value.lower():
            return _chunked_end(payload) >= 0
    return False  # no length: read to the end


def _parse(data: bytes) -> Reply:
    head, _, payload = data.partition(b"\r\n\r\n")
    head_lines = head.decode("latin-1").split("\r\n")
    parts = head_lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise ConnectionError(f"no HTTP answer: {head_lines[0][:60]!r}")
    reply_headers: dict[str, str] = {}
    for line in head_lines[1:]:
        name, _, value = line.partition(":")
        reply_headers[name.strip().lower()] = value.strip()
    length = reply_headers.get("content-length")
    if length is not None and length.isdigit() and len(payload) < int(length):
        raise ConnectionError("answer cut short")
    if "chunked" in reply_headers.get("transfer-encoding", "").lower():
        if _chunked_end(payload) < 0:
            raise ConnectionError("answer cut short")
        payload = _dechunk(payload)
    if parts[0] == "HTTP/1.0" and "keep-alive" not in reply_headers.get("connection", "").lower():
        reply_headers["connection"] = "close"
    return Reply(int(parts[1]), reply_headers, payload)


# Browsers keep a connection open between the page's polls (HTTP/1.1 keep-alive) for as long
# as the server does; BENCH_KEEPALIVE=0 makes every request open a new one instead.
KEEP_ALIVE = os.getenv("BENCH_KEEPALIVE", "1") != "0"


class Connection:
    """One page's connection to the server, as a browser keeps it.

    With `keep_alive` the connection stays open after an answer and the next request goes
    out on it, until the server closes it (`Connection: close`, or an idle timeout, after
    which the request is sent again on a new connection, as browsers do). Without it every
    request says `Connection: close` and opens its own.

    Both ends of a new connection are kept as short as this client can make them, because a
    gunicorn sync worker is held for both: it waits for the request from the moment it
    accepts, and after answering it waits for the client to close (a "lingering close",
    up to 2 s). So the request goes out in the same breath as the connect, and the socket
    is closed as soon as the whole answer is in. `close_after` delays that close, as the
    network between a phone and the server would.
    """

    def __init__(self, port: int, keep_alive: bool = KEEP_ALIVE) -> None:
        self.port = port
        self.keep_alive = keep_alive
        self.sock: socket.socket | None = None
        self.opened = 0  # connections opened so far

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    async def request(
        self,
        method: str,
        target: str,
        headers: dict[str, str] | None = None,
        body: bytes = b"",
        close_after: float = 0.0,
    ) -> Reply:
        lines = [f"{method} {target} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        if not self.keep_alive:
            lines.append("Connection: close")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        if self.sock is not None:
            try:
                return await self._exchange(message, close_after)
            except _Stale:
                pass  # closed by the server while idle: say it again on a new connection
        return await self._exchange(message, close_after)

    async def _exchange(self, message: bytes, close_after: float) -> Reply:
        loop = asyncio.get_running_loop()
        reused = self.sock is not None
        data = b""
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                if self.sock is None:
                    self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    self.opened += 1
                    self.sock.setblocking(False)
                    # On loopback the handshake is usually complete when connect() returns.
                    with contextlib.suppress(BlockingIOError):
                        self.sock.connect((HOST, self.port))
                sock = self.sock
                try:
                    sent = sock.send(message)
                except BlockingIOError:
                    sent = 0
                if sent < len(message):
                    await loop.sock_sendall(sock, message[sent:])
                while not _complete(data):
                    chunk = await loop.sock_recv(sock, 65536)
                    if not chunk:
                        break
                    data += chunk
                if not data:
                    raise ConnectionError("closed without an answer")
                reply = _parse(data)
                if not self.keep_alive or reply.headers.get("connection", "") == "close":
                    if close_after > 0:
                        await asyncio.sleep(close_after)
                    self.close()
                return reply
        except (ConnectionError, BrokenPipeError) as error:
            self.close()
            if reused and not data:
                raise _Stale from error
            raise
        except BaseException:
            self.close()
            raise


class _Stale(Exception):
    """A kept connection that the server had closed before the request reached it."""


async def fetch(
    port: int,
    method: str,
    target: str,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
    close_after: float = 0.0,
) -> Reply:
    """One HTTP/1.1 request on a connection of its own, closed after the answer."""
    return await Connection(port, keep_alive=False).request(
        method, target, headers, body, close_after
    )


async def _late_closer(
    port: int, target: str, delay: float, stop: float, seconds: list[float]
) -> None:
    while time.monotonic() < stop:
        started = time.monotonic()
        with contextlib.suppress(OSError, TimeoutError, ConnectionError):
            await fetch(port, "GET", target, close_after=delay)
            seconds.append(time.monotonic() - started - delay)


async def _far_phone(
    port: int, target: str, delay: float, stop: float, seconds: list[float], opened: list[int]
) -> None:
    """Requests back to back from a phone `delay` (one round trip) away that keeps its
    connection: the next request reaches the server one round trip after the answer left,
    and when the server closes the connection, the phone's close comes that late too."""
    connection = Connection(port, keep_alive=True)
    try:
        while time.monotonic() < stop:
            started = time.monotonic()
            try:
                await connection.request("GET", target, close_after=delay)
            except (OSError, TimeoutError, ConnectionError):
                continue
            if connection.sock is None:
                seconds.append(time.monotonic() - started - delay)
            else:
                seconds.append(time.monotonic() - started)
                await asyncio.sleep(delay)
    finally:
        connection.close()
        opened.append(connection.opened)


async def _late_closers(
    port: int, target: str, clients: int, delay: float, duration: float, keep_alive: bool
) -> dict[str, Any]:
    stop = time.monotonic() + duration
    seconds: list[float] = []
    opened: list[int] = []
    if keep_alive:
        phones = [_far_phone(port, target, delay, stop, seconds, opened) for _ in range(clients)]
    else:
        phones = [_late_closer(port, target, delay, stop, seconds) for _ in range(clients)]
    await asyncio.gather(*phones)
    return {"rate": len(seconds) / duration, "seconds": seconds, "connections": sum(opened)}


def late_closers(
    port: int, target: str, clients: int, delay: float, duration: float, keep_alive: bool = False
) -> dict[str, Any]:
    """Requests/s of `clients` phones one network round trip (`delay` seconds) away. Without
    `keep_alive` each request has its own connection, which the phone closes `delay` after
    the answer arrived; with it, each phone keeps its connection as a browser does."""
    return asyncio.run(_late_closers(port, target, clients, delay, duration, keep_alive))


@dataclass
class HostSession:
    """A host's phone: its cookies and CSRF token, and the v/n/t of its last answer."""

    game_id: str
    host_key: str
    csrf_cookie: str
    csrf_token: str
    state: dict[str, str] = field(default_factory=dict)
    connection: Connection | None = None  # the page's connection; None: one per request

    def headers(self) -> dict[str, str]:
        return {
            "HX-Request": "true",
            "X-CSRFToken": self.csrf_token,
            "Cookie": f"csrftoken={self.csrf_cookie}; thirty_host_{self.game_id}={self.host_key}",
            "Content-Type": "application/x-www-form-urlencoded",
        }


# Turns that change no points, so a game never ends; alternating the ones that stop at the
# total with the ones that go on to the hunt.
FORM_TURNS: tuple[dict[str, str], ...] = (
    {"total": "20"},
    {"total": "33", "hunt": "0"},
    {"total": "25"},
    {"total": "35", "hunt": "0"},
    {"total": "12"},
    {"total": "31", "hunt": "0"},
)


async def submit_turn(port: int, host: HostSession, turn: dict[str, str]) -> tuple[bool, int, str]:
    """Post one turn as the page does. Returns (recorded, new version, error)."""
    fields = dict(turn) | {key: host.state.get(key, "") for key in ("v", "n", "t")}
    path, payload = f"/g/{host.game_id}/turn", urlencode(fields).encode()
    if host.connection is not None:
        reply = await host.connection.request("POST", path, host.headers(), payload)
    else:
        reply = await fetch(port, "POST", path, host.headers(), payload)
    if reply.status != 200:
        return False, -1, f"HTTP {reply.status}"
    text = reply.body.decode("utf-8", "replace")
    version = reply.headers.get("x-thirty-version", "")
    new_state = parse_form_state(text)
    live = parse_live(text)
    if not new_state and live is not None:
        new_state = {"v": live.v, "n": live.n, "t": live.t}
    old = host.state.get("v", "")
    if not version.isdigit() or (old.isdigit() and int(version) <= int(old)):
        return False, -1, "not recorded (no newer X-Thirty-Version)"
    if new_state:
        host.state.update(new_state)
    else:
        host.state["v"] = version
    return True, int(version), ""


@dataclass
class GameSpec:
    game_id: str
    host_key: str
    followers: int
    first_turn: float  # seconds after the start
    turn_every: float
    last_turn_before: float  # no turn is submitted after this many seconds
    measure_before: float  # only turns submitted before this count for the change delay
    max_turns: int = 10_000
    jitter: float = 0.1  # each gap between turns is turn_every * (1 ± jitter)


@dataclass
class GameResult:
    game_id: str
    submits: list[tuple[float, int]] = field(default_factory=list)  # (start, new version)
    measure_before: float = 0.0
    submit_seconds: list[float] = field(default_factory=list)
    submit_errors: list[str] = field(default_factory=list)
    seen: list[list[tuple[float, int]]] = field(default_factory=list)  # per follower


@dataclass
class Counters:
    polls_in_window: int = 0
    polls: int = 0
    poll_errors: int = 0
    poll_seconds: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    changed_bytes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    connections: int = 0  # connections the followers opened


async def _poll(
    connection: Connection,
    state: LiveState,
    window: tuple[float, float],
    seen: list[tuple[float, int]],
    counters: Counters,
) -> bool:
    """One poll; True when it brought a newer version (and the state moved on)."""
    sent = time.monotonic()
    try:
        reply = await connection.request("GET", state.url())
    except (OSError, TimeoutError, ConnectionError) as error:
        counters.poll_errors += 1
        if len(counters.errors) < 5:
            counters.errors.append(f"poll: {type(error).__name__}: {error}")
        return False
    received = time.monotonic()
    counters.polls += 1
    if window[0] <= sent < window[1]:
        counters.polls_in_window += 1
    counters.poll_seconds.append(received - sent)
    counters.statuses[reply.status] = counters.statuses.get(reply.status, 0) + 1
    if reply.status == 204:
        return False
    if reply.status != 200:
        if len(counters.errors) < 5:
            counters.errors.append(f"poll: HTTP {reply.status} for {state.url()}")
        return False
    counters.changed_bytes.append(len(reply.body))
    new = parse_live(reply.body.decode("utf-8", "replace"))
    if new is None:
        if len(counters.errors) < 5:
            counters.errors.append("poll: a 200 answer without <div id=live hx-get=...>")
        return False
    header = reply.headers.get("x-thirty-version", "")
    version = int(header) if header.isdigit() else new.version
    if version <= state.version:
        return False  # an answer that crossed a newer one: the page ignores it
    state.v, state.n, state.t, state.k = new.v, new.n, new.t, new.k
    seen.append((received, version))
    return True


async def _follower(
    port: int,
    state: LiveState,
    start: float,
    stop: float,
    window: tuple[float, float],
    seen: list[tuple[float, int]],
    counters: Counters,
) -> None:
    connection = Connection(port)
    try:
        await _follow(connection, state, start, stop, window, seen, counters)
    finally:
        connection.close()  # the phone leaves the page
        counters.connections += connection.opened


async def _follow(
    connection: Connection,
    state: LiveState,
    start: float,
    stop: float,
    window: tuple[float, float],
    seen: list[tuple[float, int]],
    counters: Counters,
) -> None:
    beat = start  # when the timer fires next
    queued = False  # a tick fell while a request was out
    while True:
        if not queued:
            delay = beat - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            beat += POLL_SECONDS  # the timer re-arms as it fires
        queued = False
        if time.monotonic() >= stop:
            return
        changed = await _poll(connection, state, window, seen, counters)
        now = time.monotonic()
        if changed:
            beat = now + POLL_SECONDS  # a new #live element, a new timer
        elif beat <= now:
            while beat <= now:
                beat += POLL_SECONDS
            queued = True


async def _host(
    port: int, host: HostSession, spec: GameSpec, start: float, result: GameResult
) -> None:
    host.connection = Connection(port)
    try:
        await _host_turns(port, host, spec, start, result)
    finally:
        host.connection.close()


async def _host_turns(
    port: int, host: HostSession, spec: GameSpec, start: float, result: GameResult
) -> None:
    rng = random.Random(spec.game_id)
    at = start + spec.first_turn
    for count in range(spec.max_turns):
        if at > start + spec.last_turn_before:
            return
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        sent = time.monotonic()
        try:
            ok, version, error = await submit_turn(port, host, FORM_TURNS[count % len(FORM_TURNS)])
        except (OSError, TimeoutError, ConnectionError) as failure:
            ok, version, error = False, -1, f"{type(failure).__name__}: {failure}"
        if ok:
            result.submits.append((sent, version))
            result.submit_seconds.append(time.monotonic() - sent)
        else:
            result.submit_errors.append(error)
            await _refresh_host(port, host)
        at += spec.turn_every * rng.uniform(1 - spec.jitter, 1 + spec.jitter)


async def _refresh_host(port: int, host: HostSession) -> None:
    """After a refused turn the host reloads the page, as a person would."""
    try:
        reply = await fetch(port, "GET", f"/g/{host.game_id}/")
    except (OSError, TimeoutError, ConnectionError):
        return
    live = parse_live(reply.body.decode("utf-8", "replace"))
    if live is not None:
        host.state = {"v": live.v, "n": live.n, "t": live.t}


async def _page_state(port: int, game_id: str) -> LiveState:
    reply = await fetch(port, "GET", f"/g/{game_id}/")
    if reply.status != 200:
        raise RuntimeError(f"GET /g/{game_id}/ answered {reply.status}")
    live = parse_live(reply.body.decode("utf-8", "replace"))
    if live is None:
        raise RuntimeError(f"GET /g/{game_id}/ has no <div id=live hx-get=...>")
    return live


async def simulate(
    port: int,
    games: list[GameSpec],
    csrf: tuple[str, str],
    start: float,
    duration: float,
    window: tuple[float, float],
    seed: int,
) -> dict[str, Any]:
    """Run followers and hosts for `duration` seconds from the monotonic time `start`."""
    rng = random.Random(seed)
    states = await asyncio.gather(*(_page_state(port, spec.game_id) for spec in games))
    counters = Counters()
    results: list[GameResult] = []
    tasks = []
    stop = start + duration
    absolute_window = (start + window[0], start + window[1])
    for spec, state in zip(games, states, strict=True):
        result = GameResult(spec.game_id, measure_before=start + spec.measure_before)
        results.append(result)
        host = HostSession(spec.game_id, spec.host_key, csrf[0], csrf[1])
        host.state = {"v": state.v, "n": state.n, "t": state.t}
        tasks.append(_host(port, host, spec, start, result))
        for _ in range(spec.followers):
            seen: list[tuple[float, int]] = []
            result.seen.append(seen)
            own = LiveState(state.path, state.v, state.n, state.t, state.k)
            phase = start + rng.random() * POLL_SECONDS
            tasks.append(_follower(port, own, phase, stop, absolute_window, seen, counters))
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    wait_before = _run_queue_wait()
    await asyncio.gather(*tasks)
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    client_wait = _run_queue_wait() - wait_before
    client_cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (
        cpu_after.ru_stime - cpu_before.ru_stime
    )
    latencies: list[float] = []
    missed = 0
    submit_seconds: list[float] = []
    submit_errors: list[str] = []
    submits = 0
    measured = 0
    for result in results:
        submit_seconds += result.submit_seconds
        submit_errors += result.submit_errors
        submits += len(result.submits)
        for sent, version in result.submits:
            if sent > result.measure_before:
                continue  # load only: too close to the end to be sure to be seen
            measured += 1
            for seen in result.seen:
                first = next((at for at, v in seen if v >= version), None)
                if first is None:
                    missed += 1
                else:
                    latencies.append(first - sent)
    return {
        "latencies": latencies,
        "missed": missed,
        "submits": submits,
        "measured_submits": measured,
        "submit_seconds": submit_seconds,
        "submit_errors": submit_errors[:5],
        "submit_error_count": len(submit_errors),
        "polls": counters.polls,
        "polls_in_window": counters.polls_in_window,
        "poll_errors": counters.poll_errors,
        "poll_seconds": counters.poll_seconds,
        "statuses": {str(k): v for k, v in counters.statuses.items()},
        "changed_bytes": counters.changed_bytes[:200],
        "errors": counters.errors,
        "client_cpu": client_cpu,
        "client_wait": client_wait,
        "connections": counters.connections,
    }


def _run_queue_wait() -> float:
    """Seconds this process's event loop was ready to run but waited for a CPU."""
    try:
        with open("/proc/self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _run_chunk(arguments: tuple[Any, ...]) -> dict[str, Any]:
    port, games, csrf, start, duration, window, seed = arguments
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass
    return asyncio.run(simulate(port, games, csrf, start, duration, window, seed))


def simulate_in_processes(
    port: int,
    games: list[GameSpec],
    csrf: tuple[str, str],
    duration: float,
    window: tuple[float, float],
    processes: int,
) -> dict[str, Any]:
    """Spread the games over `processes` client processes, all starting at the same moment,
    once every process has loaded its games' pages."""
    processes = max(1, min(processes, len(games)))
    lead = 0.6 + 0.03 * len(games)
    chunks: list[list[GameSpec]] = [games[i::processes] for i in range(processes)]
    start = time.monotonic() + lead
    arguments = [
        (port, chunk, csrf, start, duration, window, index * 7919 + os.getpid())
        for index, chunk in enumerate(chunks)
    ]
    if processes == 1:
        parts = [_run_chunk(arguments[0])]
    else:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(_run_chunk, arguments)
    merged: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if key == "statuses":
                bucket = merged.setdefault(key, {})
                for status, n in value.items():
                    bucket[status] = bucket.get(status, 0) + n
            elif isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            else:
                merged[key] = merged.get(key, 0) + value
    merged["processes"] = processes
    return merged
