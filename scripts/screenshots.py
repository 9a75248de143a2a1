"""Screenshots of the main pages at phone and laptop size, in English and Danish.

    .venv/bin/python scripts/screenshots.py [outdir]      (default: docs/screenshots)

Starts the app on a loopback port (8123 when it is free) against a throwaway SQLite file,
plays a few games through the JSON API and the store, then photographs with Chromium. Each
game a host names is named in the language of the picture ("Friday at Helle’s", "Fredag hos
Helle"); one nobody named, the app names itself in the reader's language. Its links name
thirty.test, a name only this browser resolves (to the loopback port), so that a page opened
by it is no secure context, as on a phone on the Wi-Fi:

    home-<size>-<lang>.png     the home page with the history (whole page)
    dice-roll-<size>-<lang>.png   a turn the app rolls, on the roller's phone, odds shown
    dice-watch-<size>-<lang>.png  the same turn on a watcher's phone
    host-<size>-<lang>.png     the host's game page, with the turn form
    watch-<size>-<lang>.png    the same game on a watcher's phone, with its time to go at
                               the table's pace
    join-code-share-<lang>-<size>.png  its card to follow on a phone, with the short code
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
    cards-deal-banner-<lang>-<size>.png  the banner a watcher sees as a deal ends
    cards-deal-banner-turn-<lang>-phone.png  the phone that starts the next deal, its hand
                               waiting until the banner goes
    merge-<size>-<lang>.png    merging another spelling into a player, before it is confirmed
    chances-<size>-<lang>.png       the chances of Thirty (whole page)
    chances-30s-<size>-<lang>.png   the chances of a turn in 30s (whole page)
    chances-estimate-<size>-<lang>.png  the create form's estimate of a 30s game's length
    join-page-<lang>-<size>.png     /join after a code that opens no game
    hand-over-<lang>-<size>.png     the host's "Someone leaving?", open
    presence-<lang>-<size>.png      who is at the table: one seat's phone is here
    turn-sound-<lang>-<size>.png    a seat's phone on its turn, the sound on (whole page)
    computer-pace-dice-<lang>-<size>.png  a watcher some 3.4 s after a person's turn, the
                               computers' moves shown one by one (the table's pace)
    turn-taken-back-<lang>-<size>.png     a seat's phone whose turn the host took back

where <size> is phone (390x844) or laptop (1280x800) and <lang> is en or da; and

    cards-jack-grid-phone-<lang>.png  a hand with a Jack and its values, on a phone
    table-screen-{cards-da-laptop,cards-en-phone}.png, table-screen-dice-<lang>-<size>.png
                               the table screen of a card game, and of a dice game with
                               its latest moves in words
    plain-http-{notice-en-phone,notice-da-laptop}.png  the host's line on plain http
    plain-http-{https-en-laptop,https-da-phone}.png    the page on serving https
    plain-http-{400-en-laptop,400-da-phone}.png        an address the app does not answer to

and every other page in Danish, at both sizes:

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

The error pages (and the 400 page of an address the app does not answer to) are drawn in
this process with DEBUG off, as a visitor would see them, and shown against the running
server so that they get its stylesheet. Every wait is bounded; the server is stopped at the
end, also after an error.
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
from collections.abc import Callable, Iterator
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
PORT = 8123  # the port `make run` uses, so that the links read the same from run to run
# The name the links carry: only this script's browser resolves it, to the loopback port. A
# page opened by it is no secure context, as on a phone that opens the laptop's address.
LAN_NAME = "thirty.test"
PACE_SHOT_S = 3.2  # how long after a phone hears of a turn its computers' moves are photographed

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
    """PORT when it is free, else any free port."""
    for wanted in (PORT, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", wanted))
            except OSError:
                continue
            port: int = sock.getsockname()[1]
            return port
    raise SystemExit("no free port")


class Titles:
    """The names the host gave the games, in each language. Before the pictures of a
    language, `speak` renames every game to its name in that language (through the store),
    so that a Danish page never shows an English name."""

    def __init__(self) -> None:
        self.names: dict[str, dict[str, str]] = {}

    def add(self, game: dict[str, Any], da: str) -> dict[str, Any]:
        self.names[game["id"]] = {"en": game["name"], "da": da}
        return game

    def speak(self, lang: str) -> None:
        from games import store

        for game_id, names in self.names.items():
            store.rename_game(game_id, names[lang])


TITLES = Titles()


def django_ready(env: dict[str, str]) -> None:
    """Django in this process, on the server's database: for the store and the error pages."""
    os.environ.update(env)
    # Playwright's sync API runs an event loop on this thread; the store's calls here come
    # one at a time between its calls, never from inside it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()


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
        # The server listens on loopback only; its links name LAN_NAME, which the browser
        # resolves there (see `shoot`).
        env["SITE_URL"] = f"http://{LAN_NAME}:{port}"
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


