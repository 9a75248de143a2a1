"""The API's game state is built once per version and process, grows with each turn
instead of being read whole again, and can be asked for from a turn on (`?since=N`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import cache, store
from games.models import Game
from games.rules import dice as dice_rules
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db

TURNS = [dice_rules.Turn(20), dice_rules.Turn(33, 2), dice_rules.Turn(25), dice_rules.Turn(31, 1)]


def state(client: Client, game: Game, query: str = "") -> dict[str, Any]:
    answer = client.get(f"/api/games/{game.pk}{query}")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    body: dict[str, Any] = answer.json()
    return body


def test_it_answers_the_same_state_built_step_by_step_as_read_whole(client: Client) -> None:
    game = make_game()
    for turn in TURNS:
        play(game, turn)
        state(client, game)  # built on the one before
    step_by_step = state(client, game)
    cache.clear()
    assert state(client, game) == step_by_step
    assert [turn["number"] for turn in step_by_step["turns"]] == [1, 2, 3, 4]
    assert step_by_step["version"] == 5


def test_an_unchanged_game_is_answered_from_memory(client: Client) -> None:
    game = play(make_game(), *TURNS)
    state(client, game)
    with count_statements() as statements:
        state(client, game)
    assert len(statements) <= 1  # the version, as for a live refresh


def test_a_new_turn_reads_only_what_is_new_however_long_the_game(client: Client) -> None:
    short, long = play(make_game(), *TURNS[:2]), play(make_game(), *(TURNS[0] for _ in range(60)))
    counts = []
    for game in (short, long):
        state(client, game)
        play(game, dice_rules.Turn(20))
        with count_statements() as statements:
            state(client, game)
        counts.append(len(statements))
    assert counts[0] == counts[1]


def test_since_gives_only_the_later_turns(client: Client) -> None:
    game = play(make_game(), *TURNS)
    full = state(client, game)
    later = state(client, game, "?since=2")
    assert [turn["number"] for turn in later["turns"]] == [3, 4]
    assert later["turns"] == full["turns"][2:]
    assert {key: value for key, value in later.items() if key != "turns"} == {
        key: value for key, value in full.items() if key != "turns"
    }
    assert state(client, game, "?since=4")["turns"] == []
    assert client.get(f"/api/games/{game.pk}?since=soon").status_code == 400


def test_an_undo_is_seen_in_the_state(client: Client) -> None:
    game = play(make_game(), *TURNS)
    state(client, game)
    store.undo(game.pk)
    play(game, dice_rules.Turn(12))
    game.refresh_from_db()
    after = state(client, game)
    assert [turn["total"] for turn in after["turns"]] == [20, 33, 25, 12]
    cache.clear()
    assert state(client, game) == after
