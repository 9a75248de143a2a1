"""Inputs that once made the server fail: each gets a clear refusal and changes nothing."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from games.models import Game, Seat
from games.names import clean_player_names, name_key
from tests.factories import make_game

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000


@pytest.fixture
def client() -> Client:
    return Client(raise_request_exception=False)


def post_json(client: Client, path: str, body: str, **headers: str) -> Any:
    return client.post(path, body, content_type="application/json", headers=headers)


def test_deeply_nested_json_is_a_400(client: Client) -> None:
    game = make_game()
    assert post_json(client, "/api/games", DEEP).status_code == 400
    response = post_json(
        client,
        f"/api/games/{game.pk}/turns",
        DEEP,
        **{"X-Host-Key": game.host_key},  # type: ignore[attr-defined]
    )
    assert response.status_code == 400 and response.json()["error"]
    assert Game.objects.count() == 1 and game.turns.count() == 0


@pytest.mark.parametrize("name", ["x\udfff", "x\x00y"])
def test_a_name_with_a_lone_surrogate_or_nul_is_refused(client: Client, name: str) -> None:
    as_player = json.dumps({"players": [name, "Ben"]})
    as_game = json.dumps({"name": name, "players": ["Anna", "Ben"]})
    assert post_json(client, "/api/games", as_player).status_code == 422
    assert post_json(client, "/api/games", as_game).status_code == 400
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "path", ["/api/games/%00", "/g/%00/", "/g/%00/live", "/g/x%00y/sheet.csv", "/api/games/a%00"]
)
def test_a_nul_in_a_game_id_is_a_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404
    if path.startswith("/api/"):
        assert client.get(path).json()["error"]


@pytest.mark.parametrize("value", ["²", "1" * 5000, "-1", " 1"])
@pytest.mark.parametrize("field", ["up", "drop"])
def test_odd_row_numbers_on_the_create_form_change_nothing(
    client: Client, field: str, value: str
) -> None:
    response = client.post("/", {"player": ["Anna", "Ben"], field: value})
    assert response.status_code == 200
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "path", ["/g/{id}/live?v=0&n=99999999999999999999", "/g/{id}/live?v=0&n=1&t=" + "9" * 30]
)
def test_huge_numbers_in_a_live_refresh_are_ignored(client: Client, path: str) -> None:
    game = make_game()
    assert client.get(path.format(id=game.pk)).status_code == 200


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("İ", "i̇"),  # dotted capital I, and i with a combining dot: one name once folded
        (unicodedata.normalize("NFC", "Åse"), unicodedata.normalize("NFD", "Åse")),
        ("Ana", "Ａｎａ"),
        ("ANA", "ana"),
        ("Straße", "STRASSE"),
    ],
)
def test_names_that_read_the_same_are_one_name(first: str, second: str) -> None:
    assert name_key(first) == name_key(second)
    with pytest.raises(ValidationError, match="both called"):
        clean_player_names([first, second])


def test_dotted_and_dotless_i_are_two_names_for_python_and_the_database(client: Client) -> None:
    response = post_json(client, "/api/games", json.dumps({"players": ["İ", "i"]}))
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u115f\u1160", "\u200b", "\u0301", "\u3000"])
def test_names_that_show_nothing_are_refused(name: str) -> None:
    with pytest.raises(ValidationError):
        clean_player_names([name, "Ben"])


def test_names_are_stored_in_nfc(client: Client) -> None:
    decomposed = unicodedata.normalize("NFD", "Åse")
    response = post_json(client, "/api/games", json.dumps({"players": [decomposed, "Ben"]}))
    assert response.status_code == 201
    assert response.json()["seats"][0]["name"] == unicodedata.normalize("NFC", "Åse")
    seat = Seat.objects.get(position=0)
    assert seat.name == unicodedata.normalize("NFC", "Åse") and seat.name_key == "åse"


def test_the_api_wants_json_for_its_writes(client: Client) -> None:
    response = client.post(
        "/api/games", json.dumps({"players": ["A", "B"]}), content_type="text/plain"
    )
    assert response.status_code == 415 and "application/json" in response.json()["error"]
    assert Game.objects.count() == 0