def api(
    base: str,
    path: str,
    body: dict[str, Any] | None,
    key: str | None = None,
    method: str = "POST",
) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "Accept-Language": "en"}
    if key:
        headers["X-Host-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            answer: dict[str, Any] = json.load(response)
            return answer
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path} refused: {error.code} {error.read()[:300]!r}") from None


def new_game(
    base: str, players: list[Any], name: str = "", da: str = "", **rules: Any
) -> dict[str, Any]:
    """A game through the API; a name given is given in both languages (`Titles`)."""
    body: dict[str, Any] = {"players": players, "rules": rules}
    if name:
        body["name"] = name
    game = api(base, "/api/games", body)
    return TITLES.add(game, da) if name else game


def enter_turn(base: str, game: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """A turn typed in by the host; the answer keeps the host's key."""
    key = game["host_key"]
    return api(base, f"/api/games/{game['id']}/turns", body, key) | {"host_key": key}


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
    done = new_game(
        base,
        ["Mette", "Nikolaj", "Oskar"],
        "Thursday warm-up",
        "Opvarmning torsdag",
        start_points=4,
    )
    done = play(base, done, 60, random.Random(1))
    thirty_s = new_game(
        base, ["Anna", "Ben", "Cleo", "Dan", "Eva"], preset="30s", healing=True, free_for_all=True
    )
    play(base, thirty_s, 12, random.Random(2))
    main = new_game(base, MAIN_PLAYERS, "Friday at Helle’s", "Fredag hos Helle", start_points=8)
    # This seed leaves one player out after 25 turns and the game still going.
    main = play(base, main, 25, random.Random(6))
    if main["finished"]:
        raise SystemExit("the main game ended early; change the seed")
    at_a_tables_pace(main["id"], random.Random(7))
    return main | {"finished_game": done}


def at_a_tables_pace(game_id: str, rng: random.Random) -> None:
    """The game's rows as if the table took 25 to 50 s over each turn, the last a minute ago
    (they were all written in a moment): its page then says how long it has to go."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Turn

    when = timezone.now() - timedelta(minutes=1)
    rows = Turn.objects.filter(game_id=game_id).order_by("-number")
    for number in rows.values_list("number", flat=True):
        Turn.objects.filter(game_id=game_id, number=number).update(created_at=when)
        when -= timedelta(seconds=rng.randint(25, 50))


def build_extra_games(base: str) -> dict[str, dict[str, Any]]:
    """A 30s game with healing where the next roller has points to heal, and a shorter game
    that two players share."""
    heal = new_game(base, ["Anna", "Ben", "Cleo"], "Sunday", "Søndag", preset="30s", healing=True)
    for total in (24, 30, 30):
        heal = enter_turn(base, heal, {"total": total})
    shared = new_game(
        base, ["Anna", "Ben", "Cleo"], "Saturday", "Lørdag", preset="30s", end="first_out"
    )
    shared = enter_turn(base, shared, {"total": 35, "hunt": 6})
    return {"heal": heal, "shared": shared}


def error_pages() -> dict[str, str]:
    """The 404, CSRF and 500 pages in Danish, as the app answers them with DEBUG off."""
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


def bad_host_page(lang: str) -> str:
    """The page of an address the app does not answer to, with DEBUG off, as a laptop without
    SITE_URL answers it: on its own names and its address on the network (a documentation
    address here, not this machine's)."""
    from django.test import Client, override_settings

    from thirty.network import LOOPBACK_NAMES

    hosts = [*LOOPBACK_NAMES, "192.0.2.2", "vm", "vm.local"]
    with override_settings(DEBUG=False, SITE_URL="", ALLOWED_HOSTS=hosts):
        visitor = Client(raise_request_exception=False, headers={"accept-language": lang})
        response = visitor.get("/", headers={"host": "thirty.local:8123"})
    if response.status_code != 400:
        raise SystemExit(f"the wrong address answered {response.status_code}, not 400")
    return response.content.decode()


def shoot(
    base: str,
    lan: str,
    game: dict[str, Any],
    extra: dict[str, dict[str, Any]],
    errors: dict[str, str],
    outdir: Path,
) -> list[Path]:
    """Every picture. The games the history shows come first, in each language in turn; the
    games of the later pictures are made after them, so that the history stays as it was."""
    from playwright.sync_api import sync_playwright

    taken: list[Path] = []
    resolve = f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, resolve]
        )
        try:
            for lang in LANGUAGES:
                TITLES.speak(lang)
                for size in SIZES:
                    taken += shoot_one(browser, base, game, outdir, size, lang)
                for size in SIZES:
                    for scheme in SCHEMES:
                        taken += shoot_pictures(browser, base, game, outdir, size, lang, scheme)
            for size in SIZES:
                taken += shoot_danish(browser, base, game, extra, errors, outdir, size)
            taken += shoot_cards(browser, base, outdir)
            taken += shoot_card_replay(browser, base, outdir)
            taken += shoot_dice(browser, base, outdir)
            taken += shoot_chances(browser, base, outdir)
            taken += shoot_plain_http(browser, base, lan, outdir)
            taken += shoot_table_screens(browser, base, outdir)
            taken += shoot_host_tools(browser, base, outdir)
            taken += shoot_turn_sound(browser, base, outdir)
            taken += shoot_deal_banner(browser, base, outdir)
            taken += shoot_jack_grid(browser, base, outdir)
            taken += shoot_computer_pace(browser, base, outdir)
            taken += shoot_turn_taken_back(browser, base, outdir)
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


