"""Dice thrown at the table, entered roll by roll on the page: the roller's phone (or the
host's) enters each roll, sets dice aside, corrects a wrong entry, and the turn is recorded
with its rolls, marked as thrown at the table; every step is checked, and a wrong one is told
in a sentence and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from games.access import host_cookie_name
from games.kinds.dice import stored
from games.models import Game, Move, Turn
from tests.factories import make_game

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def host_of(game: Game) -> Client:
    client = Client()
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    return client


def step(client: Client, game: Game, **form: str | list[str]) -> str:
    game.refresh_from_db()
    data: dict[str, str | list[str]] = {"v": str(game.version), **form}
    answer = client.post(f"/g/{game.pk}/move", data, headers=HTMX)
    return answer.content.decode()


def test_a_turn_thrown_at_the_table_is_entered_roll_by_roll_and_recorded_with_its_rolls() -> None:
    game = make_game(players=["Anna", "Ben", "Cleo"])
    host = host_of(game)
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "Or enter each roll" in page

    step(host, game, act="throw", dice="665112")
    turn = stored.rolling_turn(Game.objects.get(pk=game.pk))
    assert turn is not None and turn.table and turn.rolls[0].dice == (6, 6, 5, 1, 1, 2)
    watching = Client().get(f"/g/{game.pk}/").content.decode()
    assert "Dice thrown at the table" in watching  # every phone sees whose dice these are

    # Keep the two 6s (places 0 and 1) and enter the four dice thrown next.
    step(host, game, step="roll", act="keep", keep=["0", "1"], dice="6 5 4 3")
    step(host, game, step="roll", act="keep", keep=["0", "1"], dice="66")
    step(host, game, step="roll", act="keep", keep=["0", "1"], dice="")
    # 6 6 + 6 5 + 6 6 = 35: the hunt, with six dice thrown.
    step(host, game, step="roll", act="hunt", dice="5 5 1 2 3 4")
    row = Turn.objects.get(game=game)
    assert row.data["total"] == 35 and row.data["table"] is True
    assert row.data["rolls"][0] == {"dice": [6, 6, 5, 1, 1, 2], "kept": [6, 6]}
    assert [c.value for c in row.cells.order_by("seat__position")] == [0, 2, 0]
    sheet = Client().get(f"/g/{game.pk}/").content.decode()
    assert "Dice thrown at the table: 6 6 5 1 1 2 → set aside 6 6" in sheet
    api = Client().get(f"/api/games/{game.pk}").json()
    assert api["turns"][0]["table"] is True and api["turns"][0]["seed_index"] is None


def test_a_wrong_entry_is_told_and_changes_nothing_and_a_roll_entered_wrong_is_corrected() -> None:
    game = make_game(players=["Anna", "Ben"])
    host = host_of(game)
    told = step(host, game, act="throw", dice="66511")
    assert "Enter the 6 dice that were thrown (5 entered)." in told
    assert not Move.objects.filter(game=game).exists()
    assert "not 7" in step(host, game, act="throw", dice="665117")
    step(host, game, act="throw", dice="665112")
    told = step(host, game, step="roll", act="keep", keep=["0"], dice="123")
    assert "Enter the 5 dice that were thrown (3 entered)." in told
    assert Move.objects.filter(game=game, undone_at__isnull=True).count() == 1
    # The roll was entered wrong: take it back, and enter it again.
    step(host, game, step="roll", act="back")
    game.refresh_from_db()
    assert stored.rolling_turn(game) is None
    step(host, game, act="throw", dice="444444")
    turn = stored.rolling_turn(Game.objects.get(pk=game.pk))
    assert turn is not None and turn.rolls[0].dice == (4, 4, 4, 4, 4, 4)


def test_the_rollers_own_phone_enters_and_corrects_its_dice_and_others_cannot() -> None:
    game = make_game(players=["Anna", "Ben"])
    anna, ben = Client(), Client()
    assert anna.post(f"/g/{game.pk}/seat", {"key": seat_key(game, 0)}).status_code == 302
    assert ben.post(f"/g/{game.pk}/seat", {"key": seat_key(game, 1)}).status_code == 302
    step(anna, game, act="throw", dice="665112")
    assert "It is not your turn" in step(ben, game, step="roll", act="back")
    step(anna, game, step="roll", act="back")
    game.refresh_from_db()
    assert stored.rolling_turn(game) is None


def test_an_app_rolled_turn_is_never_taken_back_step_by_step() -> None:
    game = make_game(players=["Anna", "Ben"])
    host = host_of(game)
    step(host, game, act="roll")
    rolled = stored.rolling_turn(Game.objects.get(pk=game.pk))
    told = step(host, game, step="roll", act="back")
    assert "The app rolled these dice: they stay." in told
    assert stored.rolling_turn(Game.objects.get(pk=game.pk)) == rolled


def seat_key(game: Game, position: int) -> str:
    from games.models import seat_key as derived

    return derived(game.host_key, game.pk, position)  # type: ignore[attr-defined]
