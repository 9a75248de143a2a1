"""Luck and skill after a dice game, on the game's page and the player's: every turn whose
rolls are known is measured against the best play, each player's biggest miss is named, and a
tap on a row shows what each set-aside was worth."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games.kinds.dice import coach, stored
from games.kinds.dice import moves as dice_moves
from games.models import Game, Turn
from games.rules.dice import RuleSet
from games.rules.dice import bot as dice_bot
from games.rules.dice.rolled import Action, Ask

pytestmark = pytest.mark.django_db


def play_out(game: Game, rng: random.Random, *, worst_for: int) -> None:
    """Play the game to its end with the app's dice: the seat `worst_for` always keeps the
    lowest die it may, every other seat plays as the computer would."""
    for _ in range(2000):
        game.refresh_from_db()
        if game.finished:
            return
        turn = stored.rolling_turn(game)
        if turn is None:
            dice_moves.roll(game.pk, Action())
            continue
        action = dice_bot.rolled_action(turn)
        if turn.roller == worst_for and turn.ask() is Ask.KEEP:
            action = Action(keep=(min(turn.rolls[-1].dice),))
        dice_moves.roll(game.pk, action)
    raise AssertionError("the game did not end")


def test_a_finished_game_shows_each_players_luck_and_skill_and_the_biggest_miss() -> None:
    game, _ = dice_moves.create_game(
        "Coached", ["Anna", "Ben"], RuleSet.from_dict({"start_points": 3})
    )
    play_out(game, random.Random(3), worst_for=0)
    rows = Turn.objects.filter(game=game)
    assert all("analysis" in row.data for row in rows)
    anna_lost = sum(row.data["analysis"]["lost"] for row in rows if row.roller == 0)
    ben_lost = sum(row.data["analysis"]["lost"] for row in rows if row.roller == 1)
    assert anna_lost > 0 and ben_lost == 0  # Ben played as the computer would
    page = Client().get(f"/g/{game.pk}/").content.decode()
    assert "Luck and skill" in page
    assert "Anna’s choices gave away" in page and "Biggest miss: turn " in page
    assert "Ben’s choices gave away 0 %" in page
    assert "What if: kept " in page  # a row's explanation, shown when the row is tapped
    danish = Client(headers={"Accept-Language": "da"}).get(f"/g/{game.pk}/").content.decode()
    assert "Held og dygtighed" in danish


def test_the_players_page_shows_both_figures_game_by_game() -> None:
    for seed in (1, 2):
        game, _ = dice_moves.create_game(
            f"Game {seed}", ["Anna", "Ben"], RuleSet.from_dict({"start_points": 2})
        )
        play_out(game, random.Random(seed), worst_for=0)
    figures = coach.player_figures("anna")
    assert len(figures) == 2 and all(f.turns > 0 and f.lost > 0 for f in figures)
    page = Client().get("/players/Anna/").content.decode()
    assert 'hx-get="/players/Anna/coaching"' in page  # the section loads itself
    section = Client().get("/players/Anna/coaching").content.decode()
    assert "Luck and skill, game by game" in section and "Over 2 games" in section
    assert "coaching.svg?objective=beat" in section
    assert 'id="coaching" hidden' in Client().get("/players/Nobody/coaching").content.decode()
    chart: Any = Client().get("/players/Anna/coaching.svg")
    assert chart.status_code == 200 and chart["Content-Type"].startswith("image/svg+xml")