def shot(
    page: Any, path: Path, taken: list[Path], *, full_page: bool = False, settle_ms: float = 300
) -> None:
    page.mouse.move(0, 0)  # no hover left on a row
    page.wait_for_timeout(settle_ms)  # let fonts and swaps settle
    page.screenshot(path=str(path), full_page=full_page)
    taken.append(path)


def snapper(outdir: Path, size: str, lang: str, taken: list[Path]) -> Any:
    """Pictures named <name>-<size>-<lang>.png."""

    def snap(page: Any, name: str, *, full_page: bool = False) -> None:
        shot(page, outdir / f"{name}-{size}-{lang}.png", taken, full_page=full_page)

    return snap


def host_cookie(base: str, game: dict[str, Any]) -> dict[str, str]:
    return {"name": f"thirty_host_{game['id']}", "value": game["host_key"], "url": base}


def each_view() -> Iterator[tuple[str, str]]:
    """Every language and size, a language's pictures together: the language's names first."""
    for lang in LANGUAGES:
        TITLES.speak(lang)
        for size in SIZES:
            yield lang, size


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
        share = page.locator("#share")
        share.scroll_into_view_if_needed()
        page.mouse.move(0, 0)
        page.wait_for_timeout(300)
        path = outdir / f"join-code-share-{lang}-{size}.png"
        share.screenshot(path=str(path))
        taken.append(path)

        context.add_cookies([host_cookie(base, game)])
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
        django_ready(env)
        game = build_games(base)
        extra = build_extra_games(base)
        errors = error_pages()
        taken = shoot(base, env["SITE_URL"], game, extra, errors, outdir)
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


