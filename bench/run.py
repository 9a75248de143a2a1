"""The benchmark driver behind `make bench`.

    run.py measure --port PORT --db NAME --out FILE.json [--server-pid PID]
        Against a running production server: build the games it needs through the JSON API,
        measure, print a Markdown table and write the raw figures as JSON.
    run.py report FILE.json... [--doc docs/benchmarks.md]
        One table for all databases; with --doc, write it between the results markers.

What is measured (targets in brackets):
 1. requests/s of the bare view /healthz vs an unchanged live refresh (204) on a 250-turn
    game [ratio >= 0.80];
 2. requests/s of the whole sheet page of a 250-turn, 8-player game vs bare [>= 0.25];
    and, for the record, of the history page and a player's page against the bare view;
 3. a change costs the same whatever the game's length: htmx form submits at turn ~10 vs
    ~500 [median ratio <= 1.2], and the bytes of one new-turn live refresh at 10 vs 500
    [equal or nearly];
 4. delay from a submitted turn to the change showing on 50 followers [p95 <= 1 s];
 5. how many following phones one server carries with p95 change delay <= 2 s: simulated
    followers (measured) and an estimate from the requests/s of 1 and 3 (derived); and the
    requests/s of phones one mobile round trip away, with and without kept connections.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import browser
import follow

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STATUS_LUA = HERE / "status.lua"
PLAYERS = [f"Player {i}" for i in range(1, 9)]
RULES = {"start_points": 99}
# Turns that change no points (a total of 30 or less, or a hunt that found nothing), so a
# game never ends however long the benchmark makes it.
API_TURNS: tuple[dict[str, int], ...] = (
    {"total": 20},
    {"total": 33, "hunt": 0},
    {"total": 25},
    {"total": 35, "hunt": 0},
    {"total": 12},
    {"total": 31, "hunt": 0},
)


def env_number(name: str, default: float) -> float:
    raw = os.getenv(name, "")
    try:
        return float(raw) if raw else default
    except ValueError:
        return default


# Sizes and durations; the defaults keep both databases' runs under about four minutes.
SHEET_TURNS = 250
LONG_TURNS = 499  # the submits of section 3 then record turns 500 to 550
SHORT_TURNS = 9  # ... and turns 10 to 19 over five short games
SHORT_GAMES = 5
SUBMITS = int(env_number("BENCH_SUBMITS", 50))
API_SUBMITS = 40
WRK_SECONDS = env_number("BENCH_WRK_SECONDS", 1)
WRK_ROUNDS = int(env_number("BENCH_WRK_ROUNDS", 6))
WRK_CONNECTIONS = 32
FOLLOWERS = 50
FOLLOW_TURNS = int(env_number("BENCH_FOLLOW_TURNS", 20))
FOLLOW_SPACING = 1.3
LEVELS = [int(x) for x in os.getenv("BENCH_LEVELS", "250,500,1000,1500,2000").split(",") if x]
PHONES_PER_GAME = 25
TURN_EVERY = 4.0  # seconds between turns in each game of the capacity run
LEVEL_SECONDS = env_number("BENCH_LEVEL_SECONDS", 6)
CLIENT_PROCESSES = 2
LATE_CLIENTS = 64
LATE_CLOSE = 0.05  # seconds: a mobile network's round trip
LATE_SECONDS = 3.0
PUSH_TURNS = int(env_number("BENCH_PUSH_TURNS", 25))
PUSH_PHONES = 3  # browser pages following the game
STREAMS = int(env_number("BENCH_STREAMS", 1000))
STREAM_PROCESSES = 2
IDLE_SECONDS = env_number("BENCH_IDLE_SECONDS", 22)  # longer than one heartbeat period


# -- small helpers ----------------------------------------------------------------------------


def pct(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def ms(seconds: float) -> str:
    if math.isnan(seconds):
        return "n/a"
    if math.isinf(seconds):
        return "never"
    return f"{seconds * 1000:.{2 if seconds < 0.01 else 1}f} ms"


def num(value: float | None, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:,.{digits}f}"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """Plain blocking HTTP to the server under test, one connection per request."""

    def __init__(self, port: int) -> None:
        self.port = port

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        started = time.perf_counter()
        connection = HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            found = {name.lower(): value for name, value in response.getheaders()}
            cookies = response.headers.get_all("Set-Cookie") or []
            if cookies:
                found["set-cookie"] = "\n".join(cookies)
            return Reply(response.status, found, data, time.perf_counter() - started)
        finally:
            connection.close()

    def api(self, method: str, path: str, payload: Any, key: str | None = None) -> Reply:
        headers = {"Content-Type": "application/json"}
        if key:
            headers["X-Host-Key"] = key
        return self.call(method, path, json.dumps(payload).encode(), headers)


@dataclass
class Built:
    id: str
    key: str
    version: int
    turns: int
    seconds: float


def build_game(client: Client, name: str, turns: int, players: list[str] = PLAYERS) -> Built:
    """A game of `turns` turns, made through the JSON API as any client would."""
    started = time.perf_counter()
    reply = client.api("POST", "/api/games", {"name": name, "players": players, "rules": RULES})
    if reply.status != 201:
        raise RuntimeError(f"POST /api/games answered {reply.status}: {reply.body[:200]!r}")
    state = reply.json()
    game = Built(state["id"], state["host_key"], state["version"], 0, 0.0)
    add_turns(client, game, turns)
    game.seconds = time.perf_counter() - started
    return game


_VERSION = re.compile(rb'"version":\s*(\d+)')


def add_turns(client: Client, game: Built, count: int) -> None:
    for _ in range(count):
        turn = API_TURNS[game.turns % len(API_TURNS)]
        reply = client.api("POST", f"/api/games/{game.id}/turns", turn, game.key)
        if reply.status != 201:
            raise RuntimeError(
                f"POST /api/games/{game.id}/turns answered {reply.status}: {reply.body[:200]!r}"
            )
        # The answer holds the whole game; only its version is needed.
        found = _VERSION.search(reply.body)
        game.version = int(found.group(1)) if found else reply.json()["version"]
        game.turns += 1


_ROW = re.compile(rb"<tr\b[^>]*\bid=\"turn-\d+\"")


def count_rows(body: bytes) -> int:
    """Sheet rows (turns) in a page or an update: `<tr id="turn-N">`."""
    return len(_ROW.findall(body))


def page_state(client: Client, game_id: str) -> tuple[follow.LiveState, Reply]:
    reply = client.call("GET", f"/g/{game_id}/")
    if reply.status != 200:
        raise RuntimeError(f"GET /g/{game_id}/ answered {reply.status}")
    live = follow.parse_live(reply.body.decode("utf-8", "replace"))
    if live is None:
        raise RuntimeError(f'GET /g/{game_id}/ has no <div id="live" hx-get=...>')
    return live, reply


def csrf_pair(client: Client, game_id: str) -> tuple[str, str]:
    """The CSRF cookie and the token the page puts in <body hx-headers>."""
    _, reply = page_state(client, game_id)
    text = reply.body.decode("utf-8", "replace")
    token = re.search(r"\"X-CSRFToken\"\s*:\s*\"([^\"]+)\"", text)
    cookie = re.search(r"csrftoken=([^;\s]+)", reply.headers.get("set-cookie", ""))
    if token is None or cookie is None:
        raise RuntimeError("the game page set no CSRF cookie or hx-headers token")
    return cookie.group(1), token.group(1)


# -- machine and server ---------------------------------------------------------------------


def machine(db: str) -> dict[str, Any]:
    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    try:
        import django

        django_version = django.get_version()
    except ImportError:
        django_version = "not importable"
    wrk = shutil.which("wrk")
    wrk_version = "missing"
    if wrk:
        found = subprocess.run([wrk, "-v"], capture_output=True, text=True, timeout=10)
        lines = (found.stdout + found.stderr).splitlines()
        wrk_version = lines[0].split(" Copyright")[0].strip() if lines else "?"
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "cpu": model,
        "python": platform.python_version(),
        "django": django_version,
        "database": db + database_version(),
        "wrk": wrk_version,
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "kernel": platform.release(),
    }


def database_version() -> str:
    url = os.getenv("DATABASE_URL", "")
    if url.startswith("postgres"):
        try:
            import psycopg

            with psycopg.connect(url, connect_timeout=5) as connection:
                row = connection.execute("SHOW server_version").fetchone()
                return f" {row[0]}" if row else ""
        except Exception:  # a missing version is no reason to stop the benchmark
            return ""
    import sqlite3

    return f" {sqlite3.sqlite_version}"


def server_command(pid: int | None) -> str:
    """The command line the server runs (after the entry point replaced itself with it)."""
    if not pid:
        return "?"
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
    except OSError:
        return "?"
    text = " ".join(word.decode("utf-8", "replace") for word in words)
    return text.replace(sys.executable, "python").replace(str(ROOT) + "/", "")


class CpuMeter:
    """CPU seconds used by the server's processes and by the whole machine."""

    def __init__(self, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.tick = os.sysconf("SC_CLK_TCK")

    def _proc(self, pid: int, children: bool) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        used = int(fields[11]) + int(fields[12])  # utime, stime
        if children:
            used += int(fields[13]) + int(fields[14])  # reaped workers
        return used / self.tick

    def _workers(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.server_pid:
                found.append(int(entry.name))
        return found

    def server(self) -> float:
        """CPU seconds of the server's master and workers, living and reaped."""
        if not self.server_pid:
            return math.nan
        total = self._proc(self.server_pid, children=True)
        return total + sum(self._proc(pid, children=False) for pid in self._workers())

    def waits(self) -> dict[int, float]:
        """Seconds each worker thread spent runnable but waiting for a CPU (schedstat):
        how much other load on the machine held the server back."""
        found = {}
        for pid in self._workers() if self.server_pid else []:
            # Every thread of the worker: a threaded server works outside its main thread.
            for task in Path(f"/proc/{pid}/task").glob("*"):
                try:
                    waited = int((task / "schedstat").read_text().split()[1]) / 1e9
                except (OSError, IndexError, ValueError):
                    continue
                found[pid * 100_000_000 + int(task.name)] = waited
        return found

    @staticmethod
    def waited(before: dict[int, float], after: dict[int, float]) -> float:
        return sum(value - before.get(pid, 0.0) for pid, value in after.items())

    @staticmethod
    def machine() -> tuple[float, float]:
        """(busy, total) clock ticks of all CPUs since boot."""
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]
        return sum(fields) - idle, sum(fields)


# -- wrk ------------------------------------------------------------------------------------


def wrk(port: int, path: str, seconds: float) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}{path}"
    command = [
        "wrk",
        "-t2",
        f"-c{WRK_CONNECTIONS}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        "--latency",
        "-s",
        str(STATUS_LUA),
        url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    out = done.stdout
    found: dict[str, Any] = {"command": " ".join([*command[:-1], path]), "exit": done.returncode}
    rps = re.search(r"Requests/sec:\s*([\d.]+)", out)
    found["rps"] = float(rps.group(1)) if rps else math.nan
    total = re.search(r"(\d+) requests in", out)
    found["requests"] = int(total.group(1)) if total else 0
    for label, key in (("50%", "p50"), ("99%", "p99")):
        hit = re.search(rf"^\s*{re.escape(label)}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if hit:
            scale = {"us": 1e-6, "ms": 1e-3, "s": 1.0}[hit.group(2)]
            found[key] = float(hit.group(1)) * scale
    errors = re.search(r"Socket errors: (.*)", out)
    found["socket_errors"] = errors.group(1).strip() if errors else ""
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    found["non_2xx"] = int(non2xx.group(1)) if non2xx else 0
    statuses = re.search(r"^STATUS (.*)$", out, re.M)
    found["statuses"] = dict(
        part.split("=", 1) for part in (statuses.group(1).split() if statuses else [])
    )
    if done.returncode != 0:
        found["stderr"] = done.stderr.strip()[-300:]
    return found


# -- the measurement ------------------------------------------------------------------------


class Bench:
    def __init__(self, port: int, db: str, server_pid: int | None) -> None:
        self.port = port
        self.db = db
        self.client = Client(port)
        self.cpu = CpuMeter(server_pid)
        self.result: dict[str, Any] = {"db": db, "problems": [], "timings": {}}

    def problem(self, text: str) -> None:
        print(f"  PROBLEM: {text}", flush=True)
        self.result["problems"].append(text)

    def section(self, name: str, action: Callable[[], None]) -> None:
        started = time.perf_counter()
        print(f"-- {name}", flush=True)
        try:
            action()
        except Exception as error:  # report and go on with the other sections
            self.problem(f"{name} failed: {type(error).__name__}: {error}")
        self.result["timings"][name] = round(time.perf_counter() - started, 1)

    # setup

    def setup(self) -> None:
        levels_games = math.ceil(max(LEVELS or [0]) / PHONES_PER_GAME)
        with ThreadPoolExecutor(3) as pool:
            long = pool.submit(build_game, self.client, "bench long", LONG_TURNS)
            sheet = pool.submit(self._build_sheet_game)
            small = pool.submit(self._build_small_games, levels_games)
            self.long = long.result()
            self.sheet = sheet.result()
            self.shorts, self.follow_game, self.level_games = small.result()
        self.result["setup"] = {
            "long_game_seconds": round(self.long.seconds, 1),
            "sheet_game_seconds": round(self.sheet.seconds, 1),
            "games": 2 + len(self.shorts) + 1 + len(self.level_games),
        }
        self.csrf = csrf_pair(self.client, self.shorts[0].id)
        print(
            f"  built {self.result['setup']['games']} games; the {LONG_TURNS}-turn game took "
            f"{self.long.seconds:.1f} s through the API",
            flush=True,
        )

    def _build_sheet_game(self) -> Built:
        game = build_game(self.client, "bench sheet", SHEET_TURNS - 1)
        # The state at 249 turns gives an idempotent "one new row" refresh once turn 250 is in.
        self.before_last, _ = page_state(self.client, game.id)
        add_turns(self.client, game, 1)
        return game

    def _build_small_games(self, level_games: int) -> tuple[list[Built], Built, list[Built]]:
        shorts = [build_game(self.client, f"bench short {i}", SHORT_TURNS) for i in range(5)]
        followed = build_game(self.client, "bench follow", 10)
        self.push_game = build_game(self.client, "bench push", 10)
        levels = [build_game(self.client, f"bench phones {i}", 3) for i in range(level_games)]
        return shorts, followed, levels

    # 1 and 2

    def throughput(self) -> None:
        game = self.sheet
        now, page = page_state(self.client, game.id)
        if now.n != str(SHEET_TURNS):
            self.problem(f"the sheet game's page says n={now.n}, expected {SHEET_TURNS}")
        self.result["sheet_bytes"] = len(page.body)
        unchanged = now.url()
        check = self.client.call("GET", unchanged)
        if check.status != 204 or check.body:
            self.problem(
                f"unchanged live refresh answered {check.status} with {len(check.body)} bytes, "
                "expected 204 and no body"
            )
        changed = self.before_last.url()
        check = self.client.call("GET", changed)
        if check.status != 200 or count_rows(check.body) != 1:
            self.problem(
                f"one-row live refresh answered {check.status} with "
                f"{count_rows(check.body)} rows, expected 200 with 1 row"
            )
        self.result["changed_bytes_250"] = len(check.body)
        paths = {
            "bare": "/healthz",
            "unchanged": unchanged,
            "sheet": f"/g/{game.id}/",
            "changed": changed,
            "api": f"/api/games/{game.id}",
            "history": "/history/",
            "player": "/players/Player%201/",
        }
        self.result["paths"] = paths
        # Warm up (the steady state: many watchers load the same page), then alternate the
        # endpoints in short rounds so that a noisy neighbour hits them all alike.
        for name in ("sheet", "unchanged", "api"):
            wrk(self.port, paths[name], 1)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in paths}
        for round_number in range(WRK_ROUNDS):
            for name, path in paths.items():
                run = self.measured_wrk(path, WRK_SECONDS)
                runs[name].append(run)
                expected = {"unchanged": "204"}.get(name, "200")
                wrong = {k: v for k, v in run["statuses"].items() if k != expected}
                if wrong or run["exit"] != 0:
                    self.problem(
                        f"wrk {name} round {round_number + 1}: statuses {run['statuses']}, "
                        f"socket errors {run['socket_errors'] or 'none'}, exit {run['exit']}"
                    )
                print(
                    f"  round {round_number + 1} {name:9} {run['rps']:9.1f} req/s  "
                    f"p50 {ms(run.get('p50', math.nan))}  p99 {ms(run.get('p99', math.nan))}  "
                    f"CPU: server {run['server_cores']:.2f}, wrk {run['wrk_cores']:.2f}, "
                    f"others {run['other_cores']:.2f} cores; waited {run['server_wait']:.2f} s/s",
                    flush=True,
                )
        self.result["wrk"] = runs
        rps = {name: [run["rps"] for run in runs[name]] for name in runs}
        self.result["rps"] = {name: median(values) for name, values in rps.items()}
        # Server CPU per request: less sensitive than req/s to other load on a shared machine.
        cpu = {
            name: median([run["server_cores"] / run["rps"] for run in runs[name] if run["rps"]])
            for name in runs
        }
        self.result["cpu_per_request"] = cpu
        for name in ("unchanged", "sheet", "changed", "api", "history", "player"):
            ratios = [a / b for a, b in zip(rps[name], rps["bare"], strict=True) if b]
            self.result[f"ratio_{name}"] = median(ratios)
            self.result[f"ratios_{name}"] = ratios
            self.result[f"cpu_ratio_{name}"] = cpu["bare"] / cpu[name] if cpu[name] else math.nan

    def measured_wrk(self, path: str, seconds: float) -> dict[str, Any]:
        """A wrk run, with the CPU the server, wrk and everything else used meanwhile."""
        server, (busy, total) = self.cpu.server(), self.cpu.machine()
        waits = self.cpu.waits()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        run = wrk(self.port, path, seconds)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        busy_after, total_after = self.cpu.machine()
        cpus = self.result["machine"]["nproc"]
        run["server_wait"] = self.cpu.waited(waits, self.cpu.waits()) / wall
        run["server_cores"] = (self.cpu.server() - server) / wall
        run["wrk_cores"] = (
            after.ru_utime - children.ru_utime + after.ru_stime - children.ru_stime
        ) / wall
        machine_cores = cpus * (busy_after - busy) / max(1, total_after - total)
        run["other_cores"] = max(0.0, machine_cores - run["server_cores"] - run["wrk_cores"])
        return run

    # 3

    def change_cost(self) -> None:
        hosts = {}
        for game in [*self.shorts, self.long]:
            live, _ = page_state(self.client, game.id)
            host = follow.HostSession(game.id, game.key, *self.csrf)
            host.state = {"v": live.v, "n": live.n, "t": live.t}
            hosts[game.id] = host
        result = asyncio.run(self._change_cost(hosts))
        self.result["change"] = result

    async def _change_cost(self, hosts: dict[str, follow.HostSession]) -> dict[str, Any]:
        # Each host's page keeps its connection, as a browser does (while the server lets it).
        for host in hosts.values():
            host.connection = follow.Connection(self.port)
        try:
            return await self._change_cost_on(hosts)
        finally:
            for host in hosts.values():
                if host.connection is not None:
                    host.connection.close()

    async def _change_cost_on(self, hosts: dict[str, follow.HostSession]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        # One new-turn live refresh at turn 10 and at turn 500: the same turn in both.
        for label, game in (("10", self.shorts[0]), ("500", self.long)):
            host = hosts[game.id]
            before = follow.LiveState(f"/g/{game.id}/live", **host.state)
            ok, _, error = await follow.submit_turn(self.port, host, {"total": "20"})
            if not ok:
                raise RuntimeError(f"form submit on the {label}-turn game: {error}")
            seconds = []
            size = 0
            follower = follow.Connection(self.port)
            for _ in range(20):
                started = time.perf_counter()
                try:
                    reply = await follower.request("GET", before.url())
                except BaseException:
                    follower.close()
                    raise
                seconds.append(time.perf_counter() - started)
                size = len(reply.body)
                if reply.status != 200 or count_rows(reply.body) != 1:
                    raise RuntimeError(
                        f"new-turn refresh at turn {label}: {reply.status}, "
                        f"{count_rows(reply.body)} rows (expected 200 with the new row only)"
                    )
            follower.close()
            out[f"refresh_bytes_{label}"] = size
            out[f"refresh_median_{label}"] = median(seconds)
        # Sequential submits, turn ~10 and turn ~500 taking turns.
        times: dict[str, list[float]] = {"10": [], "500": []}
        errors: list[str] = []
        for index in range(SUBMITS):
            short = self.shorts[index % len(self.shorts)]
            for label, game in (("10", short), ("500", self.long)):
                host = hosts[game.id]
                turn = follow.FORM_TURNS[index % len(follow.FORM_TURNS)]
                started = time.perf_counter()
                ok, _, error = await follow.submit_turn(self.port, host, turn)
                times[label].append(time.perf_counter() - started)
                if not ok:
                    errors.append(f"turn ~{label}: {error}")
        for label in times:
            out[f"submit_median_{label}"] = median(times[label])
            out[f"submit_p95_{label}"] = pct(times[label], 95)
            out[f"submits_{label}"] = len(times[label])
        out["submit_errors"] = len(errors)
        # The JSON API's turn as its clients post it: a new connection per request, so the
        # requests land on every worker process in turn. It answers with the whole state.
        api: dict[str, list[float]] = {"10": [], "500": []}
        for index in range(API_SUBMITS):
            short = self.shorts[index % len(self.shorts)]
            for label, game in (("10", short), ("500", self.long)):
                payload = API_TURNS[index % len(API_TURNS)]
                answer = self.client.api("POST", f"/api/games/{game.id}/turns", payload, game.key)
                api[label].append(answer.seconds)
                if answer.status != 201:
                    errors.append(f"API turn ~{label}: HTTP {answer.status}")
        for label in api:
            out[f"api_median_{label}"] = median(api[label])
        out["ratio_api"] = out["api_median_500"] / out["api_median_10"]
        if errors:
            self.problem(f"{len(errors)} submits not recorded, first: {errors[0]}")
        out["ratio_median"] = out["submit_median_500"] / out["submit_median_10"]
        out["ratio_p95"] = out["submit_p95_500"] / out["submit_p95_10"]
        out["ratio_bytes"] = out["refresh_bytes_500"] / out["refresh_bytes_10"]
        out["ratio_refresh"] = out["refresh_median_500"] / out["refresh_median_10"]
        for label in ("10", "500"):
            print(
                f"  turn ~{label:3}: submit median {ms(out[f'submit_median_{label}'])}, "
                f"p95 {ms(out[f'submit_p95_{label}'])}; new-turn refresh "
                f"{out[f'refresh_bytes_{label}']} bytes, {ms(out[f'refresh_median_{label}'])}",
                flush=True,
            )
        return out

    # 4

    def follow_latency(self) -> None:
        first = 1.5
        spec = follow.GameSpec(
            self.follow_game.id,
            self.follow_game.key,
            followers=FOLLOWERS,
            first_turn=first,
            turn_every=FOLLOW_SPACING,
            last_turn_before=first + (FOLLOW_TURNS - 1) * FOLLOW_SPACING + 0.1,
            measure_before=1e9,
            max_turns=FOLLOW_TURNS,
            jitter=0.0,
        )
        duration = spec.last_turn_before + 2.0
        run = follow.simulate_in_processes(
            self.port, [spec], self.csrf, duration, (0.0, duration), processes=1
        )
        summary = self._summarise(run)
        self.result["follow"] = summary
        if run["submit_error_count"]:
            self.problem(f"{run['submit_error_count']} turns refused: {run['submit_errors'][:2]}")
        if run["errors"]:
            self.problem(f"followers: {run['errors'][:2]}")
        print(
            f"  {summary['submits']} turns x {FOLLOWERS} followers: change seen after p50 "
            f"{ms(summary['p50'])}, p95 {ms(summary['p95'])}, max {ms(summary['max'])}; "
            f"missed {summary['missed']}",
            flush=True,
        )

    @staticmethod
    def _summarise(run: dict[str, Any]) -> dict[str, Any]:
        latencies = list(run["latencies"]) + [math.inf] * run["missed"]
        return {
            "submits": run["submits"],
            "measured_submits": run["measured_submits"],
            "samples": len(run["latencies"]),
            "missed": run["missed"],
            "p50": pct(latencies, 50),
            "p95": pct(latencies, 95),
            "max": max(latencies) if latencies else math.nan,
            "submit_median": median(run["submit_seconds"]),
            "polls": run["polls"],
            "poll_errors": run["poll_errors"],
            "poll_p50": pct(run["poll_seconds"], 50),
            "poll_p95": pct(run["poll_seconds"], 95),
            "statuses": run["statuses"],
            "client_cpu": run["client_cpu"],
            "errors": run["errors"],
            "connections": run["connections"],
        }

    # 5

    def capacity(self) -> None:
        levels = []
        for phones in LEVELS:
            games = self.level_games[: math.ceil(phones / PHONES_PER_GAME)]
            specs = []
            for index, game in enumerate(games):
                followers = min(PHONES_PER_GAME, phones - index * PHONES_PER_GAME)
                specs.append(
                    follow.GameSpec(
                        game.id,
                        game.key,
                        followers=followers,
                        first_turn=1.0 + TURN_EVERY * index / len(games),
                        turn_every=TURN_EVERY,
                        last_turn_before=LEVEL_SECONDS - 0.5,
                        measure_before=LEVEL_SECONDS - 2.0,
                    )
                )
            window = (1.0, LEVEL_SECONDS)
            server_before, (busy_before, total_before) = self.cpu.server(), self.cpu.machine()
            waits = self.cpu.waits()
            started = time.perf_counter()
            run = follow.simulate_in_processes(
                self.port, specs, self.csrf, LEVEL_SECONDS, window, CLIENT_PROCESSES
            )
            wall = time.perf_counter() - started
            server_after, (busy_after, total_after) = self.cpu.server(), self.cpu.machine()
            server_wait = self.cpu.waited(waits, self.cpu.waits()) / wall
            summary = self._summarise(run)
            seconds = window[1] - window[0]
            summary |= {
                "phones": phones,
                "games": len(games),
                "target_rate": phones / 1.0,
                "achieved_rate": run["polls_in_window"] / seconds,
                "server_cpu_share": (server_after - server_before) / wall,
                "server_wait": server_wait,
                "client_cpu_share": run["client_cpu"] / wall,
                "client_wait": run["client_wait"] / wall,
                "machine_busy": (busy_after - busy_before) / max(1, total_after - total_before),
                "cpus": self.result["machine"]["nproc"],
                "processes": run["processes"],
                "submit_errors": run["submit_error_count"],
            }
            summary["other_cores"] = max(
                0.0,
                summary["machine_busy"] * summary["cpus"]
                - summary["server_cpu_share"]
                - summary["client_cpu_share"],
            )
            summary["ok"] = (
                summary["p95"] <= 2.0
                and summary["achieved_rate"] >= 0.9 * phones
                and not run["poll_errors"]
            )
            levels.append(summary)
            if run["errors"]:
                self.problem(f"{phones} phones: {run['errors'][:2]}")
            print(
                f"  {phones:5} phones: {summary['achieved_rate']:7.0f} polls/s of {phones}, "
                f"change p50 {ms(summary['p50'])} p95 {ms(summary['p95'])}, missed "
                f"{summary['missed']}, poll p95 {ms(summary['poll_p95'])}, server CPU "
                f"{summary['server_cpu_share']:.2f} cores, client CPU "
                f"{summary['client_cpu_share']:.2f} cores, others "
                f"{summary['other_cores']:.2f} cores; waited for a CPU: workers "
                f"{summary['server_wait']:.2f} s/s, phones {summary['client_wait']:.2f} s/s",
                flush=True,
            )
            if not summary["ok"]:
                break  # a bigger crowd only does worse
        self.result["levels"] = levels
        # The same unchanged refresh from phones one network round trip away: once with a
        # connection per request that the phone closes a round trip after the answer (a
        # server that waits for that close is held meanwhile), once with connections kept
        # as browsers keep them.
        unchanged_path = self.result.get("paths", {}).get("unchanged")
        if unchanged_path:
            for key, keep_alive, what in (
                ("late_close", False, f"closing {LATE_CLOSE * 1000:.0f} ms after each answer"),
                ("far_keepalive", True, "keeping their connections"),
            ):
                far = follow.late_closers(
                    self.port, unchanged_path, LATE_CLIENTS, LATE_CLOSE, LATE_SECONDS, keep_alive
                )
                self.result[key] = {
                    "rate": far["rate"],
                    "p50": pct(far["seconds"], 50),
                    "clients": LATE_CLIENTS,
                    "delay": LATE_CLOSE,
                    "connections": far["connections"] if keep_alive else len(far["seconds"]),
                }
                print(
                    f"  {LATE_CLIENTS} phones {LATE_CLOSE * 1000:.0f} ms away, {what}: "
                    f"{far['rate']:.0f} unchanged refreshes/s (answer p50 "
                    f"{ms(pct(far['seconds'], 50))}, {self.result[key]['connections']} "
                    "connections)",
                    flush=True,
                )
        passing = [level["phones"] for level in levels if level["ok"]]
        self.result["capacity_measured"] = max(passing) if passing else 0
        self.result["capacity_ceiling"] = bool(levels) and levels[-1]["ok"]
        rps = self.result.get("rps", {})
        change = self.result.get("change", {})
        unchanged, changed = rps.get("unchanged", math.nan), rps.get("changed", math.nan)
        submit = change.get("submit_median_10", math.nan)
        # Each phone per second: one poll, of which 1/TURN_EVERY brings a change, and
        # 1/(PHONES_PER_GAME * TURN_EVERY) of a host's turn (2 workers serve turns in parallel).
        share_changed = 1 / TURN_EVERY
        submits = 1 / (PHONES_PER_GAME * TURN_EVERY)
        load = (1 - share_changed) / unchanged + share_changed / changed + submits * submit / 2
        self.result["capacity_derived_unchanged"] = unchanged
        self.result["capacity_derived_mixed"] = 1 / load if load > 0 else math.nan

    # 6

    # Each way of following, measured one after the other in the same run: the page as it
    # is (the update comes in the event) and the two-step path it had before (the event
    # says the version, the page fetches /live); on loopback, and a round trip away.
    FOLLOWING = (
        ("push_browser", False, 0.0),
        ("push_browser_two_step", True, 0.0),
        ("push_browser_far", False, LATE_CLOSE * 1000),
        ("push_browser_two_step_far", True, LATE_CLOSE * 1000),
    )

    def push(self) -> None:
        game = self.push_game
        turns = [API_TURNS[i % len(API_TURNS)] for i in range(PUSH_TURNS)]
        why_not = browser.available()
        if why_not is None:
            for key, two_step, latency in self.FOLLOWING:
                measured = browser.measure(
                    self.port,
                    game.id,
                    game.key,
                    turns,
                    phones=PUSH_PHONES,
                    two_step=two_step,
                    latency_ms=latency,
                )
                self.result[key] = self._delays(measured)
                print(f"  browser, {PUSH_PHONES} phones, {key}: {self._said(measured)}", flush=True)
        else:
            self.problem(f"the browser rows were not measured: {why_not}")
        # Then 1,000 more phones hold the same game's stream open: as pages do now, whose
        # every event carries the update, and as they did before, with versions only.
        self._crowd(game, turns, why_not, pages=True, suffix="")
        self._crowd(game, turns, why_not, pages=False, suffix="_two_step")

    def _crowd(
        self,
        game: Built,
        turns: list[dict[str, int]],
        why_not: str | None,
        *,
        pages: bool,
        suffix: str,
    ) -> None:
        extra = ["--pages"] if pages else []
        clients = [
            subprocess.Popen(
                [
                    sys.executable,
                    str(HERE / "streams.py"),
                    "--port",
                    str(self.port),
                    # One word: a game's id may begin with "-", which would read as an option.
                    f"--game={game.id}",
                    "--count",
                    str(STREAMS // STREAM_PROCESSES),
                    *extra,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(STREAM_PROCESSES)
        ]
        posted: dict[int, float] = {}
        try:
            ready = 0
            for client in clients:
                assert client.stdout is not None
                line = client.stdout.readline().split()
                ready += int(line[1]) if len(line) > 1 else 0
            self.result["streams_open"] = ready
            if ready < STREAMS:
                self.problem(f"only {ready} of {STREAMS} streams opened")
            time.sleep(2)  # let the opening settle
            if pages:  # idle streams cost the same either way: measured once
                self._idle(ready)
            if why_not is None:
                measured = browser.measure(
                    self.port,
                    game.id,
                    game.key,
                    turns,
                    phones=PUSH_PHONES,
                    on_post=posted.__setitem__,
                    two_step=not pages,
                )
                self.result[f"push_browser_streams{suffix}"] = self._delays(measured)
                print(
                    f"  browser, {PUSH_PHONES} phones + {ready} streams{suffix}: "
                    f"{self._said(measured)}",
                    flush=True,
                )
            else:
                for index, turn in enumerate(turns):
                    at = time.time()
                    posted[browser.post_turn(self.port, game.id, game.key, turn)] = at
                    time.sleep(0.5 if index < len(turns) - 1 else 1.5)
        finally:
            outputs = []
            for client in clients:
                try:
                    out, _ = client.communicate("stop\n", timeout=60)
                    outputs.append(json.loads(out.strip().splitlines()[-1]))
                except (subprocess.TimeoutExpired, ValueError, IndexError):
                    client.kill()
                    client.wait()
                    self.problem("a stream client did not report")
        delays = [
            at - posted[int(version)]
            for out in outputs
            for version, times in out["arrivals"].items()
            if int(version) in posted
            for at in times
        ]
        expected = len(posted) * sum(out["ready"] for out in outputs)
        errors = sum(out["error_count"] for out in outputs)
        self.result[f"streams_push{suffix}"] = {
            "p50": pct(delays, 50),
            "p95": pct(delays, 95),
            "max": max(delays, default=math.nan),
            "deliveries": len(delays),
            "expected": expected,
            "errors": errors,
        }
        print(
            f"  pushed to the streams{suffix}: {len(delays)} of {expected} deliveries, p50 "
            f"{ms(pct(delays, 50))}, p95 {ms(pct(delays, 95))}, errors {errors}",
            flush=True,
        )

    def _idle(self, ready: int) -> None:
        before, started = self.cpu.server(), time.perf_counter()
        load_before = self.cpu.machine()
        time.sleep(IDLE_SECONDS)
        wall = time.perf_counter() - started
        busy_after, total_after = self.cpu.machine()
        cores = (self.cpu.server() - before) / wall
        machine_cores = (
            self.result["machine"]["nproc"]
            * (busy_after - load_before[0])
            / max(1, total_after - load_before[1])
        )
        self.result["streams_idle"] = {
            "cores": cores,
            "seconds": wall,
            "other_cores": max(0.0, machine_cores - cores),
        }
        print(
            f"  {ready} open streams, nothing happening for {wall:.0f} s: server {cores:.3f} cores",
            flush=True,
        )

    @staticmethod
    def _delays(measured: dict[str, Any]) -> dict[str, Any]:
        delays = measured["delays"]
        return {
            "p50": pct(delays, 50),
            "p95": pct(delays, 95),
            "max": max(delays, default=math.nan),
            "count": len(delays),
            "missed": measured["missed"],
            # Each phone's delays in the order the turns were posted (a missed one left out),
            # kept in .bench/*.json: a cost that only some turns pay (every fourth, say)
            # shows there, and hardly in a percentile.
            "delays_ms": [round(delay * 1000, 1) for delay in delays],
            # The same delays split where the event reached the page's scripts (a turn whose
            # row came without its event, from a poll, left out).
            "to_page": {"p50": pct(measured["to_page"], 50), "p95": pct(measured["to_page"], 95)},
            "in_page": {"p50": pct(measured["in_page"], 50), "p95": pct(measured["in_page"], 95)},
            "phones": measured["phones"],
            "turns": measured["turns"],
        }

    def _said(self, measured: dict[str, Any]) -> str:
        found = self._delays(measured)
        return (
            f"{found['count']} turn x phone delays, p50 {ms(found['p50'])}, p95 "
            f"{ms(found['p95'])}, max {ms(found['max'])}, missed {found['missed']}"
        )

    def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        self.result["machine"] = machine(self.db)
        self.result["server"] = server_command(self.cpu.server_pid)
        candidate = os.getenv("BENCH_SERVER", "")
        self.result["entry"] = (
            f"the candidate `python bench/servers.py {candidate}`"
            if candidate
            else "the production entry point `python -m thirty.serve`"
        )
        self.result["started"] = dt.datetime.now().astimezone().isoformat(timespec="seconds")
        info = self.result["machine"]
        print(
            f"== {self.db}: {info['nproc']} CPUs ({info['cpu']}), Python {info['python']}, "
            f"Django {info['django']}, {info['database']}, load {info['load']}",
            flush=True,
        )
        self.section("setup", self.setup)
        if "setup" not in self.result:
            return self.result
        chosen = os.getenv("BENCH_SECTIONS", "1-2,3,4,5,6").split(",")
        for key, name, action in (
            ("1-2", "1-2 throughput", self.throughput),
            ("3", "3 change cost", self.change_cost),
            ("4", "4 change latency", self.follow_latency),
            ("5", "5 capacity", self.capacity),
            ("6", "6 push", self.push),
        ):
            if key in chosen:
                self.section(name, action)
        self.result["seconds"] = round(time.perf_counter() - started, 1)
        self.result["machine"]["load_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
        return self.result


# -- the table ------------------------------------------------------------------------------


def verdict(value: float | None, target: float, higher_is_better: bool) -> str:
    if value is None or math.isnan(value):
        return "not measured"
    if higher_is_better:
        return "met" if value >= target else f"MISSED ({value / target:.0%} of the target)"
    return "met" if value <= target else f"MISSED ({value / target - 1:.0%} over the limit)"


def rows(result: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(section, what, value, target, verdict) for one database's run."""
    out: list[tuple[str, str, str, str, str]] = []
    rps = result.get("rps", {})
    cpu = result.get("cpu_per_request", {})
    get = result.get
    if rps:
        out += [
            ("1", "bare view `/healthz`, req/s", num(rps["bare"]), "", ""),
            (
                "1",
                "unchanged live refresh (204), 250-turn game, req/s",
                num(rps["unchanged"]),
                "",
                "",
            ),
            (
                "1",
                "**ratio** unchanged refresh / bare (req/s)",
                num(get("ratio_unchanged"), 2),
                "≥ 0.80",
                verdict(get("ratio_unchanged"), 0.80, True),
            ),
            (
                "1",
                "server CPU per request: bare / unchanged refresh; **ratio**",
                f"{ms(cpu.get('bare', math.nan))} / {ms(cpu.get('unchanged', math.nan))}; "
                f"{num(get('cpu_ratio_unchanged'), 2)}",
                "≥ 0.80",
                verdict(get("cpu_ratio_unchanged"), 0.80, True),
            ),
            (
                "2",
                f"sheet page, 250 turns x 8 players ({num(get('sheet_bytes', 0) / 1024)} KiB), "
                "req/s",
                num(rps["sheet"], 1),
                "",
                "",
            ),
            (
                "2",
                "**ratio** sheet page / bare (req/s)",
                num(get("ratio_sheet"), 3),
                "≥ 0.25",
                verdict(get("ratio_sheet"), 0.25, True),
            ),
            (
                "2",
                "server CPU per request: sheet page; **ratio** bare / sheet",
                f"{ms(cpu.get('sheet', math.nan))}; {num(get('cpu_ratio_sheet'), 3)}",
                "≥ 0.25",
                verdict(get("cpu_ratio_sheet"), 0.25, True),
            ),
            (
                "2",
                "(one-row live refresh, req/s; ratio to bare)",
                f"{num(rps['changed'])}; {num(get('ratio_changed'), 2)}",
                "",
                "",
            ),
            (
                "2",
                "(history page `/history/`, req/s; ratio to bare)",
                f"{num(rps.get('history'))}; {num(get('ratio_history'), 2)}",
                "",
                "",
            ),
            (
                "2",
                "(a player's page, req/s; ratio to bare)",
                f"{num(rps.get('player'))}; {num(get('ratio_player'), 2)}",
                "",
                "",
            ),
        ]
    change = get("change")
    if change:
        for label in ("10", "500"):
            out.append(
                (
                    "3",
                    f"htmx form submit at turn ~{label}: median / p95",
                    f"{ms(change[f'submit_median_{label}'])} / {ms(change[f'submit_p95_{label}'])}",
                    "",
                    "",
                )
            )
        out += [
            (
                "3",
                "**ratio** submit turn ~500 / turn ~10 (median; p95)",
                f"{num(change['ratio_median'], 2)}; {num(change['ratio_p95'], 2)}",
                "≤ 1.2",
                verdict(change["ratio_median"], 1.2, False),
            ),
            (
                "3",
                "new-turn live refresh at turn 10 / 500, bytes",
                f"{change['refresh_bytes_10']} / {change['refresh_bytes_500']}",
                "equal or nearly (≤ 1.02)",
                verdict(change["ratio_bytes"], 1.02, False),
            ),
            (
                "3",
                "(new-turn live refresh at turn 10 / 500, median time)",
                f"{ms(change['refresh_median_10'])} / {ms(change['refresh_median_500'])}",
                "",
                "",
            ),
        ]
    followed = get("follow")
    if followed:
        out.append(
            (
                "4",
                f"submit → seen on {FOLLOWERS} followers, {followed['submits']} turns: p50 / p95"
                f" (max; missed)",
                f"{ms(followed['p50'])} / {ms(followed['p95'])} ({ms(followed['max'])}; "
                f"{followed['missed']})",
                "p95 ≤ 1 s",
                verdict(followed["p95"], 1.0, False),
            )
        )
    if rps.get("api"):
        out.append(
            (
                "6",
                "**ratio** API state `GET /api/games/{id}`, 250 turns / bare (req/s); CPU ratio",
                f"{num(get('ratio_api'), 2)}; {num(get('cpu_ratio_api'), 2)}",
                "≥ 0.50",
                verdict(get("ratio_api"), 0.50, True),
            )
        )
    if change:
        out.append(
            (
                "6",
                "**ratio** API turn at turn ~500 / ~10, a new connection per request (median)",
                f"{ms(change['api_median_500'])} / {ms(change['api_median_10'])}; "
                f"{num(change['ratio_api'], 2)}",
                "≤ 1.2",
                verdict(change["ratio_api"], 1.2, False),
            )
        )
    crowd = f"with {get('streams_open', STREAMS)} more streams open"
    far_ms = LATE_CLOSE * 1000
    for key, what, target in (
        ("push_browser", "update in the event", 0.050),
        ("push_browser_two_step", "two-step: version, then /live, as before", None),
        ("push_browser_streams", f"update in the event, {crowd}", None),
        ("push_browser_streams_two_step", f"two-step, {crowd}", None),
        ("push_browser_far", f"update in the event, {far_ms:.0f} ms away", None),
        ("push_browser_two_step_far", f"two-step, {far_ms:.0f} ms away", None),
    ):
        pushed = get(key)
        if pushed:
            out.append(
                (
                    "6",
                    f"turn posted → row on the phone, Chromium, {pushed['phones']} phones x "
                    f"{pushed['turns']} turns ({what}): p50 / p95 (max; missed)",
                    f"{ms(pushed['p50'])} / {ms(pushed['p95'])} ({ms(pushed['max'])}; "
                    f"{pushed['missed']})",
                    "" if target is None else f"p95 ≤ {target * 1000:.0f} ms",
                    "" if target is None else verdict(pushed["p95"], target, False),
                )
            )
    for key, what in (
        ("push_browser", "update in the event"),
        ("push_browser_two_step", "two-step"),
    ):
        pushed = get(key)
        if pushed and "to_page" in pushed:
            split = pushed["to_page"], pushed["in_page"]
            out.append(
                (
                    "6",
                    f"of which ({what}): turn posted → its event in the page's scripts; that "
                    "event → row on the phone: p50 / p95 of each",
                    f"{ms(split[0]['p50'])} / {ms(split[0]['p95'])}; "
                    f"{ms(split[1]['p50'])} / {ms(split[1]['p95'])}",
                    "",
                    "",
                )
            )
    near, far = get("push_browser_two_step_far"), get("push_browser_far")
    if near and far:
        sooner = near["p50"] - far["p50"]
        out.append(
            (
                "6",
                f"a phone {far_ms:.0f} ms away: how much sooner the update in the event shows "
                "than the two-step path (difference of p50; of p95)",
                f"{ms(sooner)}; {ms(near['p95'] - far['p95'])}",
                f"≥ one round trip ({far_ms:.0f} ms)",
                verdict(sooner, LATE_CLOSE, True),
            )
        )
    idle = get("streams_idle")
    if idle:
        out.append(
            (
                "6",
                f"server CPU with {get('streams_open')} open streams, nothing happening for "
                f"{idle['seconds']:.0f} s (heartbeats included), cores",
                num(idle["cores"], 3),
                "< 0.2",
                verdict(idle["cores"], 0.2, False),
            )
        )
    for key, what in (("streams_push", "update"), ("streams_push_two_step", "version only")):
        streamed = get(key)
        if streamed:
            out.append(
                (
                    "6",
                    f"turn posted → its event ({what}) on each of the {get('streams_open')} "
                    "streams: p50 / p95 (max; delivered of expected)",
                    f"{ms(streamed['p50'])} / {ms(streamed['p95'])} ({ms(streamed['max'])}; "
                    f"{streamed['deliveries']} of {streamed['expected']})",
                    "p95 ≤ 250 ms",
                    verdict(streamed["p95"], 0.250, False),
                )
            )
    for level in get("levels", []):
        out.append(
            (
                "5",
                f"measured: {level['phones']} phones ({level['games']} games): polls/s; change "
                "p50 / p95; CPU cores of server / phones / other processes",
                f"{num(level['achieved_rate'])}; {ms(level['p50'])} / {ms(level['p95'])}; "
                f"{level['server_cpu_share']:.2f} / {level['client_cpu_share']:.2f} / "
                f"{level['other_cores']:.2f}",
                "p95 ≤ 2 s",
                "met" if level["ok"] else "MISSED",
            )
        )
    if "capacity_measured" in result:
        # Every crowd passed: the server carries at least the largest one tried.
        at_least = "≥ " if get("capacity_ceiling") else ""
        out += [
            (
                "5",
                "**measured** capacity: most phones with p95 ≤ 2 s (phones and server share "
                "the CPUs)",
                f"{at_least}{num(get('capacity_measured'))}",
                "",
                "",
            ),
            (
                "5",
                f"measured: unchanged refreshes/s from {LATE_CLIENTS} phones that close "
                f"{LATE_CLOSE * 1000:.0f} ms after each answer (one mobile round trip), "
                "≈ phones served over a real network",
                num(get("late_close", {}).get("rate", math.nan)),
                "",
                "",
            ),
            (
                "5",
                f"measured: the same {LATE_CLIENTS} phones {LATE_CLOSE * 1000:.0f} ms away "
                "keeping their connections as browsers do, each asking again as soon as "
                f"its answer arrives (at most {LATE_CLIENTS / LATE_CLOSE:,.0f}/s)",
                num(get("far_keepalive", {}).get("rate", math.nan)),
                "",
                "",
            ),
            (
                "5",
                "**derived** capacity: unchanged refresh req/s ÷ 1 poll/s",
                num(get("capacity_derived_unchanged")),
                "",
                "",
            ),
            (
                "5",
                f"**derived** capacity with a turn every {TURN_EVERY:.0f} s per "
                f"{PHONES_PER_GAME} phones",
                num(get("capacity_derived_mixed")),
                "",
                "",
            ),
        ]
    return out


def table(results: list[dict[str, Any]]) -> str:
    names = [result["db"] for result in results]
    columns = [rows(result) for result in results]
    keys: list[tuple[str, str]] = []
    for column in columns:
        for section, what, *_ in column:
            if (section, what) not in keys:
                keys.append((section, what))
    lines = [
        "| # | measure | " + " | ".join(names) + " | target |",
        "|---|---|" + "---|" * len(names) + "---|",
    ]
    for key in keys:
        cells = []
        target = ""
        for column in columns:
            found = next((row for row in column if row[:2] == key), None)
            if found is None:
                cells.append("")
                continue
            cells.append(found[2] + (f" — {found[4]}" if found[4] else ""))
            target = target or found[3]
        lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + f" | {target} |")
    return "\n".join(lines)


def bench_command() -> str:
    """How this run was started: a run of some parts only says which."""
    chosen = [
        f"{name}={os.environ[name]}"
        for name in ("BENCH_DATABASES", "BENCH_SECTIONS", "BENCH_SERVER")
        if os.environ.get(name)
    ]
    if (
        os.environ.get("BENCH_PARTS", "dice,speed,robustness,cards")
        != "dice,speed,robustness,cards"
    ):
        chosen.insert(0, f"BENCH_PARTS={os.environ['BENCH_PARTS']}")
    if not chosen:
        return "`make bench` (`bash scripts/bench.sh`)"
    return f"`{' '.join(chosen)} bash scripts/bench.sh`"


def describe(results: list[dict[str, Any]]) -> str:
    first = results[0]["machine"] if results else {}
    lines = [
        f"- Run: {results[0].get('started', '?') if results else '?'}, command {bench_command()}",
        f"- Machine: {first.get('nproc')} CPUs, {first.get('cpu')}, kernel {first.get('kernel')},"
        f" Python {first.get('python')}, Django {first.get('django')}, {first.get('wrk')}",
        f"- Server: {results[0].get('entry', '?') if results else '?'}, DEBUG=false, which "
        f"runs `{results[0].get('server', '?') if results else '?'}`, on 127.0.0.1; load "
        "generators on the same machine",
    ]
    for result in results:
        machine_info = result["machine"]
        lines.append(
            f"- {result['db']}: {machine_info['database']}; load average "
            f"{machine_info['load']} at the start, {machine_info.get('load_end', '?')} at the "
            f"end; {result.get('seconds', '?')} s; sections "
            + ", ".join(f"{k} {v} s" for k, v in result.get("timings", {}).items())
        )
        runs = [run for runs in result.get("wrk", {}).values() for run in runs]
        runs += result.get("levels", [])
        others = [run["other_cores"] for run in runs]
        waits = [run["server_wait"] for run in runs]
        if others:
            lines.append(
                f"  - other processes on the machine (not the server, wrk or the phones) used "
                f"{median(others):.2f} cores (median; max {max(others):.2f}) of "
                f"{machine_info['nproc']} while {result['db']} was measured; the server's "
                f"workers waited for a CPU {median(waits):.2f} s per second (median; max "
                f"{max(waits):.2f})"
            )
    return "\n".join(lines)


def raw(results: list[dict[str, Any]]) -> str:
    lines = []
    for result in results:
        lines.append(f"**{result['db']}**")
        lines.append("")
        for name, runs in result.get("wrk", {}).items():
            figures = ", ".join(
                f"{run['rps']:.1f} req/s (p50 {ms(run.get('p50', math.nan))}, "
                f"p99 {ms(run.get('p99', math.nan))}, {run['requests']} requests, "
                f"statuses {run['statuses']}, CPU server/wrk/others {run['server_cores']:.2f}/"
                f"{run['wrk_cores']:.2f}/{run['other_cores']:.2f}, server waited for a CPU "
                f"{run['server_wait']:.2f} s/s)"
                for run in runs
            )
            lines.append(f"- wrk {name} `{result['paths'][name]}`: {figures}")
        for level in result.get("levels", []):
            lines.append(
                f"- {level['phones']} phones: {level['polls']} polls ({level['achieved_rate']:.0f}"
                f"/s measured over the window) on {level.get('connections', '?')} connections, "
                f"statuses {level['statuses']}, poll p50 "
                f"{ms(level['poll_p50'])} p95 {ms(level['poll_p95'])}, {level['submits']} turns "
                f"({level['submit_errors']} refused), {level['samples']} change deliveries, "
                f"missed {level['missed']}, CPU server/followers/others "
                f"{level['server_cpu_share']:.2f}/{level['client_cpu_share']:.2f}/"
                f"{level['other_cores']:.2f} cores, waited for a CPU: server "
                f"{level['server_wait']:.2f} s/s, phones {level['client_wait']:.2f} s/s, "
                f"{level['processes']} phone processes"
            )
        followed = result.get("follow")
        if followed:
            lines.append(
                f"- followers: {followed['polls']} polls on {followed.get('connections', '?')} "
                f"connections, statuses {followed['statuses']}, poll p50 "
                f"{ms(followed['poll_p50'])} p95 {ms(followed['poll_p95'])}, submit median "
                f"{ms(followed['submit_median'])}"
            )
        for key in ("late_close", "far_keepalive"):
            far = result.get(key)
            if far:
                lines.append(
                    f"- {key.replace('_', ' ')}: {far['rate']:.0f} requests/s from "
                    f"{far['clients']} phones {far['delay'] * 1000:.0f} ms away, answer p50 "
                    f"{ms(far['p50'])}, {far.get('connections', '?')} connections"
                )
        for problem in result.get("problems", []):
            lines.append(f"- PROBLEM: {problem}")
        lines.append("")
    return "\n".join(lines)


def report(results: list[dict[str, Any]]) -> str:
    return "\n\n".join([describe(results), table(results), "Raw figures:", raw(results)])


def write_doc(doc: Path, text: str, markers: str = "results") -> None:
    start, end = f"<!-- {markers} -->", f"<!-- /{markers} -->"
    current = doc.read_text() if doc.exists() else f"# Benchmarks\n\n{start}\n{end}\n"
    if start not in current or end not in current:
        current = current.rstrip("\n") + f"\n\n{start}\n{end}\n"
    head, rest = current.split(start, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(f"{head}{start}\n{text}\n{end}{tail}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("measure")
    measure.add_argument("--port", type=int, required=True)
    measure.add_argument("--db", required=True)
    measure.add_argument("--out", type=Path, required=True)
    measure.add_argument("--server-pid", type=int)
    robustness = commands.add_parser("robustness")
    robustness.add_argument("--port", type=int, required=True)
    robustness.add_argument("--db", required=True)
    robustness.add_argument("--out", type=Path, required=True)
    robustness.add_argument("--seconds", type=float, default=env_number("BENCH_STRESS_SECONDS", 20))
    robust_report = commands.add_parser("robustness-report")
    robust_report.add_argument("inputs", nargs="+", type=Path)
    robust_report.add_argument("--doc", type=Path)
    combine = commands.add_parser("report")
    combine.add_argument("inputs", nargs="+", type=Path)
    combine.add_argument("--doc", type=Path)
    args = parser.parse_args(argv)
    if args.command == "robustness":
        import robust

        measured = robust.measure(args.port, args.db, args.seconds)
        args.out.write_text(json.dumps(measured, indent=1))
        return 1 if measured["stress"]["server_errors"] or measured["import"]["failures"] else 0
    if args.command == "robustness-report":
        import robust

        found = [json.loads(path.read_text()) for path in args.inputs if path.exists()]
        text = robust.report(found)
        print(text)
        if args.doc:
            write_doc(args.doc, text, "robustness")
        return 0
    if args.command == "measure":
        if not shutil.which("wrk"):
            print("wrk is not installed", file=sys.stderr)
            return 2
        result = Bench(args.port, args.db, args.server_pid).run()
        args.out.write_text(json.dumps(result, indent=1, default=str))
        print()
        print(table([result]))
        print()
        return 0
    results = [json.loads(path.read_text()) for path in args.inputs if path.exists()]
    if not results:
        print("no results to report", file=sys.stderr)
        return 1
    text = report(results)
    print(text)
    if args.doc:
        write_doc(args.doc, text)
        print(f"\n(written to {args.doc})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
