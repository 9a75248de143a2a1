"""A player across games: numbers checked against games added up by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client

from games import store
from games.models import Game
from games.players import player_stats
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def thirty_game() -> Game:
    """Start 4. Anna 33: 2 threes, Ben −2. Ben 20. Cleo 34: 3 fours, Anna −3. Anna 20.
    Ben 36: 1 six, Cleo −1. Cleo 31: 4 ones, Anna −4 and out. Ben 20. Cleo 35: 2 fives,
    Ben −2 and out: Cleo wins."""
    game = make_game(players=["Anna", "Ben", "Cleo"], rules={"start_points": 4})
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


def thirty_s_game() -> Game:
    """ANNA 35: 2 fives, Ben +10. Ben 24: +6. ANNA 30. Ben 36: 3 sixes, ANNA +18.
    ANNA 20: +10. Ben 33: 4 threes, ANNA +12 and out at 40: Ben wins."""
    game = make_game(players=["ANNA", "Ben"], rules={"preset": "30s"})
    return play(
        game,
        RuleTurn(35, 2),
        RuleTurn(24),
        RuleTurn(30),
        RuleTurn(36, 3),
        RuleTurn(20),
        RuleTurn(33, 4),
    )


@pytest.fixture
def three_games() -> list[Game]:
    # Names reach the store trimmed (games.names.clean_player_names): "anna", not " anna".
    unfinished = play(make_game(players=["anna", "Dan"]), RuleTurn(20))
    return [thirty_game(), thirty_s_game(), unfinished]


@pytest.mark.usefixtures("three_games")
def test_anna_across_three_games_and_two_spellings() -> None:
    stats = player_stats("  aNNa ")
    assert stats is not None
    thirty, thirty_s = stats.kinds["thirty"], stats.kinds["30s"]
    assert (thirty.played, thirty.finished, thirty.won) == (2, 1, 0)
    assert (thirty.damage_dealt, thirty.damage_taken) == (2, 7)
    assert (thirty.turns, thirty.beat) == (3, 1)  # 33 and 20 in game one, 20 in game three
    assert (thirty_s.played, thirty_s.won) == (1, 0)
    assert (thirty_s.damage_dealt, thirty_s.damage_taken) == (10, 30)
    assert (thirty_s.turns, thirty_s.beat) == (3, 1)
    assert stats.played == 3 and stats.won == 0 and stats.all.win_rate == 0
    assert stats.longest is not None and stats.longest.turn_count == 8


@pytest.mark.usefixtures("three_games")
def test_the_winners_numbers() -> None:
    cleo = player_stats("cleo")
    assert cleo is not None
    assert cleo.kinds["thirty"].won == 1 and cleo.all.win_rate == 1
    assert (cleo.all.damage_dealt, cleo.all.damage_taken) == (9, 1)
    assert cleo.all.success_rate == 1
    ben = player_stats("Ben")
    assert ben is not None
    assert (ben.kinds["30s"].damage_dealt, ben.kinds["30s"].damage_taken) == (30, 10)
    assert ben.all.win_rate == Fraction(1, 2)
    assert ben.win_rate_over_time()[-1][1] == Fraction(1, 2)
    assert [rate for _, rate in ben.win_rate_over_time()] == [0, Fraction(1, 2)]


def test_nobody_of_that_name_is_a_404(client: Client, three_games: list[Game]) -> None:
    assert player_stats("Zed") is None
    assert client.get("/players/Zed/").status_code == 404
    store.delete_game(three_games[0].pk)  # a deleted game no longer counts
    cleo = client.get("/players/Cleo/")
    assert cleo.status_code == 404


def test_the_page_shows_the_numbers_and_links_from_the_sheet(
    client: Client, three_games: list[Game]
) -> None:
    html = client.get("/players/anna/").content.decode()
    assert "<h1>ANNA</h1>" in html  # as written in their most recent game
    assert "3 games played" in html and "Damage taken" in html
    assert "/players/ANNA/chart.svg" in html
    sheet = client.get(f"/g/{three_games[0].pk}/").content.decode()
    assert 'href="/players/Cleo/"' in sheet
    chart = client.get("/players/anna/chart.svg")
    assert chart["Content-Type"] == "image/svg+xml" and b"<svg" in chart.content


def test_the_page_costs_the_same_for_two_games_as_for_twelve(client: Client) -> None:
    def statements() -> int:
        with count_statements() as seen:
            assert client.get("/players/Cleo/").status_code == 200
        return len(seen)

    thirty_game()
    thirty_game()
    few = statements()
    for _ in range(10):
        thirty_game()
    assert statements() == few <= 6


@pytest.mark.usefixtures("three_games")
def test_the_numbers_are_remembered_until_one_of_their_games_changes(client: Client) -> None:
    client.get("/players/Ben/")
    with count_statements() as seen:
        client.get("/players/Ben/")
    assert len(seen) == 1  # only their seats, to see that no game changed
    game = play(make_game(players=["Ben", "Zoe"], rules={"start_points": 1}), RuleTurn(31, 1))
    ben = player_stats("ben")
    assert ben is not None and ben.kinds["thirty"].won == 1 and game.finished
