"""Every kind's moves go one way: the pages post them to `/g/<id>/move`, and the API takes
them at `/api/games/{id}/moves`; `/turn`, `/roll`, `/turns` and `/roll` are aliases of the
same path, and a move the rules refuse changes nothing, whichever door it came in by."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Move, Turn
from tests.openapi_check import CheckedClient

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def new_game(client: Client, **body: Any) -> dict[str, Any]:
    body.setdefault("players", ["Anna", "Ben", "Cleo"])
    response = post(client, "/api/games", body)
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def test_a_dice_game_takes_typed_turns_and_rolls_at_moves_as_at_its_aliases() -> None:
    client = CheckedClient()
    game = new_game(client)
    moves, host = f"/api/games/{game['id']}/moves", {"X-Host-Key": game["host_key"]}
    typed = post(client, moves, {"total": 33, "hunt": 2}, **host)
    assert typed.status_code == 201
    assert [seat["points"] for seat in typed.json()["seats"]] == [30, 28, 30]
    # The same turn at the alias gives the same answer for the next roller.
    alias = post(client, f"/api/games/{game['id']}/turns", {"total": 20}, **host)
    assert alias.status_code == 201 and alias.json()["next_roller"] == 3
    # A body without a total is a step of a turn the app rolls: here the first roll.
    rolled = post(client, moves, {}, **{"X-Seat-Key": game["seat_keys"][2]})
    assert rolled.status_code == 201
    turn = rolled.json()["turn_in_progress"]
    assert turn["roller"] == 3 and len(turn["rolls"][0]["dice"]) == 6
    # A refused move says why and changes nothing.
    version = Game.objects.get(pk=game["id"]).version
    refused = post(client, moves, {"keep": [7]}, **host)
    assert refused.status_code == 422 and refused.json()["error"]
    assert Game.objects.get(pk=game["id"]).version == version


def test_a_card_for_a_dice_game_and_a_dice_turn_for_a_card_game_are_refused_in_words() -> None:
    client = CheckedClient()
    dice = new_game(client)
    card = post(
        client, f"/api/games/{dice['id']}/moves", {"card": "AH"}, **{"X-Host-Key": dice["host_key"]}
    )
    assert card.status_code == 404 and "dice" in card.json()["error"]
    cards = new_game(client, rules={"preset": "cards"})
    for url in ("turns", "roll"):
        answer = post(client, f"/api/games/{cards['id']}/{url}", {"total": 20})
        assert answer.status_code == 404 and "/moves" in answer.json()["error"]
    assert not Turn.objects.filter(game_id__in=[dice["id"], cards["id"]]).exists()
    assert not Move.objects.exists()


def test_the_pages_post_a_dice_turn_and_a_roll_to_the_one_move_view(client: Client) -> None:
    game = new_game(client)
    host = Client()
    host.get(f"/g/{game['id']}/host")
    assert host.post(f"/g/{game['id']}/host", {"key": game["host_key"]}).status_code == 302
    url = f"/g/{game['id']}/move"
    assert host.post(url, {"total": "33", "hunt": "2"}).status_code == 302
    assert list(Turn.objects.values_list("data__total", flat=True)) == [33]
    # The pad's "roll with the app" button sends act=roll to the same view.
    assert host.post(url, {"act": "roll"}).status_code == 302
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["turn_in_progress"]["roller"] == 2
    # The tray's forms say step=roll: a set-aside of a die not in the roll changes nothing.
    version = Game.objects.get(pk=game["id"]).version
    refused = host.post(url, {"step": "roll", "act": "keep", "keep": "9"})
    assert refused.status_code == 422
    assert "Set aside only dice from the last roll." in refused.content.decode()
    assert Game.objects.get(pk=game["id"]).version == version
    # A watcher's phone is told who may move, and nothing changes.
    watcher = Client().post(url, {"total": "20"})
    assert watcher.status_code == 403
    assert watcher.content.decode() == "Only the host can enter turns in this game."
    assert Turn.objects.count() == 1


def test_the_pages_post_a_card_to_the_one_move_view_and_only_a_seat_plays_it() -> None:
    client = CheckedClient()
    game = new_game(client, rules={"preset": "cards"})
    url = f"/g/{game['id']}/move"
    watcher = Client().post(url, {"move": "AH"})
    assert watcher.status_code == 403
    assert watcher.content.decode() == "Only a player's own phone can play that seat's cards."
    host = Client()
    assert host.post(f"/g/{game['id']}/host", {"key": game["host_key"]}).status_code == 302
    assert host.post(url, {"move": "AH"}).status_code == 403  # the host holds no hand
    state = client.get(f"/api/games/{game['id']}").json()
    seat = state["deal"]["to_move"]  # from 1: the seat whose turn it is claims its link
    phone = Client()
    claimed = phone.post(f"/g/{game['id']}/seat", {"key": game["seat_keys"][seat - 1]})
    assert claimed.status_code == 302
    page = phone.get(f"/g/{game['id']}/").content.decode()
    legal = page.split('name="move" value="', 1)[1].split('"', 1)[0]
    assert phone.post(url, {"move": legal}).status_code == 302
    assert Move.objects.filter(game_id=game["id"], seat=seat - 1).count() == 1
    # A card the rules refuse (not in this hand, or not this seat's turn) changes nothing.
    version = Game.objects.get(pk=game["id"]).version
    assert phone.post(url, {"move": "ZZ"}).status_code == 422
    assert Game.objects.get(pk=game["id"]).version == version


def test_the_create_form_asks_the_chosen_kind_and_leaves_out_what_it_does_not_take() -> None:
    # "Dice made by the whole table" ticked, then the card game chosen: the box is hidden, but
    # a browser still sends it. The card game takes no such choice, so it is left out.
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    response = host.post("/", form | {"preset": "cards", "tokens": "3", "table_dice": "on"})
    assert response.status_code == 302
    cards = Game.objects.get()
    assert cards.kind == "cards" and cards.rules_data["tokens"] == 3 and not cards.table_dice
    # The same box for a dice game makes it one whose dice the table makes.
    assert host.post("/", form | {"preset": "thirty", "table_dice": "on"}).status_code == 302
    dice = Game.objects.exclude(pk=cards.pk).get()
    assert dice.kind == "dice" and dice.table_dice and dice.rules_data["preset"] == "thirty"
    # A card game of eleven is refused by its rules, in words on the form, and nothing is made.
    refused = host.post(
        "/", form | {"preset": "cards", "player": [f"P{n}" for n in range(11)], "seat_kind": []}
    )
    assert refused.status_code == 200 and Game.objects.count() == 2
    assert 'id="create-errors"' in refused.content.decode()


def test_the_api_refuses_the_table_dice_for_a_card_game() -> None:
    client = CheckedClient()
    body = {"players": ["Anna", "Ben"], "rules": {"preset": "cards"}, "table_dice": True}
    refused = post(client, "/api/games", body)
    assert refused.status_code == 422
    assert refused.json()["error"] == "“table_dice” belongs to the dice games."
    assert not Game.objects.exists()
