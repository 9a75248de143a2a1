"""“Log in BG Stats”: the link's JSON, in the push format BG Stats documents."""

from __future__ import annotations

import json
import re
from datetime import date
from html import unescape
from typing import Any
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import translation

from games import store
from games.models import Game
from games.names import default_game_name
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.web.test_players import thirty_game, thirty_s_game

pytestmark = pytest.mark.django_db
PREFIX = "bgstats://app.bgstatsapp.com/createPlay.html?data="


def play_from_page(client: Client, game: Game) -> dict[str, Any]:
    html = client.get(f"/g/{game.pk}/").content.decode()
    match = re.search(r'class="button secondary bgstats" href="([^"]+)"', html)
    assert match, "no BG Stats link"
    url = unescape(match[1])
    assert url.startswith(PREFIX) and " " not in url and "{" not in url
    data: dict[str, Any] = json.loads(unquote(url.removeprefix(PREFIX)))
    return data


def test_a_finished_thirty_game_offers_its_play(client: Client) -> None:
    game = thirty_game()
    data = play_from_page(client, game)
    assert data["sourceName"] == "Thirty" and data["sourcePlayId"] == game.pk
    assert data["game"] == {
        "name": "Thirty (dice)",
        "sourceGameId": "thirty",
        "highestWins": True,
        "noPoints": False,
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert data["durationMin"] == 1
    assert data["comments"] == game.name
    # Cleo won with 3 left; Ben went out last (turn 8), Anna before him (turn 6).
    assert data["players"] == [
        {"name": "Anna", "sourcePlayerId": "anna", "score": "-3", "winner": False, "rank": 3,
         "startPlayer": True},
        {"name": "Ben", "sourcePlayerId": "ben", "score": "0", "winner": False, "rank": 2,
         "startPlayer": False},
        {"name": "Cleo", "sourcePlayerId": "cleo", "score": "3", "winner": True, "rank": 1,
         "startPlayer": False},
    ]  # fmt: skip


def test_a_30s_game_says_the_fewest_points_win(client: Client) -> None:
    data = play_from_page(client, thirty_s_game())
    assert data["game"]["sourceGameId"] == "30s" and data["game"]["highestWins"] is False
    ranks = {player["name"]: (player["score"], player["rank"]) for player in data["players"]}
    assert ranks == {"ANNA": ("40", 2), "Ben": ("16", 1)}


def test_a_game_still_going_offers_no_link(client: Client) -> None:
    game = play(make_game(), RuleTurn(20))
    assert "bgstats://" not in client.get(f"/g/{game.pk}/").content.decode()


def test_a_name_the_app_made_up_is_logged_in_the_readers_language() -> None:
    game = thirty_game()
    store.name_by_day(game, ["Anna", "Ben", "Cleo"])
    day = date.fromisoformat(game.name_default["day"])  # type: ignore[index]
    for language in ("en", "da"):
        reader = Client(headers={"Accept-Language": language})
        with translation.override(language):
            made_up = default_game_name(["Anna", "Ben", "Cleo"], day)
        assert play_from_page(reader, game)["comments"] == made_up
    with translation.override("da"):
        assert " og Cleo" in default_game_name(["Anna", "Ben", "Cleo"], day)
