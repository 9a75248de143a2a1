"""Dice made by the whole table, on three phones at phone size, each in its own language:
every phone's SHA-256 is on every screen before the first roll; a roll from the tray carries
the roller's part and waits, and every other phone sends its own part of it by itself once it
sees the roll waiting (the rest of the game is rolled through the API, the test sending each
phone's part as its page would, over its session); a phone that leaves mid-game, after
rolling, holds one roll up for the wait and no more (the phones still there ask for it to be
made) and does not stop the game (the host rolls for its seat); and at the end the check page,
in further browsers (anyone may check), rolls every die again, says they match, names the
rolls with a part it could not check, and lists whose parts went into each roll."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from games import store
from games.models import Game
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

# How long the test waits for an answer from the live server, which shares the machine's two
# cores with three browsers rendering every update of a game rolled at full speed: under a
# busy run a plain read has taken more than the 5 s a page waits for a change.
ANSWER_TIMEOUT_MS = LIVE_TIMEOUT_MS * 6

WORDS = {
    "en": {
        "option": "Dice made by the whole table",
        "roll": "Roll with the app instead",
        "host": "The host’s phone",
        "some": "Every die matches the seed and the parts",
        "unchecked": "Ben did not show the secret, so the parts in {rolls} rolls cannot be"
        " checked:",
        "whose": "Whose parts went into each roll",
    },
    "da": {
        "option": "Terninger, som hele bordet laver",
        "roll": "Slå med appen",
        "host": "Værtens telefon",
        "some": "Alle terninger passer med startværdien og delene",
        "unchecked": "Ben viste ikke sin hemmelighed, så delene i {rolls} slag kan ikke"
        " kontrolleres:",
        "whose": "Hvis dele der gik ind i hvert slag",
    },
}


def secret_of(page: Any, game_id: str) -> str:
    secret: str = page.evaluate(f"localStorage.getItem('thirty-table-secret-{game_id}')")
    return secret


def asked_to_finish(request: Any) -> list[str]:
    """The roll a page's request asks to be made without the parts that did not come."""
    if request.method != "POST" or not request.url.endswith("/table-dice"):
        return []
    return parse_qs(request.post_data or "").get("finish", [])


def part(secret: str, label: str) -> str:
    message = f"thirty:part:{label}".encode()
    return hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()


class Sender:
    """A phone's part of each roll sent for it over its own session (its cookies and CSRF
    token), just as its page sends it. The first rolls of each phone's own tray show the
    pages doing it by themselves; the rest of the game is rolled through the API, and the
    test sends the parts too, so that each roll is made at once rather than after every
    page's update on a machine that the three phones and the server share."""

    def __init__(self, page: Any, game_id: str) -> None:
        self.page, self.secret = page, secret_of(page, game_id)
        self.url = f"/g/{game_id}/table-dice"
        token = json.loads(page.get_attribute("body", "hx-headers") or "{}")["X-CSRFToken"]
        self.headers = {"X-CSRFToken": token, "Referer": page.url}

    def send(self, label: str) -> None:
        answer = self.page.request.post(
            self.url,
            form={"label": label, "part": part(self.secret, label)},
            headers=self.headers,
            timeout=ANSWER_TIMEOUT_MS,
        )
        assert answer.status == 204, answer.text()


def game_state(page: Any, url: str) -> dict[str, Any]:
    """The game as the API shows it to the page's phone."""
    return dict(page.request.get(url, timeout=ANSWER_TIMEOUT_MS).json())


def rolled(page: Any, url: str, answer: Any, others: Sequence[Sender]) -> dict[str, Any]:
    """The state once the roll asked for is made: at once, or (202) once the other phones
    sent their parts, or the wait for a phone gone ran out and the pages still there asked
    for it to be made."""
    assert answer.ok, answer.text()
    state = dict(answer.json())
    if state["table_waiting"] is not None:
        for other in others:
            other.send(state["table_waiting"]["label"])
        state = game_state(page, url)  # the last part made it, most often
    for _ in range(400):
        if state["table_waiting"] is None:
            return state
        page.wait_for_timeout(50)
        state = game_state(page, url)
    raise AssertionError(f"the roll {state['table_waiting']} was never made")