def claim_card_seats(base: str, game: dict[str, Any]) -> dict[int, str]:
    """Each person's seat of a card game claimed through the API: its key, by seat from 1."""
    keys = {}
    for seat, link in enumerate(game["seat_keys"], start=1):
        if link is not None:
            path = f"/api/games/{game['id']}/seats/{seat}/claim"
            keys[seat] = card_call(base, path, {}, link)["seat_key"]
    return keys


def highest_card_move(base: str, game: dict[str, Any], keys: dict[int, str]) -> dict[str, Any]:
    """The seat to move plays the card that takes the total highest, so that the deal soon
    ends; the state after it."""
    from games.rules.cards import Move, resolve

    def highest(state: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        deal = state["deal"]
        return max(legal, key=lambda move: resolve(deal["total"], deal["colour"], Move(**move))[0])

    return card_move(base, game, keys, highest)


def card_move(
    base: str,
    game: dict[str, Any],
    keys: dict[int, str],
    pick: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]],
) -> dict[str, Any]:
    """The seat to move plays the legal card `pick` chooses; the state after it."""
    state = card_call(base, f"/api/games/{game['id']}", None, keys[min(keys)])
    mover = state["deal"]["to_move"]
    legal = card_call(base, f"/api/games/{game['id']}", None, keys[mover])["legal"]
    move = pick(state, legal) | {"version": state["version"]}
    return card_call(base, f"/api/games/{game['id']}/moves", move, keys[mover])


def build_card_game(base: str) -> tuple[dict[str, Any], dict[int, str]]:
    """A card game of Anna, Ben and a computer, a few cards in, on Anna's turn."""
    players = ["Anna", "Benjamin", {"name": "Robot", "computer": True}]
    game = new_game(base, players, "Cards at Helle’s", "Kort hos Helle", preset="cards", tokens=3)
    keys = claim_card_seats(base, game)
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
    for lang, size in each_view():
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
    game = new_game(base, players, "Cards at Helle’s", "Kort hos Helle", preset="cards", tokens=3)
    other = new_game(base, ["Ana", "Ben"], "Sunday", "Søndag")
    play(base, other, 1, random.Random(1))
    taken: list[Path] = []
    for lang, size in each_view():
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
    players = ["Anna", "Ben", {"name": "Robot", "computer": True}]
    game = new_game(base, players, "Dice night", "Terningaften")
    key, url = game["host_key"], f"{base}/g/{game['id']}/"
    taken: list[Path] = []
    for lang, size in each_view():
        snap = snapper(outdir, size, lang, taken)
        context = new_context(browser, size, lang)
        try:
            context.add_cookies([{"name": f"thirty_host_{game['id']}", "value": key, "url": base}])
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


def shoot_chances(browser: Any, base: str, outdir: Path) -> list[Path]:
    """The chances of Thirty and of 30s; the create form's estimate of a shorter 30s game,
    from the home page; and /join after a code that opens no game."""
    taken: list[Path] = []
    for lang, size in each_view():
        snap = snapper(outdir, size, lang, taken)
        context = new_context(browser, size, lang)
        try:
            page = context.new_page()
            page.goto(f"{base}/chances/", wait_until="load")
            snap(page, "chances", full_page=True)
            page.goto(f"{base}/chances/?preset=30s", wait_until="load")
            snap(page, "chances-30s", full_page=True)
            page.goto(f"{base}/", wait_until="load")
            for field in ("input[name=preset][value='30s']", "input[name=first_out]"):
                with page.expect_response(lambda answer: "/estimate" in answer.url):
                    page.locator(field).check()
            page.locator("#estimate strong").wait_for()
            page.locator("#estimate").evaluate("e => e.scrollIntoView({block: 'center'})")
            snap(page, "chances-estimate")
            page.goto(f"{base}/join?code=XYZZY", wait_until="load")
            shot(page, outdir / f"join-page-{lang}-{size}.png", taken)
        finally:
            context.close()
    return taken


