"""The dice game's page says how long the game has to go at the table's own pace."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games import cache, transfer
from games.kinds.dice import moves as dice_moves
from games.kinds.dice import pace, stored
from games.models import Game, Turn
from games.rules import dice as dice_rules
from games.rules.dice import estimate as estimates
from tests.factories import make_game, play

pytestmark = pytest.mark.django_db

DA = {"accept-language": "da"}
LINE = re.compile(r"At this table’s pace \((\d+) s a turn\) about ([^.]+) to go\.")
LINE_DA = re.compile(r"I bordets tempo \((\d+) s pr\. tur\) er der cirka ([^.]+) tilbage\.")
MISS = dice_rules.Turn(20)


def spaced(game: Game, seconds: Sequence[float], *, forget: bool = True) -> None:
    """Write the game's rows as if each came `seconds[i]` after the one before (the first
    an hour ago), and forget what was worked out from them (unless `forget` is False)."""
    when = timezone.now() - timedelta(hours=1)
    for number, gap in enumerate([0.0, *seconds], start=1):
        when += timedelta(seconds=gap)
        Turn.objects.filter(game=game, number=number).update(created_at=when)
    if forget:
        cache.clear()


def minutes_of(shown: str) -> int:
    hours = re.search(r"(\d+)\s[ht]\b", shown)
    minutes = re.search(r"(\d+)\smin", shown)
    return (int(hours[1]) * 60 if hours else 0) + (int(minutes[1]) if minutes else 0)


def expected_minutes(game: Game, seconds: float, people: frozenset[int]) -> int:
    turns = estimates.remaining(stored.position_of(game), people)
    return max(5, round(turns * seconds / 60 / 5) * 5)


def test_a_game_in_progress_says_how_long_it_has_to_go_at_the_tables_pace() -> None:
    game = play(make_game(), *[MISS] * 6)
    spaced(game, [35, 30, 40, 35, 50])
    html = Client().get(f"/g/{game.pk}/").content.decode()
    found = LINE.search(html)
    assert found is not None, html
    assert found[1] == "35"  # the median of the turns' times
    everyone = frozenset(range(4))
    assert minutes_of(found[2]) == expected_minutes(game, 35, everyone)
    # About a whole game of four on 30 points is left: some 200 turns at 35 s.
    assert 90 <= minutes_of(found[2]) <= 180
    danish = LINE_DA.search(Client().get(f"/g/{game.pk}/", headers=DA).content.decode())
    assert danish is not None and danish[1] == "35"
    assert minutes_of(danish[2]) == minutes_of(found[2])


def test_it_says_nothing_before_the_table_has_played_a_few_turns() -> None:
    game = play(make_game(), MISS, MISS)
    spaced(game, [30])
    html = Client().get(f"/g/{game.pk}/").content.decode()
    assert 'id="time-to-go"' in html and "table’s pace" not in html


def test_a_long_break_does_not_change_the_pace() -> None:
    game = play(make_game(), *[MISS] * 6)
    spaced(game, [30, 30, 45 * 60, 30, 40])
    found = LINE.search(Client().get(f"/g/{game.pk}/").content.decode())
    assert found is not None and found[1] == "30"


def test_only_the_turns_people_play_are_timed_and_counted() -> None:
    # Ben and Dan are computers: their rows are written the moment the turn before them is.
    game, _host_key = dice_moves.create_game(
        "Friday", ["Anna", "Ben", "Cleo", "Dan"], dice_rules.RuleSet(), computers=[1, 3]
    )
    for _ in range(4):
        dice_moves.record_turn(game.pk, MISS)
    game.refresh_from_db()
    rows = list(Turn.objects.filter(game=game).values_list("by_computer", flat=True))
    assert rows == [False, True] * 4
    spaced(game, [0, 40, 0, 40, 0, 40, 0])
    found = LINE.search(Client().get(f"/g/{game.pk}/").content.decode())
    assert found is not None and found[1] == "40"
    # Anna and Cleo roll half the turns still to come; the computers' take no time.
    minutes = minutes_of(found[2])
    assert minutes == expected_minutes(game, 40, frozenset({0, 2}))
    assert abs(minutes - expected_minutes(game, 40, frozenset(range(4))) / 2) <= 10


def test_an_imported_game_has_no_pace_until_it_is_played() -> None:
    original = play(make_game(), *[MISS] * 8)
    spaced(original, [30] * 7)
    copy, _key = transfer.import_game(transfer.export_game(original))
    assert LINE.search(Client().get(f"/g/{original.pk}/").content.decode()) is not None
    # Its rows were all written at once: no turn was timed.
    assert "table’s pace" not in Client().get(f"/g/{copy.pk}/").content.decode()


def test_a_finished_game_says_nothing_of_time_to_go() -> None:
    game = play(make_game(rules={"start_points": 1}, players=["Anna", "Ben"]), MISS, MISS, MISS)
    play(game, dice_rules.Turn(36, hunt=6))
    spaced(game, [30, 30, 30])
    html = Client().get(f"/g/{game.pk}/").content.decode()
    assert "wins!" in html and "table’s pace" not in html


def test_each_new_turn_brings_the_new_time_to_go_to_every_phone() -> None:
    game = play(make_game(), *[MISS] * 5)
    spaced(game, [30, 30, 30, 30])
    page = Client().get(f"/g/{game.pk}/").content.decode()
    before = LINE.search(page)
    assert before is not None
    count, last = game.turn_count, Turn.objects.filter(game=game).latest("number").pk
    version = game.version
    play(game, dice_rules.Turn(36, hunt=3))  # Ben loses three points: the game is shorter
    spaced(game, [30, 30, 30, 30, 30])
    # A process works out a game's first figure when a page opens (the cache was cleared,
    # as after a restart); later ones never hold an update up (the test below).
    Client().get(f"/g/{game.pk}/")
    update = Client().get(f"/g/{game.pk}/live?v={version}&n={count}&t={last}").content.decode()
    assert '<p id="time-to-go"' in update and 'hx-swap-oob="true"' in update
    after = LINE.search(update)
    assert after is not None and after[1] == "30"
    assert minutes_of(after[2]) == expected_minutes(game, 30, frozenset(range(4)))
    assert minutes_of(after[2]) <= minutes_of(before[2])


@pytest.fixture
def simulated_in(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads that ran the simulation of the turns to go, one name per run."""
    threads: list[str] = []
    simulate = estimates.remaining

    def watched(*args: Any) -> float:
        threads.append(threading.current_thread().name)
        return simulate(*args)

    monkeypatch.setattr(estimates, "remaining", watched)
    return threads


