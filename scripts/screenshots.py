"""Screenshots of the main pages at phone and laptop size, in English and Danish.

    .venv/bin/python scripts/screenshots.py [outdir]      (default: docs/screenshots)

Starts the app on a free loopback port against a throwaway SQLite file, plays a few games
through the JSON API, then photographs with Chromium:

    home-<size>-<lang>.png     the home page with the history (whole page)
    dice-roll-<size>-<lang>.png   a turn the app rolls, on the roller's phone, odds shown
    dice-watch-<size>-<lang>.png  the same turn on a watcher's phone
    host-<size>-<lang>.png     the host's game page, with the turn form
    watch-<size>-<lang>.png    the same game on a watcher's phone
    turn-<size>-<lang>.png     the turn form after tapping a total above 30
    chart-<size>-<lang>-<scheme>.png    a finished game's chart and highlights
    history-<size>-<lang>-<scheme>.png  the history, searched for a player
    player-<size>-<lang>-<scheme>.png   a player's page (whole page)
    replay-<size>-<lang>-<scheme>.png   a finished game replayed, at turn 5
                               each in the light and the dark colour scheme
    cards-hand-<size>-<lang>.png    a player's own hand on their turn
    cards-table-<size>-<lang>.png   the card table as a watcher sees it
    cards-chart-<size>-<lang>.png   a finished card game's chart of tokens
    cards-replay-<size>-<lang>.png  a finished card game replayed, at deal 2, every hand shown
    merge-<size>-<lang>.png    merging another spelling into a player, before it is confirmed

where <size> is phone (390x844) or laptop (1280x800) and <lang> is en or da; and every other
page in Danish, at both sizes:

    rules-<size>-da.png        the rules page (whole page)
    heal-<size>-da.png         a 30s turn above 30 with healing: heal or attack?
    won-<size>-da.png          a finished game two players share
    seat-<size>-da.png         a player's own phone, waiting for their turn
    claim-<size>-da.png        a seat link opened without its key
    undo-<size>-da.png         the undo page the host reaches without JavaScript
    unlock-<size>-da.png       the password page of a private instance
    import-<size>-da.png       a file that is not an exported game
    notfound-<size>-da.png     a game link that leads nowhere (404)
    csrf-<size>-da.png         a form refused for its CSRF token (403)
    error-<size>-da.png        the server error page (500)

The error pages are drawn in this process with DEBUG off, as a visitor would see them, and
shown against the running server so that they get its stylesheet. Every wait is bounded; the
server is stopped at the end, also after an error.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from scripts/: the project's own modules

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
LANGUAGES = ("en", "da")
SCHEMES = ("light", "dark")
START_TIMEOUT = 30  # seconds for the server to answer
REQUEST_TIMEOUT = 10
PAGE_TIMEOUT_MS = 10_000

# The game the pictures are about: eight seats, long names among them.
MAIN_PLAYERS = [
    "Anna",
    "Benjamin Christoffersen",
    "Cleo",
    "Dan",
    "Esther-Marie Kjærsgaard",
    "Frederik",
    "Gustav",
    "Helle",
]


# Totals kept and hunt counts the seeded dice report: a lively evening, more hits than misses.
TOTALS = [19, 22, 24, 25, 26, 27, 28, 29, 30, 31, 31, 32, 32, 33, 33, 34, 35, 36]
HUNTS = [0, 1, 1, 2, 2, 3, 4]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def server_env(database: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("THIRTY_PASSWORD", "THIRTY_PASSWORD_FILE", "SITE_URL"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DEBUG="true",
        DJANGO_SETTINGS_MODULE="thirty.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


def compile_messages(env: dict[str, str]) -> None:
    """Build the translations when there are any; without them the pages stay English."""
    if not (ROOT / "locale").is_dir() or shutil.which("msgfmt") is None:
        return
    try:
        subprocess.run(
            [sys.executable, "manage.py", "compilemessages", "--ignore=.venv", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=60,
            capture_output=True,
        )
    except (subprocess.SubprocessError, OSError) as error:
        print(f"note: translations not compiled ({error}); pages may show English")


@contextmanager
def running_server() -> Iterator[tuple[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory(prefix="thirty-shots-") as tmp:
        env = server_env(Path(tmp) / "shots.sqlite3")
        compile_messages(env)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=120,
        )
        port = free_port()
        # The server listens on loopback only, so its links must point there, not at the LAN.
        env["SITE_URL"] = f"http://127.0.0.1:{port}"
        log = (Path(tmp) / "server.log").open("w")
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, server)
            yield base, env
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
            log.close()


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at once (exit code {server.returncode})")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {START_TIMEOUT} s")


def api(base: str, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "Accept-Language": "en"}
    if key:
        headers["X-Host-Key"] = key
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            answer: dict[str, Any] = json.load(response)
            return answer
    except urllib.error.HTTPError as error:
        raise SystemExit(f"POST {path} refused: {error.code} {error.read()[:300]!r}") from None


def play(base: str, game: dict[str, Any], turns: int, rng: random.Random) -> dict[str, Any]:
    """Play `turns` plausible turns (or until the game ends) with seeded dice."""
    key = game["host_key"]
    counts_up = game["rules"]["preset"] == "30s"
    for _ in range(turns):
        if game["finished"]:
            break
        total = rng.choice(TOTALS)
        turn: dict[str, Any] = {"total": total}
        if total > 30:
            margin = total - 30
            if counts_up:
                turn["hunt"] = rng.choice([0, 1, 1, 2])
                if game["rules"]["healing"] and rng.random() < 0.2:
                    turn = {"total": total, "heal": True}
                elif game["rules"]["free_for_all"]:
                    roller = game["next_roller"]
                    targets = [
                        s["seat"] for s in game["seats"] if not s["out"] and s["seat"] != roller
                    ]
                    turn["target"] = rng.choice(targets)
            else:
                most = margin if game["rules"]["hunt_dice"] == "margin" else 6
                turn["hunt"] = min(most, rng.choice(HUNTS))
        game = api(base, f"/api/games/{game['id']}/turns", turn, key) | {"host_key": key}
    return game


def build_games(base: str) -> dict[str, Any]:
    """A few games for the history, and the main one (returned) that is still in play."""
    done = api(
        base,
        "/api/games",
        {
            "name": "Thursday warm-up",
            "players": ["Mette", "Nikolaj", "Oskar"],
            "rules": {"start_points": 4},
        },
    )
    done = play(base, done, 60, random.Random(1))
    thirty_s = api(
        base,
        "/api/games",
        {
            "players": ["Anna", "Ben", "Cleo", "Dan", "Eva"],
            "rules": {"preset": "30s", "healing": True, "free_for_all": True},
        },
    )
    play(base, thirty_s, 12, random.Random(2))
    main = api(
        base,
        "/api/games",
        {"name": "Friday at Helle’s", "players": MAIN_PLAYERS, "rules": {"start_points": 8}},
    )
    # This seed leaves one player out after 25 turns and the game still going.
    main = play(base, main, 25, random.Random(6))
    if main["finished"]:
        raise SystemExit("the main game ended early; change the seed")
    return main | {"finished_game": done}


def build_extra_games(base: str) -> dict[str, dict[str, Any]]:
    """A 30s game with healing where the next roller has points to heal, and a shorter game
    that two players share."""
    key = "host_key"
    heal = api(
        base,
        "/api/games",
        {
            "name": "Søndag",
            "players": ["Anna", "Ben", "Cleo"],
            "rules": {"preset": "30s", "healing": True},
        },
    )
    for turn in ({"total": 24}, {"total": 30}, {"total": 30}):
        heal = api(base, f"/api/games/{heal['id']}/turns", turn, heal[key]) | {key: heal[key]}
    shared = api(
        base,
        "/api/games",
        {
            "name": "Lørdag",
            "players": ["Anna", "Ben", "Cleo"],
            "rules": {"preset": "30s", "end": "first_out"},
        },
    )
    shared = api(
        base, f"/api/games/{shared['id']}/turns", {"total": 35, "hunt": 6}, shared[key]
    ) | {key: shared[key]}
    return {"heal": heal, "shared": shared}


def error_pages(env: dict[str, str]) -> dict[str, str]:
    """The 404, CSRF and 500 pages in Danish, as the app answers them with DEBUG off."""
    os.environ.update(env)
    import django

    django.setup()
    from django.test import Client, RequestFactory, override_settings

    from games.errors import server_error

    danish = {"accept-language": "da"}
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        visitor = Client(raise_request_exception=False, headers=danish)
        strict = Client(enforce_csrf_checks=True, headers=danish)
        pages: dict[str, Any] = {
            "notfound": visitor.get("/g/nosuchgame/"),
            "csrf": strict.post("/i18n/setlang/", {"language": "en"}),
            "error": server_error(RequestFactory().get("/", headers=danish)),
        }
    return {name: response.content.decode() for name, response in pages.items()}


def shoot(
    base: str,
    game: dict[str, Any],
    extra: dict[str, dict[str, Any]],
    errors: dict[str, str],
    outdir: Path,
) -> list[Path]:
    from playwright.sync_api import sync_playwright

    taken: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for lang in LANGUAGES:
                for size in SIZES:
                    taken += shoot_one(browser, base, game, outdir, size, lang)
            for size in SIZES:
                taken += shoot_danish(browser, base, game, extra, errors, outdir, size)
            for lang in LANGUAGES:
                for size in SIZES:
                    for scheme in SCHEMES:
                        taken += shoot_pictures(browser, base, game, outdir, size, lang, scheme)
            taken += shoot_cards(browser, base, outdir)
            taken += shoot_card_replay(browser, base, outdir)
            taken += shoot_dice(browser, base, outdir)
        finally:
            browser.close()
    return taken


def new_context(browser: Any, size: str, lang: str) -> Any:
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size],
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale="da-DK" if lang == "da" else "en-GB",
        extra_http_headers={"Accept-Language": lang},
    )
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    return context


def snapper(outdir: Path, size: str, lang: str, taken: list[Path]) -> Any:
    def snap(page: Any, name: str, *, full_page: bool = False) -> None:
        path = outdir / f"{name}-{size}-{lang}.png"
        page.mouse.move(0, 0)  # no hover left on a row
        page.wait_for_timeout(300)  # let fonts and swaps settle
        page.screenshot(path=str(path), full_page=full_page)
        taken.append(path)

    return snap


def shoot_danish(
    browser: Any,
    base: str,
    game: dict[str, Any],
    extra: dict[str, dict[str, Any]],
    errors: dict[str, str],
    outdir: Path,
    size: str,
) -> list[Path]:
    """Every other page, in Danish."""
    taken: list[Path] = []
    snap = snapper(outdir, size, "da", taken)

    def as_host(context: Any, some: dict[str, Any]) -> None:
        cookie = {"name": f"thirty_host_{some['id']}", "value": some["host_key"], "url": base}
        context.add_cookies([cookie])

    context = new_context(browser, size, "da")
    try:
        page = context.new_page()
        page.goto(f"{base}/rules/", wait_until="load")
        snap(page, "rules", full_page=True)

        heal = extra["heal"]
        as_host(context, heal)
        page.goto(f"{base}/g/{heal['id']}/", wait_until="load")
        page.locator("#turn-panel .totals button[value='35']").click()
        page.locator("#turn-panel button[value='heal']").wait_for()
        snap(page, "heal")

        page.goto(f"{base}/g/{extra['shared']['id']}/", wait_until="load")
        snap(page, "won")

        as_host(context, game)
        page.goto(f"{base}/g/{game['id']}/undo", wait_until="load")
        snap(page, "undo")

        page.goto(f"{base}/g/{game['id']}/", wait_until="load")
        # Let the players enter their own turns, then take the seat link of a player whose
        # turn it is not: their phone waits.
        links = page.locator(".seat-links input.copy")
        if not links.count():
            page.locator("details.seats summary").click()
            with page.expect_navigation():
                page.locator("details.seats input[name=allowed]").check()
            links.first.wait_for()
        seat_link = links.nth((game["next_roller"] or 1) % links.count()).input_value()
        # The link names this machine's address on the network; the server listens on loopback.
        seat_link = base + seat_link[seat_link.index("/g/") :]

        page.goto(f"{base}/unlock", wait_until="load")
        snap(page, "unlock")

        page.goto(f"{base}/", wait_until="load")
        page.locator("form.import input[type=file]").set_input_files(
            files=[{"name": "game.json", "mimeType": "application/json", "buffer": b"{}"}]
        )
        page.locator("form.import button").click()
        page.wait_for_load_state("load")
        snap(page, "import")

        for name, html in errors.items():
            page.goto(f"{base}/healthz", wait_until="load")  # their links resolve against it
            page.set_content(html, wait_until="load")
            snap(page, name)
    finally:
        context.close()

    player = new_context(browser, size, "da")
    try:
        page = player.new_page()
        page.goto(seat_link.split("#")[0], wait_until="load")
        snap(page, "claim")
        page.goto("about:blank")  # else only the '#' changes, and the page is not loaded again
        page.goto(seat_link, wait_until="load")
        page.locator(".waiting").wait_for()
        snap(page, "seat")
    finally:
        player.close()
    return taken


def shoot_one(
    browser: Any, base: str, game: dict[str, Any], outdir: Path, size: str, lang: str
) -> list[Path]:
    """The four pictures at one size in one language, each in a fresh browser context."""
    context = new_context(browser, size, lang)
    game_url = f"{base}/g/{game['id']}/"
    taken: list[Path] = []
    snap = snapper(outdir, size, lang, taken)

    try:
        page = context.new_page()
        page.goto(f"{base}/", wait_until="load")
        snap(page, "home", full_page=True)

        page.goto(game_url, wait_until="load")
        snap(page, "watch")

        host_cookie = {"name": f"thirty_host_{game['id']}", "value": game["host_key"], "url": base}
        context.add_cookies([host_cookie])
        page.goto(game_url, wait_until="load")
        page.locator("#turn-panel .totals").wait_for()
        snap(page, "host")

        page.locator("#turn-panel .totals button[value='34']").click()
        page.locator("#turn-panel .pad.hunt").wait_for()
        snap(page, "turn")
    finally:
        context.close()
    return taken


def shoot_pictures(
    browser: Any,
    base: str,
    game: dict[str, Any],
    outdir: Path,
    size: str,
    lang: str,
    scheme: str,
) -> list[Path]:
    """The pages with pictures, in one colour scheme: a finished sheet with its chart."""
    context = new_context(browser, size, lang)
    taken: list[Path] = []
    snap = snapper(outdir, size, f"{lang}-{scheme}", taken)
    try:
        page = context.new_page()
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{base}/g/{game['finished_game']['id']}/", wait_until="load")
        page.locator("#chart img").wait_for()
        page.locator("#chart").scroll_into_view_if_needed()
        snap(page, "chart")
        page.goto(f"{base}/history/?player=anna", wait_until="load")
        snap(page, "history")
        page.goto(f"{base}/players/Nikolaj/", wait_until="load")
        snap(page, "player", full_page=True)
        page.goto(f"{base}/g/{game['finished_game']['id']}/replay?turn=5", wait_until="load")
        snap(page, "replay")
    finally:
        context.close()
    return taken


def main() -> None:
    outdir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    outdir.mkdir(parents=True, exist_ok=True)
    with running_server() as (base, env):
        game = build_games(base)
        extra = build_extra_games(base)
        errors = error_pages(env)
        taken = shoot(base, game, extra, errors, outdir)
    for path in taken:
        print(path)


def card_call(base: str, path: str, body: dict[str, Any] | None, seat_key: str) -> dict[str, Any]:
    """A call to the card game's API with a seat's key (GET without a body)."""
    headers = {"Content-Type": "application/json", "X-Seat-Key": seat_key}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def build_card_game(base: str) -> tuple[dict[str, Any], dict[int, str]]:
    """A card game of Anna, Ben and a computer, a few cards in, on Anna's turn."""
    players = ["Anna", "Benjamin", {"name": "Robot", "computer": True}]
    game = api(
        base,
        "/api/games",
        {"name": "Cards at Helle’s", "players": players, "rules": {"preset": "cards", "tokens": 3}},
    )
    keys = {}
    for seat in (1, 2):
        path = f"/api/games/{game['id']}/seats/{seat}/claim"
        keys[seat] = card_call(base, path, {}, game["seat_keys"][seat - 1])["seat_key"]
    rng = random.Random(30)
    for _ in range(40):
        state = card_call(base, f"/api/games/{game['id']}", None, keys[1])
        mover = state["deal"]["to_move"]
        if mover == 1 and len(state["deals"]) >= 1 and state["deal"]["pile_count"] >= 2:
            break
        legal = card_call(base, f"/api/games/{game['id']}", None, keys[mover])["legal"]
        move = rng.choice(legal) | {"version": state["version"]}
        card_call(base, f"/api/games/{game['id']}/moves", move, keys[mover])
    return game, keys


