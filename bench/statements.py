"""How many statements each page sends to the database, early and late in a long game.

    python bench/statements.py [--early 10] [--late 500]

Builds a dice game of eight players and a card tournament of six in this process, on a
throwaway SQLite database (or DATABASE_URL: `make bench` runs it on PostgreSQL too), and asks
each page as a phone asks it, through Django's test client, counting every statement (SQLite's
driver reports the ones that bypass Django). Each page is asked at turn (or move) `--early`
and at `--late`, first in a process that remembers nothing of the game, as a worker that has
not drawn this version yet (the most a page can cost), then again, as a second phone asking
the same worker (a second turn, for the turn through the API). Prints a Markdown table.
Target: as many statements late as early. The table also gives each page's time at `--early`
and at `--late` in a process that remembers nothing (the median of `REPEATS` askings, each
after the cache is cleared): the server's own work, through Django's handler without an HTTP
server, which for a watcher's update is what every change costs before its event leaves.
A last column times each page at `--late` as a worker that drew the game's rows before and
has not drawn this version's page: it keeps the sheet rows it drew, which never change. It
has drawn the newest row too, so after a new turn such a worker draws one row more.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Turns that change no points, so that the dice game never ends (as in bench/run.py).
TURNS = ((20, None), (33, 0), (25, None), (35, 0), (12, None), (31, 0))
REPEATS = 15


@dataclass(frozen=True)
class Page:
    """A page as a phone asks it: `ask` sends the request and says whether it was answered
    as expected; `before` runs first, uncounted (the turn whose update is asked, say)."""

    name: str
    ask: Callable[[], bool]
    before: Callable[[], None] = lambda: None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--early", type=int, default=10)
    parser.add_argument("--late", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="thirty-statements-") as tmp:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
        os.environ["THIRTY_DATA_DIR"] = tmp
        os.environ["DJANGO_SETTINGS_MODULE"] = "thirty.settings"
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        # The test client's host is let in. Not `setup_test_environment`, whose instrumented
        # templates would add their own cost to every page's time.
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        call_command("migrate", verbosity=0)
        print(measure(args.early, args.late))


def measure(early: int, late: int) -> str:
    from django.db import connection

    from games import cache

    # On PostgreSQL a worker hears every game's new versions (games/versions.py) from its
    # start: listening before the games are made, as a worker that has been up a while.
    board = cache.version_board()
    if board is not None and not board.wait_until_listening(10):
        raise SystemExit("the version board did not start listening")

    database = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(connection.vendor)
    lines = [
        f"**{database or connection.vendor}**: statements per request",
        "",
        f"| Page | turn or move {early} | {late} | {late}, asked again | target"
        f" | time at {early} / {late}, remembering nothing (median of {REPEATS})"
        f" | {late}, the rows drawn before |",
        "|---|---|---|---|---|---|---|",
    ]
    counts = {
        "dice": {at: count_pages(dice_pages(at)) for at in (early, late)},
        "cards": {at: count_pages(card_pages(at)) for at in (early, late)},
    }
    for kind, by_turn in counts.items():
        for name, (cold, _warm, ms, _) in by_turn[early].items():
            late_cold, late_warm, late_ms, late_rows_ms = by_turn[late][name]
            met = "met" if late_cold == cold else "MISSED"
            lines.append(
                f"| {kind}: {name} | {cold} | {late_cold} | {late_warm} | the same — {met}"
                f" | {ms:.1f} / {late_ms:.1f} ms | {late_rows_ms:.1f} ms |"
            )
    return "\n".join(lines)


def count_pages(pages: list[Page]) -> dict[str, tuple[int, int, float, float]]:
    """Each page's statements remembering nothing and asked again; its median time
    remembering nothing, and as a worker that drew the game's rows before and has not drawn
    this version's page (it keeps the sheet rows it drew, `games.cache.cached_row`)."""
    from games import cache
    from tests.statements import count_statements

    counted: dict[str, tuple[int, int, float, float]] = {}
    for page in pages:
        found = []
        page.before()
        for forget in (True, False):
            if forget:
                cache.clear()
            with count_statements() as statements:
                answered = page.ask()
            if not answered:
                raise SystemExit(f"{page.name}: not answered as a phone expects")
            found.append(len(statements))
        medians = []
        for rows in (True, False):
            times = []
            for _ in range(REPEATS):
                cache.clear(rows=rows)
                start = time.perf_counter()
                page.ask()
                times.append((time.perf_counter() - start) * 1000)
            medians.append(statistics.median(times))
        counted[page.name] = (found[0], found[1], medians[0], medians[1])
    return counted


def ok(client: Any, path: str) -> Callable[[], bool]:
    """Asking `path` as `client`, answered with the page."""
    return lambda: client.get(path).status_code == 200


