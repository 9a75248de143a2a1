"""The chart of points turn by turn and the end-of-game highlights."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.test import Client

from games import cache, charts
from games.kinds.dice import charts as dice_charts
from games.kinds.dice import stored
from games.models import Game
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def test_lines_add_up_the_cells_and_end_where_a_player_goes_out() -> None:
    drawn = charts.lines(
        ["Anna", "Ben"],
        3,
        -1,
        [[0, 2], [1, 0], [0, 1], [2, 0]],
        lambda points: points <= 0,
        winners=[0],
    )
    assert drawn[0].values == (3, 3, 2, 2, 0)
    assert drawn[1].values == (3, 1, 1, 0, None)
    assert drawn[1].out and not drawn[1].won and drawn[0].won


def test_lines_count_up_for_30s() -> None:
    drawn = charts.lines(["Anna"], 0, 1, [[4], [-2], [30]], lambda points: points >= 30)
    assert drawn[0].values == (0, 4, 2, 32)


def test_every_line_differs_by_more_than_its_colour() -> None:
    patterns = {charts.dashes(seat, won=False) for seat in range(9)}
    assert len(patterns) == 9 and "" not in patterns
    assert charts.dashes(3, won=True) == ""  # the winner's is the one solid line


def test_the_odds_of_a_hunt() -> None:
    assert dice_charts.at_least(6, 0) == 1
    assert dice_charts.at_least(6, 1) == 1 - Fraction(5, 6) ** 6
    assert dice_charts.at_least(2, 2) == Fraction(1, 36)
    assert sum(dice_charts._chain(6)) == 1
    # 30s: the chain finds at least one die exactly when the first roll does.
    assert dice_charts.chain_at_least(6, 1) == dice_charts.at_least(6, 1)
    assert dice_charts.chain_at_least(6, 2) > dice_charts.at_least(6, 2)


def _finished_thirty() -> Game:
    game = make_game(players=["Anna", "Ben", "Cleo"], rules={"start_points": 4})
    # Anna 33 hunts 3s: 2 found, Ben -2. Ben 20 fails. Cleo 34: 3 found, Anna -3.
    # Anna 20 fails. Ben 36: 1 found, Cleo -1. Cleo 31: 4 found, Anna out (-4).
    # Ben 20 fails. Cleo 35: 2 found, Ben out.
    return play(
        game,
        RuleTurn(33, 2),
        RuleTurn(20),
        RuleTurn(34, 3),
        RuleTurn(20),
        RuleTurn(36, 1),
        RuleTurn(31, 4),
        RuleTurn(20),
        RuleTurn(35, 2),
    )


def test_the_summary_of_a_thirty_game() -> None:
    snapshot = stored.load_snapshot(_finished_thirty())
    assert snapshot.position.finished
    summary = dice_charts.summary(snapshot)
    assert summary.biggest_hit == dice_charts.Highlight(6, "Cleo hit Anna for 4 in turn 6.")
    # 4 of six dice showing 1 (1 in 115) is rarer than 3 of six (1 in 16) or 2 (1 in 3).
    assert summary.luckiest_hunt == dice_charts.Highlight(
        6, "Cleo found 4 dice hunting 1s in turn 6 (about 1 in 115)."
    )
    assert summary.most_failed == "Ben: 2 failed turns."
    lines = dice_charts.dice_lines(snapshot)
    assert lines[0].values == (4, 4, 4, 1, 1, 1, -3, None, None)  # ends where out
    assert lines[1].values[-1] == 0 and lines[1].out and lines[2].won


def test_the_summary_of_a_30s_game() -> None:
    game = make_game(players=["Anna", "Ben"], rules={"preset": "30s"})
    # Anna 35, chain of 2 fives: Ben +10. Ben 24: +6. Anna 30: nothing. Ben 36: 3 sixes,
    # Anna +18. Anna 20: +10. Ben 33: 4 threes: Anna +12 and out at 40.
    game = play(
        game,
        RuleTurn(35, 2),
        RuleTurn(24),
        RuleTurn(30),
        RuleTurn(36, 3),
        RuleTurn(20),
        RuleTurn(33, 4),
    )
    snapshot = stored.load_snapshot(game)
    assert snapshot.position.finished
    summary = dice_charts.summary(snapshot)
    assert summary.biggest_hit is not None
    assert summary.biggest_hit.text == "Ben hit Anna for 18 in turn 4."
    assert summary.luckiest_hunt is not None and summary.luckiest_hunt.turn == 6
    # Failed turns are the ones that did not beat 30: Ben's 24, Anna's 30 and 20.
    assert summary.most_failed == "Anna: 2 failed turns."
    assert dice_charts.dice_lines(snapshot)[0].values == (0, 0, 0, 0, 18, 28, 40)


def test_the_chart_is_an_svg_drawn_once_per_version(client: Client) -> None:
    game = _finished_thirty()
    cache.clear()
    first = client.get(f"/g/{game.pk}/chart.svg?v={game.version}")
    assert first.status_code == 200 and first["Content-Type"] == "image/svg+xml"
    assert "immutable" in first["Cache-Control"]
    assert "script-src" not in first["Content-Security-Policy"]
    body = first.content.decode()
    assert body.startswith("<?xml") and "<svg" in body and "★ Cleo" in body
    assert "stroke-dasharray:8,4" in body  # lines differ by their dashes too
    # A marker where each line ends (Anna and Ben out, Cleo the winner) and no dot on any
    # other turn: a phone fetches the picture after every turn.
    assert re.findall(r'<circle[^>]* r="(\d+)"', body) == ["5", "5", "7"]
    with count_statements() as statements:
        again = client.get(f"/g/{game.pk}/chart.svg")
    assert again.content == first.content and len(statements) == 1
    assert again["Cache-Control"] == "no-cache"
    assert client.get("/g/nothing/chart.svg").status_code == 404
    narrow = client.get(f"/g/{game.pk}/chart.svg?size=narrow").content.decode()
    assert 'width="400"' in narrow and 'width="760"' in body


def test_the_page_shows_the_chart_its_key_and_the_highlights(client: Client) -> None:
    game = _finished_thirty()
    html = client.get(f"/g/{game.pk}/").content.decode()
    assert f'src="/g/{game.pk}/chart.svg?v={game.version}&amp;lang=en"' in html
    assert "Now: Anna out, Ben out and Cleo 3." in html  # the picture's alt text
    assert "★ Cleo" in html and "✕ Anna" in html
    assert "Biggest hit" in html and "Cleo hit Anna for 4 in turn 6." in html


@pytest.mark.parametrize("persona", ["host", "watcher"])
def test_the_page_costs_the_same_at_turn_40_as_at_turn_4(persona: str, client: Client) -> None:
    def statements_for(turns: int) -> int:
        game = make_game(rules={"start_points": 99})
        play(game, *[RuleTurn(20)] * turns)
        if persona == "host":
            from games.access import host_cookie_name

            client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
        cache.clear()
        with count_statements() as statements:
            assert client.get(f"/g/{game.pk}/").status_code == 200
        return len(statements)

    assert statements_for(4) == statements_for(40)


def _next_live(html: str) -> str:
    """Where the page polls next: its `#live` element's address, as the update renews it."""
    found = re.search(r'<div id="live"[^>]*hx-get="([^"]*)"', html)
    assert found is not None, "the page or update renews #live"
    return found.group(1).replace("&amp;", "&")