def shoot_cards(browser: Any, base: str, outdir: Path) -> list[Path]:
    """The card game: a player's hand on their turn, and the table as a watcher sees it."""
    game, keys = build_card_game(base)
    taken: list[Path] = []
    for lang in LANGUAGES:
        for size in SIZES:
            snap = snapper(outdir, size, lang, taken)
            context = new_context(browser, size, lang)
            try:
                cookie = {"name": f"thirty_seat_{game['id']}", "value": keys[1], "url": base}
                context.add_cookies([cookie])
                page = context.new_page()
                page.goto(f"{base}/g/{game['id']}/")
                page.locator("#hand").scroll_into_view_if_needed()
                snap(page, "cards-hand")
                watcher = new_context(browser, size, lang)
                page = watcher.new_page()
                page.goto(f"{base}/g/{game['id']}/")
                snap(page, "cards-table", full_page=True)
                watcher.close()
            finally:
                context.close()
    return taken


def shoot_card_replay(browser: Any, base: str, outdir: Path) -> list[Path]:
    """A card tournament the computer played to the end: its chart of tokens and its replay
    at deal 2; and the confirmation of merging two spellings of a player."""
    players = [{"name": name, "computer": True} for name in ("Anna", "Benjamin", "Robot")]
    game = api(
        base,
        "/api/games",
        {"name": "Cards at Helle’s", "players": players, "rules": {"preset": "cards", "tokens": 3}},
    )
    other = api(base, "/api/games", {"name": "Sunday", "players": ["Ana", "Ben"]})
    play(base, other, 1, random.Random(1))
    taken: list[Path] = []
    for lang in LANGUAGES:
        for size in SIZES:
            snap = snapper(outdir, size, lang, taken)
            context = new_context(browser, size, lang)
            try:
                page = context.new_page()
                page.goto(f"{base}/g/{game['id']}/")
                page.locator("#chart img").wait_for()
                page.locator("#chart").scroll_into_view_if_needed()
                snap(page, "cards-chart")
                page.goto(f"{base}/g/{game['id']}/replay?deal=2")
                snap(page, "cards-replay", full_page=True)
                page.goto(f"{base}/players/Anna/merge?other=Ana")
                snap(page, "merge")
            finally:
                context.close()
    return taken


