"""The create form offers the line-ups of recent games: one tap fills in every name."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.test import Client

from games import cache, store
from games.kinds.cards import tournaments
from games.lineups import Lineup, read_lineup, recent_lineups
from games.models import Game
from games.rules import cards
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db
FORM: dict[str, Any] = {"player": ["", "", "", ""], "preset": "30s", "set_aside": "any"}


def played(*players: str) -> Game:
    return play(make_game(players=list(players)), RuleTurn(20))


def names(lineup: Lineup) -> list[str]:
    return [name for name, _ in lineup.seats]


def test_the_last_different_line_ups_come_first_in_seat_order() -> None:
    played("Anna", "Ben")
    played("Cleo", "Dan", "Eva")
    played("anna", "BEN")  # the same people as the first game: offered once, as written last
    make_game(players=["Never", "Played"])
    for number in range(6):
        played(f"P{number}", "Q")
    lineups = recent_lineups()
    assert [names(lineup) for lineup in lineups] == [
        ["P5", "Q"],
        ["P4", "Q"],
        ["P3", "Q"],
        ["P2", "Q"],
        ["P1", "Q"],
    ]
    Game.objects.filter(seats__name="Q").delete()
    assert [names(lineup) for lineup in recent_lineups()] == [
        ["anna", "BEN"],
        ["Cleo", "Dan", "Eva"],
    ]


def test_a_line_up_keeps_its_computer_seats() -> None:
    game, _ = tournaments.create_card_game(
        "Cards", [store.Player("Anna"), store.Player("Robot", computer=True)], cards.CardRules()
    )
    Game.objects.filter(pk=game.pk).update(turn_count=1)
    (lineup,) = recent_lineups()
    assert lineup.seats == (("Anna", False), ("Robot", True))
    assert read_lineup(lineup.value) == [("Anna", False), ("Robot", True)]


def test_a_tap_fills_the_players_and_keeps_the_rules_without_scripts(client: Client) -> None:
    played("Anna", "Ben", "Cleo")
    page = client.get("/").content.decode()
    value = json.dumps([["Anna", False], ["Ben", False], ["Cleo", False]])
    assert f'name="lineup" value="{html.escape(value)}"' in page
    assert ">Anna, Ben and Cleo</button>" in page
    filled = client.post("/", FORM | {"lineup": value}).content.decode()
    assert filled.count('name="player"') == 3
    assert filled.index('value="Anna"') < filled.index('value="Ben"') < filled.index('value="Cleo"')
    assert 'value="30s" id="id_preset_1" required checked' in filled  # the rules stay
    created = client.post("/", FORM | {"player": ["Anna", "Ben", "Cleo"], "create": "1"})
    assert created.status_code == 302
    assert Game.objects.order_by("-created_at").first().preset == "30s"  # type: ignore[union-attr]


def test_htmx_swaps_the_form_filled_in(client: Client) -> None:
    played("Anna", "Ben")
    value = json.dumps([["Anna", False], ["Ben", False]])
    swapped = client.post("/", FORM | {"lineup": value}, headers={"HX-Request": "true"})
    body = swapped.content.decode()
    assert body.lstrip().startswith('<form id="create-form"')
    assert body.count('name="player"') == 2


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "nonsense",
        "{}",
        "[]",
        '[["Anna"]]',
        '[["Anna", "yes"]]',
        json.dumps([["A", False]] * 13),
    ],
)
def test_anything_but_a_line_up_leaves_the_form_as_it_was(client: Client, raw: str) -> None:
    assert read_lineup(raw) is None
    kept = client.post("/", FORM | {"player": ["Zoe", "Yan"], "lineup": raw}).content.decode()
    assert kept.count('name="player"') == 2 and 'value="Zoe"' in kept


def test_the_home_page_costs_the_same_with_3_games_as_with_40(client: Client) -> None:
    def statements() -> int:
        cache.clear()
        with count_statements() as seen:
            assert client.get("/").status_code == 200
        return len(seen)

    for number in range(3):
        played(f"A{number}", "B")
    few = statements()
    for number in range(37):
        played(f"C{number}", "D", "E")
    assert statements() == few
    assert client.get("/").content.decode().count('name="lineup"') == 5