def test_an_update_brings_the_chart_s_key_only_when_it_changed(client: Client) -> None:
    """A watcher's update renews the chart's picture every turn; its key (each player's line
    and link) only when a name, a win or a player out changes it: the page says which key it
    shows with each poll and stream (`k`), whichever process answers."""
    game = make_game(players=["Anna", "Ben", "Cleo"], rules={"start_points": 4})
    live = _next_live(client.get(f"/g/{game.pk}/").content.decode())
    game = play(game, RuleTurn(20))
    update = client.get(live).content.decode()
    assert re.search(r'<ul id="chart-key"[^>]*>\s*<li>', update), "the first turn starts the key"
    live = _next_live(update)

    play(game, RuleTurn(33, 2))  # Ben loses 2 of his 4: nobody's mark changes
    update = client.get(live).content.decode()
    assert 'id="chart-now"' in update and "chart.svg?v=" in update
    assert 'id="chart-key"' not in update, "the same key again"

    game = play(game, RuleTurn(34, 3), RuleTurn(20), RuleTurn(36, 1))
    update = client.get(_next_live(update)).content.decode()
    assert 'id="chart-key"' not in update, "three turns, still nobody out"

    play(game, RuleTurn(31, 4))  # Cleo finds four 1s: Anna is out
    update = client.get(_next_live(update)).content.decode()
    key = re.search(r'<ul id="chart-key"[^>]*hx-swap-oob="true"[^>]*>(.*?)</ul>', update, re.S)
    assert key is not None, "the key changed: the update brings it"
    assert "✕ Anna" in key.group(1) and "Ben" in key.group(1) and "Cleo" in key.group(1)

    # A poll that does not say which key its page shows (one from before the key was said)
    # gets the key with its update.
    assert "&k=" in live
    assert 'id="chart-key"' in client.get(live.split("&k=")[0]).content.decode()