def shoot_dice(browser: Any, base: str, outdir: Path) -> list[Path]:
    """A turn with dice the app rolls: one die set aside and five just rolled, with the odds
    of each choice on the roller's phone, and the same turn on a watcher's phone."""
    game = api(
        base,
        "/api/games",
        {"name": "Dice night", "players": ["Anna", "Ben", {"name": "Robot", "computer": True}]},
    )
    key, url = game["host_key"], f"{base}/g/{game['id']}/"
    taken: list[Path] = []
    for lang in LANGUAGES:
        for size in SIZES:
            snap = snapper(outdir, size, lang, taken)
            context = new_context(browser, size, lang)
            try:
                context.add_cookies(
                    [{"name": f"thirty_host_{game['id']}", "value": key, "url": base}]
                )
                page = context.new_page()
                page.goto(url, wait_until="load")
                if not page.locator("#seat-links input[name=shown]").is_checked():
                    page.locator("#seat-links").evaluate("details => { details.open = true; }")
                    page.locator("#seat-links input[name=shown]").check()
                    page.wait_for_url(url)
                if not taken:  # the turn, rolled once for every picture
                    state = api(base, f"/api/games/{game['id']}/roll", {}, key)
                    dice = sorted(state["turn_in_progress"]["rolls"][0]["dice"], reverse=True)
                    api(base, f"/api/games/{game['id']}/roll", {"keep": dice[:1]}, key)
                page.goto(url, wait_until="load")
                page.locator("#turn-panel .pick").first.wait_for()
                page.locator("#turn-panel").scroll_into_view_if_needed()
                page.wait_for_timeout(600)  # the dice have landed
                snap(page, "dice-roll")
                watcher = new_context(browser, size, lang)
                page = watcher.new_page()
                page.goto(url, wait_until="load")
                page.wait_for_timeout(600)
                snap(page, "dice-watch")
                watcher.close()
            finally:
                context.close()
    return taken


if __name__ == "__main__":
    main()
