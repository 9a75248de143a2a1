"""Replay: a finished game turn by turn, with the sheet and the chart as they stood."""

from __future__ import annotations

import pytest
from django.test import Client

from games import cache
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.statements import count_statements
from tests.web.test_players import thirty_game

pytestmark = pytest.mark.django_db


def test_each_step_shows_the_sheet_after_that_turn(client: Client) -> None:
    game = thirty_game()
    html = client.get(f"/g/{game.pk}/replay?turn=3").content.decode()
    assert "Turn 3 of 8" in html
    assert 'id="turn-3"' in html and 'id="turn-4"' not in html
    assert "Cleo rolled 34 and hunted 4s" in html  # what the step did
    # Points left after three turns: Anna 1, Ben 2, Cleo 4.
    foot = html[html.index('id="sheet-foot"') :]
    assert [cell.split("<")[0] for cell in foot.split('">')[3:6]] == ["1", "2", "4"]
    assert f"/g/{game.pk}/chart.svg?v={game.version}&amp;lang=en&amp;turn=3" in html
    assert 'href="?turn=2" rel="prev"' in html and 'href="?turn=4" rel="next"' in html
    first = client.get(f"/g/{game.pk}/replay?turn=-5").content.decode()
    assert "Before the first turn" in first and 'rel="prev"' not in first
    last = client.get(f"/g/{game.pk}/replay?turn=99").content.decode()
    assert "Turn 8 of 8" in last and 'rel="next"' not in last


def test_the_chart_of_a_step_stops_at_that_turn(client: Client) -> None:
    game = thirty_game()
    step = client.get(f"/g/{game.pk}/chart.svg?turn=2").content.decode()
    whole = client.get(f"/g/{game.pk}/chart.svg").content.decode()
    assert step != whole and "★ Cleo" not in step and "★ Cleo" in whole


def test_a_game_still_going_has_no_replay(client: Client) -> None:
    game = play(make_game(), RuleTurn(20))
    assert client.get(f"/g/{game.pk}/replay")["Location"] == f"/g/{game.pk}/"


def test_a_step_costs_the_same_at_turn_1_as_at_turn_8(client: Client) -> None:
    game = thirty_game()

    def statements(turn: int) -> int:
        cache.clear()  # each step as a process that remembers nothing sees it
        with count_statements() as seen:
            client.get(f"/g/{game.pk}/replay?turn={turn}")
        return len(seen)

    assert statements(1) == statements(7)