def test_the_row_that_calls_for_a_new_figure_does_not_wait_for_it(
    simulated_in: list[str],
) -> None:
    # The process has worked out this game's figure once: the row that starts the next
    # stretch of turns goes out to the phones with that figure, not after a simulation, and
    # the new figure follows a moment later.
    game = play(make_game(), *[MISS] * 5)
    spaced(game, [30, 30, 30, 30])
    before = LINE.search(Client().get(f"/g/{game.pk}/").content.decode())
    assert before is not None
    assert simulated_in == ["MainThread"]  # the page that opened worked the first one out
    simulated_in.clear()
    count, last = game.turn_count, Turn.objects.filter(game=game).latest("number").pk
    version = game.version
    game = play(game, *[dice_rules.Turn(36, hunt=3)] * 3)  # Ben loses nine points
    assert game.turn_count // pace.PACE_EVERY > count // pace.PACE_EVERY
    spaced(game, [30] * 7, forget=False)
    update = Client().get(f"/g/{game.pk}/live?v={version}&n={count}&t={last}").content.decode()
    assert threading.current_thread().name not in simulated_in
    shown = LINE.search(update)
    assert shown is not None and shown[2] == before[2]  # the figure before, for a moment
    deadline = time.monotonic() + 10
    stretch = ("pace", game.pk, game.turn_count // pace.PACE_EVERY)
    while cache.recall(stretch) is None:  # worked out in the background
        assert time.monotonic() < deadline, simulated_in
        time.sleep(0.05)
    assert simulated_in == ["thirty-pace_0"]
    # Every phone has the new figure with the next row (the page of a version is the same
    # for every watcher, so the row before keeps the figure it went out with).
    expected = expected_minutes(game, 30, frozenset(range(4)))
    count, last = game.turn_count, Turn.objects.filter(game=game).latest("number").pk
    version = game.version
    game = play(game, MISS)
    spaced(game, [30] * 8, forget=False)
    update = Client().get(f"/g/{game.pk}/live?v={version}&n={count}&t={last}").content.decode()
    after = LINE.search(update)
    assert after is not None and minutes_of(after[2]) == expected
    assert minutes_of(after[2]) < minutes_of(before[2])


def test_an_update_never_waits_for_the_first_figure(simulated_in: list[str]) -> None:
    # A process that has no figure for the game yet (after a restart) works it out in the
    # background when an update asks, and the page that opens next says it.
    game = play(make_game(), *[MISS] * 5)
    spaced(game, [30, 30, 30, 30])
    last = Turn.objects.filter(game=game).latest("number")
    update = Client().get(f"/g/{game.pk}/live?v={game.version - 1}&n=4&t={last.pk - 1}")
    assert update.status_code == 200
    assert '<p id="time-to-go"' in update.content.decode()
    assert LINE.search(update.content.decode()) is None
    assert threading.current_thread().name not in simulated_in
    stretch = ("pace", game.pk, game.turn_count // pace.PACE_EVERY)
    deadline = time.monotonic() + 10
    while cache.recall(stretch) is None:
        assert time.monotonic() < deadline, simulated_in
        time.sleep(0.05)
    page = Client().get(f"/g/{game.pk}/").content.decode()
    assert simulated_in == ["thirty-pace_0"]  # the page found the figure worked out
    found = LINE.search(page)
    assert found is not None and minutes_of(found[2]) == expected_minutes(
        game, 30, frozenset(range(4))
    )


@given(
    st.lists(st.tuples(st.floats(0, 3600, allow_nan=False), st.booleans()), min_size=0, max_size=30)
)
def test_the_pace_is_the_median_time_of_the_turns_people_played(
    turns: list[tuple[float, bool]],
) -> None:
    start = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.get_current_timezone())
    rows, when = [(start, False)], start
    for seconds, by_computer in turns:
        when += timedelta(seconds=seconds)
        rows.append((when, by_computer))
    timed = sorted(
        seconds
        for seconds, by_computer in turns
        if not by_computer and seconds >= pace.SHORTEST_TURN
    )
    found = pace.pace_of(pace.turn_seconds(rows))
    if len(timed) < pace.MIN_TURNS:
        assert found is None
    else:
        assert found is not None
        assert sum(t <= found + 1e-6 for t in timed) >= len(timed) / 2
        assert sum(t >= found - 1e-6 for t in timed) >= len(timed) / 2