class Roller:
    """A phone that rolls whole turns through the API with its key and its own parts; the
    phones still at the table (`others`) send theirs once each roll waits for them."""

    def __init__(self, page: Any, game_id: str, key: dict[str, str]) -> None:
        self.page, self.key, self.secret = page, key, secret_of(page, game_id)
        self.url = f"/api/games/{game_id}"
        self.others: Sequence[Sender] = ()
        # Keeps every die of the first roll: a total of six dice, most often far below 30, a
        # failed turn, which costs a point in this test's game.
        self.hasty = False

    def state(self) -> dict[str, Any]:
        return game_state(self.page, self.url)

    def step(self, body: dict[str, Any], state: dict[str, Any]) -> Any:
        sent = body | {"version": state["version"], "part": part(self.secret, state["table_label"])}
        answer = self.page.request.post(
            f"{self.url}/roll",
            data=json.dumps(sent),
            headers={"Content-Type": "application/json"} | self.key,
            timeout=ANSWER_TIMEOUT_MS,
        )
        return rolled(self.page, self.url, answer, self.others)

    def turn(self) -> dict[str, Any]:
        """The rest of the turn under way, or a whole one."""
        state = self.state()
        if state["turn_in_progress"] is None:
            state = self.step({}, state)
        while (turn := state["turn_in_progress"]) is not None:
            dice = turn["rolls"][-1]["dice"]
            # Every five and six, or the highest die: a few rolls a turn, often above 30.
            keep = dice if self.hasty else [die for die in dice if die >= 5] or [max(dice)]
            body: dict[str, Any] = {"keep": keep} if turn["ask"] == "keep" else {"hunt": True}
            state = self.step(body, state)
        return state


@pytest.mark.slow
def test_three_phones_make_the_dice_and_one_leaves_after_rolling(
    open_browser: Callable[..., Any], settings: Any
) -> None:
    # A table of both languages, each phone in its own: the host's and Ben's in Danish,
    # Anna's in English; the check page is read in both.
    # A roll waits this long for a phone's part: longer than at a table (4 s), since a phone
    # here shares a busy machine with the others and the server, and must not be taken for
    # asleep because its part came late.
    settings.THIRTY_TABLE_ROLL_WAIT_SECONDS = 8
    host = open_browser(PHONE, locale=DANISH.locale)
    host.goto("/")
    inputs = host.locator('#create-form input[name="player"]')
    inputs.nth(0).fill("Anna")
    inputs.nth(1).fill("Ben")
    for extra in range(inputs.count() - 1, 1, -1):
        inputs.nth(extra).fill("")
    # A failed turn costs a point: the host, who plays Ben's seat hastily once Ben has left,
    # fails nearly every turn, so the game ends a few turns later (with a failure costing
    # nothing it took forty turns of Anna's hunts).
    host.get_by_label(re.compile("^" + re.escape(DANISH.starting_points))).fill("6")
    host.locator('input[name="on_failure"][value="one"]').check()
    host.get_by_text(WORDS[DANISH.code]["option"], exact=True).click()
    host.get_by_role("button", name=DANISH.start).click()
    expect(host).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    game = Game.objects.get()
    assert game.table_dice
    links = [host.locator(f"#seat-link-{seat}").input_value() for seat in (1, 2)]
    anna = open_browser(PHONE, locale=ENGLISH.locale)
    anna.goto(links[0])
    ben = open_browser(PHONE, locale=DANISH.locale)
    ben.goto(links[1])
    # The rolls each page asks to be made without the parts still missing.
    finishes: set[str] = set()
    for page in (host, anna, ben):
        page.on("request", lambda request: finishes.update(asked_to_finish(request)))

    # Before the first roll, every phone shows the three SHA-256s, which match the secrets.
    secrets = [secret_of(page, game.pk) for page in (host, anna, ben)]
    for page in (host, anna, ben):
        expect(page.locator("#table-dice .table-parts li")).to_have_count(
            3, timeout=LIVE_TIMEOUT_MS
        )
        shown = page.locator("#table-dice code").evaluate_all("els => els.map(e => e.title)")
        assert sorted(shown) == sorted(
            hashlib.sha256(bytes.fromhex(secret)).hexdigest() for secret in secrets
        )

    # Anna rolls from her tray; the roll waits for the host's and Ben's phones, which send
    # their parts by themselves, and then her phone shows the dice.
    anna.get_by_role("button", name=WORDS[ENGLISH.code]["roll"]).click()
    expect(anna.locator("#turn-panel .pick")).to_have_count(6, timeout=LIVE_TIMEOUT_MS * 4)
    first = game.table_rolls.get()
    assert [entry["seat"] for entry in first.parts] == [None, 0, 1]
    host_key = {
        "X-Host-Key": next(
            c["value"] for c in host.context.cookies() if c["name"] == f"thirty_host_{game.pk}"
        )
    }
    senders = {page: Sender(page, game.pk) for page in (host, anna, ben)}
    by_anna = Roller(anna, game.pk, {"X-Seat-Key": links[0].split("#")[1]})
    by_anna.others = [senders[host], senders[ben]]
    by_host = Roller(host, game.pk, host_key)
    by_host.others = [senders[anna]]
    state = by_anna.turn()  # the rest of her turn

    # A phone whose part came too late counts as asleep: its page joins again by itself,
    # whenever it sees so, and the rolls wait for it again.
    game.table_parts.filter(seat__isnull=True).update(asleep=True)
    store.rename_game(game.pk, "Friday")  # any change: every page is updated
    wait_until(
        host,
        lambda: not game.table_parts.get(seat__isnull=True).asleep,
        seconds=10,
        why=lambda: "the host's phone did not join again",
    )

    # Ben rolls his own turn, from his tray and then his phone's key, and leaves mid-game.
    assert state["next_roller"] == 2 and not state["finished"]
    game.refresh_from_db()  # Ben's tray asks at the version it shows: the latest
    expect(ben.locator("#table-dice")).to_have_attribute(
        "data-version", str(game.version), timeout=LIVE_TIMEOUT_MS * 4
    )
    ben.get_by_role("button", name=WORDS[DANISH.code]["roll"]).click()
    expect(ben.locator("#turn-panel .pick")).to_have_count(6, timeout=LIVE_TIMEOUT_MS * 4)
    by_ben = Roller(ben, game.pk, {"X-Seat-Key": links[1].split("#")[1]})
    by_ben.others = [senders[host], senders[anna]]
    state = by_ben.turn()
    bens_turn = len(state["turns"])
    ben.context.close()
    by_anna.others = [senders[host]]  # Ben's phone sends nothing now
    # From here the test sends every part itself as soon as a roll is asked for, so a roll
    # waits only for Ben's: no phone still there can be late, and the wait need not be long.
    settings.THIRTY_TABLE_ROLL_WAIT_SECONDS = 1

    # The game goes on: Anna rolls hers, the host rolls Ben's with the host's phone. The first
    # roll after Ben left waits for his part until the phones still there ask for it to be
    # made without; his phone counts as asleep then, and no roll waits for it again. The host
    # plays Ben's seat hastily (and fails), so that the game soon ends.
    by_host.hasty = True
    while not state["finished"]:
        state = (by_anna if state["next_roller"] == 1 else by_host).turn()
        assert len(state["turns"]) < 100
    assert game.table_parts.get(seat=1).asleep
    assert len(state["turns"]) > bens_turn, "the game ended on Ben's turn: no roll after"

    # Only a roll that really waited past its time was asked for: the one Ben's phone held
    # up, and at most a slow phone's, not the dozens made as soon as every part came.
    assert 1 <= len(finishes) <= 3 < game.table_rolls.count(), finishes

    # The two phones still open show their secrets by themselves; Ben's is gone. Each page
    # first works through the updates of a game rolled through the API at full speed, which
    # on a machine that the phones and the server share can take a while.
    pages = (("the host's", host), ("Anna's", anna))
    unrevealed = game.table_parts.exclude(seat=1).filter(secret="")

    def not_shown() -> str:
        game.refresh_from_db()
        shows = {who: page.evaluate("JSON.stringify(document.body.dataset)") for who, page in pages}
        seats = list(unrevealed.values_list("seat", flat=True))
        return f"not shown: {seats}; version {game.version}; pages {shows}"

    wait_until(host, lambda: not unrevealed.exists(), seconds=60, why=not_shown)
    for who, page in pages:
        shown = expect(page.locator("#table-dice .shown"), f"{who} page: both secrets shown")
        shown.to_have_count(2, timeout=LIVE_TIMEOUT_MS * 4)

    # Anyone with the game's link can check it: here a fourth and a fifth browser, one in
    # each language.
    with_ben = [
        f"{roll.number}.{roll.step + 1}"
        for roll in game.table_rolls.all()
        if any(entry["seat"] == 1 for entry in roll.parts)
    ]
    assert any(name.startswith(f"{bens_turn}.") for name in with_ben)
    for language in (ENGLISH, DANISH):
        checker = open_browser(PHONE, locale=language.locale)
        checker.goto(f"/g/{game.pk}/check")
        expect_the_check(checker, WORDS[language.code], game, with_ben)