def seat_phone(game: Any, host_key: str) -> Any:
    """A phone that opened the first seat's link, as the host's page shows it, and claimed it."""
    from django.test import Client

    from games import claims

    key = next(link.key for link in claims.seat_link_keys(game, host_key) if link.position == 0)
    phone = Client()
    if phone.post(f"/g/{game.pk}/seat", {"key": key}).status_code != 302:
        raise SystemExit("the first seat's link was not taken")
    return phone


def dice_pages(turns: int) -> list[Page]:
    from django.test import Client

    from games.access import host_cookie_name
    from games.kinds.dice import moves
    from games.models import Game, Turn
    from games.rules import dice

    rules = dice.RuleSet.from_dict({"start_points": 99})
    game, host_key = moves.create_game("Bench", [f"Player {i}" for i in range(1, 9)], rules)
    for number in range(turns):
        total, hunt = TURNS[number % len(TURNS)]
        moves.record_turn(game.pk, dice.Turn(total, hunt))
    host = Client()
    host.cookies[host_cookie_name(game)] = host_key
    seat = seat_phone(game, host_key)
    watcher = Client()
    shown: dict[str, Any] = {}

    def next_turn() -> None:
        # A new row for the watcher's update: the marks its page sent, then a turn.
        now = Game.objects.get(pk=game.pk)
        last = Turn.objects.filter(game=now).order_by("-number").values_list("pk", flat=True)
        shown.update(v=now.version, n=now.turn_count, t=last.first())
        moves.record_turn(game.pk, dice.Turn(20))

    def update() -> bool:
        marks = f"v={shown['v']}&n={shown['n']}&t={shown['t']}"
        answer = watcher.get(f"/g/{game.pk}/live?{marks}")
        return answer.status_code == 200 and f'id="turn-{shown["n"] + 1}"' in answer.text

    def still() -> None:
        shown.update(v=Game.objects.get(pk=game.pk).version)

    def unchanged() -> bool:
        return watcher.get(f"/g/{game.pk}/live?v={shown['v']}&n=0&t=").status_code == 204

    def api_turn() -> bool:
        answer = Client().post(
            f"/api/games/{game.pk}/turns",
            {"total": 20},
            content_type="application/json",
            headers={"X-Host-Key": host_key},
        )
        return answer.status_code == 201

    url = f"/g/{game.pk}/"
    return [
        Page("the game page, a watcher", ok(watcher, url)),
        Page("the game page, the host", ok(host, url)),
        Page("the game page, a seat's phone", ok(seat, url)),
        Page("a watcher's update after a turn (`/live`)", update, next_turn),
        Page("an unchanged refresh (`/live`)", unchanged, still),
        Page("the API's state", ok(watcher, f"/api/games/{game.pk}")),
        Page("a turn through the API", api_turn),
        Page("the chart", ok(watcher, f"/g/{game.pk}/chart.svg")),
        Page("the sheet as CSV", ok(watcher, f"/g/{game.pk}/sheet.csv")),
    ]


def card_pages(moves: int) -> list[Page]:
    from django.test import Client

    from games import store
    from games.kinds.cards import tournaments
    from games.models import Game
    from games.rules import cards

    players = [store.Player(f"P{seat}") for seat in range(6)]
    game, host_key = tournaments.create_card_game("Bench", players, cards.CardRules(tokens=9))
    rng = random.Random(30)

    def play() -> None:
        now = Game.objects.get(pk=game.pk)
        state = tournaments.load_tournament(now)
        seat = state.to_move()
        if state.finished or seat is None:
            raise SystemExit("the tournament ended; ask for fewer moves")
        store.play(game.pk, seat, rng.choice(state.legal_moves()), version=now.version)

    for _ in range(moves):
        play()
    phone = seat_phone(game, host_key)
    watcher = Client()
    seen: dict[str, int] = {}

    def next_move() -> None:
        seen["v"] = Game.objects.get(pk=game.pk).version
        play()

    def update() -> bool:
        answer = watcher.get(f"/g/{game.pk}/live?v={seen['v']}")
        return answer.status_code == 200 and 'id="card-area"' in answer.text

    def hand() -> bool:
        answer = phone.get(f"/g/{game.pk}/")
        return answer.status_code == 200 and 'id="hand"' in answer.text

    url = f"/g/{game.pk}/"
    return [
        Page("the table, a watcher", ok(watcher, url)),
        Page("the table, a seat's phone with its hand", hand),
        Page("a watcher's update after a move (`/live`)", update, next_move),
        Page("the API's state", ok(watcher, f"/api/games/{game.pk}")),
    ]


if __name__ == "__main__":
    main()
