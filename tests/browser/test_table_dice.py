"""Dice made by the whole table, on three phones: every phone's SHA-256 is on every screen
before the first roll, a roll from the tray carries the roller's part, a phone that leaves
mid-game does not stop the game, and at the end the check page rolls every die again in the
browser and says they match, naming the phone whose rolls it could not check."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import LIVE_TIMEOUT_MS, PHONE
from tests.browser.helpers import DANISH, ENGLISH, Language

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

WORDS = {
    "en": {"option": "Dice made by the whole table", "roll": "Roll with the app instead"},
    "da": {"option": "Terninger, som hele bordet laver", "roll": "Slå med appen"},
}


@pytest.fixture(params=[ENGLISH, DANISH], ids=str)
def language(request: pytest.FixtureRequest) -> Language:
    return request.param  # type: ignore[no-any-return]


def secret_of(page: Any, game_id: str) -> str:
    secret: str = page.evaluate(f"localStorage.getItem('thirty-table-secret-{game_id}')")
    return secret


def part(secret: str, version: int) -> str:
    message = f"thirty:part:v:{version}".encode()
    return hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()


def roll_turn(page: Any, url: str, key: dict[str, str], secret: str) -> dict[str, Any]:
    """A whole turn through the API, with this phone's key and its parts."""

    def step(body: dict[str, Any], version: int) -> dict[str, Any]:
        answer = page.request.post(
            url,
            data=json.dumps(body | {"version": version, "part": part(secret, version)}),
            headers={"Content-Type": "application/json"} | key,
        )
        assert answer.ok, answer.text()
        return dict(answer.json())

    state = dict(page.request.get(url.removesuffix("/roll")).json())
    if state["turn_in_progress"] is None:
        state = step({}, state["version"])
    while (turn := state["turn_in_progress"]) is not None:
        body: dict[str, Any] = (
            {"keep": [max(turn["rolls"][-1]["dice"])]} if turn["ask"] == "keep" else {"hunt": True}
        )
        state = step(body, state["version"])
    return state


def test_three_phones_make_the_dice_and_the_check_page_proves_them(
    open_browser: Callable[..., Any], language: Language
) -> None:
    words = WORDS[language.code]
    host = open_browser(PHONE, locale=language.locale)
    host.goto("/")
    inputs = host.locator('#create-form input[name="player"]')
    inputs.nth(0).fill("Anna")
    inputs.nth(1).fill("Ben")
    for extra in range(inputs.count() - 1, 1, -1):
        inputs.nth(extra).fill("")
    host.get_by_label(re.compile("^" + re.escape(language.starting_points))).fill("5")
    host.get_by_text(words["option"], exact=True).click()
    host.get_by_role("button", name=language.start).click()
    expect(host).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    game = Game.objects.get()
    assert game.table_dice
    anna = open_browser(PHONE, locale=language.locale)
    anna.goto(host.locator("#seat-link-1").input_value())
    ben = open_browser(PHONE, locale=language.locale)
    ben_link = host.locator("#seat-link-2").input_value()
    ben.goto(ben_link)

    # Before the first roll, every phone shows the three SHA-256s, which match the secrets.
    secrets = {
        name: secret_of(page, game.pk)
        for name, page in (("host", host), ("anna", anna), ("ben", ben))
    }
    for page in (host, anna, ben):
        expect(page.locator("#table-dice .table-parts li")).to_have_count(
            3, timeout=LIVE_TIMEOUT_MS
        )
        shown = page.locator("#table-dice code").evaluate_all("els => els.map(e => e.title)")
        assert sorted(shown) == sorted(
            hashlib.sha256(bytes.fromhex(secret)).hexdigest() for secret in secrets.values()
        )

    # Anna rolls from her tray: the roll carries her part.
    anna.get_by_role("button", name=words["roll"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(6)
    first = game.table_rolls.get()
    assert first.seat == 0 and first.part == part(secrets["anna"], int(first.label[2:]))
    url = f"/api/games/{game.pk}/roll"
    anna_key = {"X-Seat-Key": host.locator("#seat-link-1").input_value().split("#")[1]}
    state = roll_turn(anna, url, anna_key, secrets["anna"])  # finish her turn
    # Ben's phone leaves before his turn; the host rolls for him from then on.
    ben.context.close()
    host_key = {
        "X-Host-Key": next(
            c["value"] for c in host.context.cookies() if c["name"] == f"thirty_host_{game.pk}"
        )
    }
    for _ in range(200):
        if state["finished"]:
            break
        if state["next_roller"] == 1:
            state = roll_turn(anna, url, anna_key, secrets["anna"])
        else:
            state = roll_turn(host, url, host_key, secrets["host"])
    assert state["finished"]

    # The phones still open show their secrets by themselves; Ben's phone is gone.
    for page in (host, anna):
        page.wait_for_function(
            "() => document.getElementById('table-dice').dataset.finished === '1'",
            timeout=LIVE_TIMEOUT_MS * 4,
        )

    def revealed() -> list[int | None]:
        return list(game.table_parts.exclude(secret="").values_list("seat", flat=True))

    for _ in range(100):  # each phone sends its secret by itself, again if it did not arrive
        if sorted(revealed(), key=str) == sorted([None, 0], key=str):
            break
        host.wait_for_timeout(200)
    assert sorted(revealed(), key=str) == sorted([None, 0], key=str)
    checker = open_browser(PHONE, locale=language.locale)
    checker.goto(f"/g/{game.pk}/check")
    result = checker.locator("#check-result")
    expect(result).to_have_attribute("data-result", "match", timeout=LIVE_TIMEOUT_MS)
    ben_rolls = game.table_rolls.filter(seat=1).count()
    checked = int(result.get_attribute("data-checked") or 0)
    assert checked == game.table_rolls.count() - ben_rolls > 0
    expect(checker.locator(".check-dice")).to_contain_text("Ben")  # left before his reveal
    expect(checker.locator("#table-dice .shown")).to_have_count(0)  # not on the check page
    checker.goto(f"/g/{game.pk}/")
    expect(checker.locator("#table-dice .shown")).to_have_count(2)