def expect_the_check(checker: Any, words: dict[str, str], game: Game, with_ben: list[str]) -> None:
    """The check page rolls every die again: they match, the rolls with a part of Ben's
    (his own and those he sent parts of before he left, none after) are named as unchecked,
    all the others are checked whole, and it lists whose parts went into each roll."""
    result = checker.locator("#check-result")
    expect(result).to_have_attribute("data-result", "match", timeout=LIVE_TIMEOUT_MS)
    expect(result).to_contain_text(words["some"])
    unchecked = checker.locator(".check-dice .unchecked")
    expect(unchecked).to_have_count(1)
    expect(unchecked).to_contain_text(words["unchecked"].format(rolls=len(with_ben)))
    assert unchecked.locator(".roll-names").inner_text().split(", ") == with_ben
    total = game.table_rolls.count()
    assert result.get_attribute("data-checked") == str(total - len(with_ben))
    assert int(result.get_attribute("data-checked") or 0) > 0
    # Whose parts went into each roll: every phone's in the first, no Ben's after he left.
    checker.get_by_text(words["whose"]).click()
    rolls = checker.locator(".roll-parts li")
    expect(rolls).to_have_count(total)
    expect(rolls.first).to_have_text(f"1.1 {words['host']}, Anna, Ben")
    expect(rolls.last).to_have_text(re.compile(rf"^\d+\.\d+ {re.escape(words['host'])}, Anna$"))
    expect(checker.locator("#table-dice .shown")).to_have_count(0)  # not on the check page