def shoot_plain_http(browser: Any, base: str, lan: str, outdir: Path) -> list[Path]:
    """The host's page opened by the laptop's name (no secure context), with its line on
    what the phones miss; the page on serving https; and the page of an address the app
    does not answer to."""
    game = new_game(base, ["Anna", "Ben"])
    taken: list[Path] = []
    views = [("notice", "en", "phone"), ("notice", "da", "laptop")]
    views += [("https", "en", "laptop"), ("https", "da", "phone")]
    views += [("400", "en", "laptop"), ("400", "da", "phone")]
    for name, lang, size in views:
        context = new_context(browser, size, lang)
        path = outdir / f"plain-http-{name}-{lang}-{size}.png"
        try:
            page = context.new_page()
            if name == "notice":
                context.add_cookies([host_cookie(lan, game)])
                page.goto(f"{lan}/g/{game['id']}/", wait_until="load")
                page.locator("[data-insecure-notice]").wait_for()
                shot(page, path, taken)
            elif name == "https":
                page.goto(f"{base}/https/", wait_until="load")
                shot(page, path, taken, full_page=True)
            else:
                page.goto(f"{base}/healthz", wait_until="load")  # its links resolve against it
                page.set_content(bad_host_page(lang), wait_until="load")
                shot(page, path, taken)
        finally:
            context.close()
    return taken


def shoot_table_screens(browser: Any, base: str, outdir: Path) -> list[Path]:
    """The table screen (/g/<id>/table) of a card game a person and two computers are about
    to play, and of a dice game six turns in (the sixth rolled by the app), Cleo rolling the
    seventh."""
    from games.kinds.dice import moves as dice_moves
    from games.kinds.dice import stored
    from games.rules.dice import bot as dice_bot
    from games.rules.dice.rolled import Action

    computers = [{"name": name, "computer": True} for name in ("Bot", "Bo")]
    cards = new_game(base, ["Anna", *computers], "Cards", "Kort", preset="cards")
    dice = new_game(base, ["Anna", "Ben", "Cleo", "Dan"], "Friday night", "Fredag aften")
    for total, hunt in ((33, 2), (24, None), (31, 1), (28, None), (35, 3)):
        dice = enter_turn(base, dice, {"total": total} | ({"hunt": hunt} if hunt else {}))
    # Ben's turn with the app's dice, played as the computer would, then Cleo's first roll.
    rolling = dice_moves.roll(dice["id"], Action())
    while dice_moves.row_written(rolling) is None:
        turn = stored.rolling_turn(rolling.game)
        assert turn is not None
        rolling = dice_moves.roll(dice["id"], dice_bot.rolled_action(turn))
    dice_moves.roll(dice["id"], Action())
    views = [("cards", cards, "en", "phone"), ("dice", dice, "en", "laptop")]
    views += [("cards", cards, "da", "laptop"), ("dice", dice, "da", "phone")]
    views += [("dice", dice, "en", "phone"), ("dice", dice, "da", "laptop")]
    taken: list[Path] = []
    spoken = ""
    for kind, game, lang, size in views:
        if lang != spoken:
            TITLES.speak(lang)
            spoken = lang
        context = new_context(browser, size, lang)
        try:
            page = context.new_page()
            page.goto(f"{base}/g/{game['id']}/table", wait_until="load")
            shot(page, outdir / f"table-screen-{kind}-{lang}-{size}.png", taken)
        finally:
            context.close()
    return taken


