"""Computers move at once on the server, and every phone shows their moves one by one at a
table's pace, highlighted: a dice computer's rolls, then its total, then its row; a card
computer's cards in the latest moves, the table's total dimmed until they are all shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from games import store
from games.kinds.cards import tournaments
from games.kinds.dice import moves as dice_moves
from games.rules import cards
from games.rules import dice as dice_rules
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language, pause_the_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Records when each paced move comes in (gets `pace-new`), first time only, in page time.
WATCH_REVEALS = """() => {
  window.reveals = [];
  const seen = new Set();
  new MutationObserver(() => {
    for (const el of document.querySelectorAll("[data-pace].pace-new")) {
      if (seen.has(el.dataset.pace)) continue;
      seen.add(el.dataset.pace);
      window.reveals.push([el.dataset.pace, performance.now()]);
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


def reveals(page: Any, count: int) -> list[tuple[str, float]]:
    page.wait_for_function(f"() => window.reveals.length >= {count}", timeout=30_000)
    shown: list[tuple[str, float]] = [tuple(pair) for pair in page.evaluate("window.reveals")]
    return shown


def assert_paced(shown: list[tuple[str, float]], pace_ms: int, *, real: bool = False) -> None:
    gaps = [later - earlier for (_, earlier), (_, later) in pairwise(shown)]
    # Each move stays the newest for the pace (a little less, for the timer's slack).
    assert gaps and min(gaps) >= pace_ms * 0.9, gaps
    if real:
        # At a table's own pace a person has at least a second to see each move.
        assert min(gaps) >= 1000, gaps


@pytest.mark.real_pace  # 1.5 s a move, as a table has it
def test_a_dice_computers_rolls_then_total_then_row_come_one_by_one(
    open_browser: Callable[..., Any],
) -> None:
    # One computer at the real pace (about ten moves of 1.5 s); two, one after the other, at a
    # quicker pace below. Both on a phone whose clock the test moves on, rather than waiting.
    watch_dice(open_browser, ENGLISH, django_settings.THIRTY_PACE_MS, computers=1, real=True)


def test_a_dice_computers_turn_is_paced_in_danish_too_and_on_the_table_screen(
    open_browser: Callable[..., Any], settings: Any
) -> None:
    settings.THIRTY_PACE_MS = 300
    watch_dice(open_browser, DANISH, 300, screen="table")


# Adds a computer's move to the page as an update's swap brings one: `add(key, order)`.
ADD_MOVE = """([key, order]) => {
  const move = document.createElement("p");
  move.dataset.pace = key;
  move.dataset.paceOrder = String(order);
  document.body.append(move);
  document.body.dispatchEvent(new CustomEvent("htmx:afterSwap", {bubbles: true}));
}"""


def test_a_move_whose_update_comes_after_the_others_were_shown_still_waits_its_turn(
    open_browser: Callable[..., Any], settings: Any
) -> None:
    """Under load a computer's moves can come in more than one update. One that comes after
    the page has shown all the others leaves the move before it the newest for the whole
    pace, rather than taking its place at once."""
    settings.THIRTY_PACE_MS = 300
    game, _ = dice_moves.create_game("Pace", ["Anna", "Ben"], dice_rules.RuleSet())
    phone = open_browser(PHONE)
    phone.goto(f"/g/{game.pk}/")
    phone.evaluate(WATCH_REVEALS)
    phone.evaluate(ADD_MOVE, ["first", 1])
    reveals(phone, 1)  # shown at once: nothing was newest before it
    phone.wait_for_timeout(100)
    phone.evaluate(ADD_MOVE, ["second", 2])
    shown = reveals(phone, 2)
    assert [key for key, _ in shown] == ["first", "second"]
    assert_paced(shown, 300)


def watch_dice(
    open_browser: Callable[..., Any],
    language: Language,
    pace_ms: int,
    *,
    screen: str = "",
    computers: int = 2,
    real: bool = False,
) -> None:
    """A phone follows a person's turn and the computers' after it (`screen="table"`: the
    table screen, phone-sized, whose latest moves wait for the dice with the sheet's rows).
    The phone's clock stops as the first move shows, and the test moves it on a pace at a
    time: the page keeps its pace by that clock alone. (The card computers' pace, the same
    script, is watched in real time below.)"""
    seats = range(1, computers + 1)
    game, _ = dice_moves.create_game(
        "Pace",
        ["Anna", *(f"Bot {seat}" for seat in seats)],
        dice_rules.RuleSet(),
        computers=list(seats),
    )
    phone = open_browser(PHONE, locale=language.locale)
    phone.clock.install()  # it runs as usual until it is paused below
    phone.goto(f"/g/{game.pk}/{screen}")
    expect(phone.locator("#sheet-rows tr")).to_have_count(0)
    phone.evaluate(WATCH_REVEALS)
    dice_moves.record_turn(game.pk, dice_rules.Turn(27))  # Anna's turn, typed in at the table
    # Until the computers' dice have fallen on this phone, the points would tell them.
    # The computers' dice come with the update of the version Anna's turn made: on a busy
    # machine (the suite on both cores) that update can take a few seconds to arrive.
    phone.wait_for_function("() => window.reveals.length >= 1", timeout=LIVE_TIMEOUT_MS * 6)
    pause_the_clock(phone)
    if pace_ms >= 1000:
        for spoiler in ("#sheet-foot", "#status"):
            expect(phone.locator(spoiler)).to_have_class(re.compile("pace-wait"))
    # Each computer's turn again, in order: its heading, its rolls, its total once the dice
    # have fallen, the hunt where it beat the target, and its row.
    expected = []
    numbers = [seat + 1 for seat in seats]  # the computers' turns follow Anna's first
    for number in numbers:
        robot = game.turns.get(number=number).data
        expected += [
            f"head-{number}",
            *(f"roll-{number}-{n}" for n in range(1, len(robot.get("rolls") or []) + 1)),
            f"total-{number}",
            *(f"hunt-{number}-{n}" for n in range(1, len(robot.get("hunt_rolls") or []) + 1)),
            f"row-{number}",
        ]
    for _ in expected:  # a pace at a time, as long as moves are left to show
        if phone.evaluate("window.reveals.length") >= len(expected):
            break
        phone.clock.run_for(pace_ms)
    phone.clock.resume()
    shown = reveals(phone, len(expected))
    assert [key for key, _ in shown] == expected
    assert_paced(shown, pace_ms, real=real)
    last = numbers[-1]
    expect(phone.locator(f"#turn-{last}")).to_be_visible()
    # Once shown, only the last computer's turn stays above the sheet.
    expect(phone.locator(".recap.earlier")).to_be_hidden()
    expect(phone.locator(".recap:not(.earlier) .tray-status")).to_contain_text(str(last))
    expect(phone.locator("#sheet-foot")).not_to_have_class(re.compile("pace-wait"))
    expect(phone.locator(f"#turn-{last} .by-computer")).to_be_visible()
    if screen == "table":
        # The newest of the latest moves, the computers' rows, each marked as theirs.
        latest = phone.locator("#latest-moves li:visible")
        expect(latest).to_have_count(len(numbers))
        for item, number in zip(latest.all(), reversed(numbers), strict=True):
            expect(item).to_have_attribute("data-pace", f"row-{number}")
            expect(item.locator(".by-computer")).to_be_visible()


@pytest.mark.parametrize(
    "language",
    [
        pytest.param(ENGLISH, id="en"),
        # 1.5 s a move, as a table has it: the one card test at the real pace.
        pytest.param(DANISH, id="da-real-pace", marks=[pytest.mark.real_pace, pytest.mark.waits]),
    ],
)
def test_a_card_computers_moves_are_shown_one_by_one_and_marked(
    open_browser: Callable[..., Any],
    request: pytest.FixtureRequest,
    settings: Any,
    language: Language,
) -> None:
    real = request.node.get_closest_marker("real_pace") is not None
    pace_ms = django_settings.THIRTY_PACE_MS if real else 300
    settings.THIRTY_PACE_MS = pace_ms
    game, _ = tournaments.create_card_game(
        "Pace",
        [
            store.Player("Anna"),
            store.Player("Bo", computer=True),
            store.Player("Cy", computer=True),
        ],
        cards.CardRules(),
    )
    phone = open_browser(PHONE, locale=language.locale)
    phone.goto(f"/g/{game.pk}/")
    expect(phone.locator("#running-total")).to_be_visible()
    phone.evaluate(WATCH_REVEALS)
    # Anna plays until the computers answer with two moves or more at once (a deal that
    # ends can leave the next move to her again).
    for _ in range(10):
        game.refresh_from_db()  # the state is looked up at the version the game object has
        state = tournaments.load_tournament(game)
        assert state.to_move() == 0
        played = store.play(game.pk, 0, state.legal_moves()[0])
        shown_version = "v => Number(document.body.dataset.version) >= v"
        phone.wait_for_function(shown_version, arg=played.game.version)
        fresh = phone.evaluate(
            "() => new Set([...document.querySelectorAll('.card-log [data-pace]')]"
            ".map(el => el.dataset.pace).filter(key => !window.reveals.some(([k]) => k === key)))"
            ".size + window.reveals.length"
        )
        if fresh >= 2:
            break
    # The computers' cards come in one by one, each marked as the computer's.
    shown = reveals(phone, fresh)
    assert all(key.startswith("move-") for key, _ in shown)
    assert [int(key[5:]) for key, _ in shown] == sorted(int(key[5:]) for key, _ in shown)
    assert_paced(shown, pace_ms, real=real)
    assert phone.locator("#card-area .card-log li .by-computer").count() >= 2
    # Once every move is shown, the table's total is no longer dimmed.
    expect(phone.locator(".table-center")).not_to_have_class(
        re.compile("pace-wait"), timeout=10_000
    )