def shoot_host_tools(browser: Any, base: str, outdir: Path) -> list[Path]:
    """The host's page before the first turn: "Someone leaving?" open; and who is at the
    table, one seat's phone here (as its event stream notes it)."""
    from games import presence

    leaving = new_game(base, ["Anna", "Ben"])
    table = new_game(base, ["Anna", "Ben", "Cleo"])
    taken: list[Path] = []
    for lang, size in each_view():
        context = new_context(browser, size, lang)
        try:
            context.add_cookies([host_cookie(base, leaving), host_cookie(base, table)])
            page = context.new_page()
            page.goto(f"{base}/g/{leaving['id']}/", wait_until="load")
            hand_over = page.locator("#hand-over")
            hand_over.evaluate("details => { details.open = true; }")
            hand_over.evaluate("e => e.scrollIntoView({block: 'center'})")
            shot(page, outdir / f"hand-over-{lang}-{size}.png", taken)
            presence.seen(table["id"], 1)  # Ben's phone
            page.goto(f"{base}/g/{table['id']}/", wait_until="load")
            page.locator("#presence .seat-presence.here").wait_for()
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            shot(page, outdir / f"presence-{lang}-{size}.png", taken)
        finally:
            context.close()
    return taken


def open_seat(page: Any, base: str, game: dict[str, Any], seat: int) -> None:
    """Open a dice game's seat link (seat from 1), so that this phone holds the seat."""
    page.goto(f"{base}/g/{game['id']}/seat#{game['seat_keys'][seat - 1]}", wait_until="load")
    page.wait_for_url(f"{base}/g/{game['id']}/")
    page.wait_for_load_state("load")


def shoot_turn_sound(browser: Any, base: str, outdir: Path) -> list[Path]:
    """A seat's phone on its turn, its sound on (whole page)."""
    from games import presence

    game = new_game(base, ["Anna", "Ben", "Cleo"])
    taken: list[Path] = []
    for lang, size in each_view():
        context = new_context(browser, size, lang)
        try:
            # The phone's own seat is at the table: noted before the page asks who is, not
            # after, as its stream would.
            presence.seen(game["id"], 0)
            context.add_init_script("localStorage.setItem('thirty-turn-sound', 'on')")
            page = context.new_page()
            open_seat(page, base, game, 1)
            page.locator("#turn-panel .totals").wait_for()
            page.locator("#turn-sound[aria-pressed=true]").wait_for()
            shot(page, outdir / f"turn-sound-{lang}-{size}.png", taken, full_page=True)
        finally:
            context.close()
    return taken


def shoot_deal_banner(browser: Any, base: str, outdir: Path) -> list[Path]:
    """The banner a watcher sees as a card deal ends, on both sizes at once; and on a phone,
    the seat whose turn starts the next deal, its hand waiting until the banner goes."""
    taken: list[Path] = []
    for lang in LANGUAGES:
        game = new_game(base, ["Anna", "Ben"], preset="cards", tokens=2)
        keys = claim_card_seats(base, game)
        contexts = {size: new_context(browser, size, lang) for size in SIZES}
        seats = {seat: new_context(browser, "phone", lang) for seat in keys}
        try:
            pages = {size: context.new_page() for size, context in contexts.items()}
            for seat, context in seats.items():
                cookie = {"name": f"thirty_seat_{game['id']}", "value": keys[seat], "url": base}
                context.add_cookies([cookie])
            phones = {seat: context.new_page() for seat, context in seats.items()}
            for page in [*pages.values(), *phones.values()]:
                page.goto(f"{base}/g/{game['id']}/", wait_until="load")
            page.wait_for_timeout(500)  # the pages' event streams are open
            for _ in range(60):
                state = highest_card_move(base, game, keys)
                if state["deals"]:
                    break
            else:
                raise SystemExit("the first deal did not end")
            for size, page in pages.items():
                page.locator("#deal-banner:not([hidden])").wait_for()
                shot(page, outdir / f"cards-deal-banner-{lang}-{size}.png", taken)
            starter = phones[state["deal"]["to_move"]]  # seats from 1, as the API counts them
            starter.locator("#deal-banner:not([hidden])").wait_for()
            starter.locator("#hand fieldset:disabled").wait_for()
            shot(starter, outdir / f"cards-deal-banner-turn-{lang}-phone.png", taken)
        finally:
            for context in [*contexts.values(), *seats.values()]:
                context.close()
    return taken


def shoot_jack_grid(browser: Any, base: str, outdir: Path) -> list[Path]:
    """A phone's hand with a Jack on its turn at total 0: the Jack's values as a grid. The
    deals are the server's, so games are dealt until one fits; the others are deleted."""
    from games import store

    for _ in range(80):
        game = new_game(base, ["Anna", "Ben"], preset="cards")
        key = claim_card_seats(base, game)[1]
        state = card_call(base, f"/api/games/{game['id']}", None, key)
        if state["deal"]["to_move"] == 1 and any(card[0] == "J" for card in state["hand"]):
            break
        store.delete_game(game["id"])
    else:
        raise SystemExit("no deal gave Anna a Jack")
    taken: list[Path] = []
    for lang in LANGUAGES:
        context = new_context(browser, "phone", lang)
        try:
            cookie = {"name": f"thirty_seat_{game['id']}", "value": key, "url": base}
            context.add_cookies([cookie])
            page = context.new_page()
            page.goto(f"{base}/g/{game['id']}/", wait_until="load")
            page.locator("#hand details.choose:has(.choice-total) summary").click()
            page.locator("#hand .choice-total").wait_for()
            shot(page, outdir / f"cards-jack-grid-phone-{lang}.png", taken)
        finally:
            context.close()
    return taken


def shoot_computer_pace(browser: Any, base: str, outdir: Path) -> list[Path]:
    """A watcher's page a moment after a person's turn is typed in (PACE_SHOT_S after the page
    hears of it, some 3.4 s after the turn): the computers moved at once on the server, and
    the page shows their moves one by one (the table's pace), the newest highlighted, the
    sheet's points hidden until the last. A new game each time."""
    computers = [{"name": name, "computer": True} for name in ("Bot 1", "Bot 2")]
    taken: list[Path] = []
    for lang, size in each_view():
        game = new_game(base, ["Anna", *computers])
        context = new_context(browser, size, lang)
        try:
            page = context.new_page()
            page.goto(f"{base}/g/{game['id']}/", wait_until="load")
            page.wait_for_timeout(500)  # the page's event stream is open
            enter_turn(base, game, {"total": 27})
            # The pace starts when the page hears of the turn, which may take a poll: from
            # then on, so that the picture falls just after a move came in, as highlighted.
            page.locator("body.pacing").wait_for()
            heard = time.monotonic()
            page.mouse.move(0, 0)
            left_ms = (heard + PACE_SHOT_S - time.monotonic()) * 1000
            path = outdir / f"computer-pace-dice-{lang}-{size}.png"
            shot(page, path, taken, settle_ms=max(0, left_ms))
        finally:
            context.close()
    return taken


def shoot_turn_taken_back(browser: Any, base: str, outdir: Path) -> list[Path]:
    """Ben's phone, holding his seat, after the host typed in 25 and 28 and took back the
    last turn (Ben's): the phone says so. Every language and size follows at once."""
    game = new_game(base, ["Anna", "Ben"])
    views = [(lang, size) for lang in LANGUAGES for size in SIZES]
    contexts = [new_context(browser, size, lang) for lang, size in views]
    taken: list[Path] = []
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            open_seat(page, base, game, 2)
        page.wait_for_timeout(500)  # the pages' event streams are open
        enter_turn(base, game, {"total": 25})
        enter_turn(base, game, {"total": 28})
        api(base, f"/api/games/{game['id']}/turns/last", None, game["host_key"], "DELETE")
        for (lang, size), page in zip(views, pages, strict=True):
            page.locator("#seat-notice .notice").wait_for()
            page.locator("#turn-panel .totals").wait_for()
            shot(page, outdir / f"turn-taken-back-{lang}-{size}.png", taken)
    finally:
        for context in contexts:
            context.close()
    return taken


if __name__ == "__main__":
    main()
