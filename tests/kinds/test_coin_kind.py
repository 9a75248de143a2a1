"""A third kind of game, written only in the tests (`tests.kinds.coin`), plays through the
pages and the API beside the dice and the card game: proof that a kind is its rules, its
web package and one line in `THIRTY_KINDS`, with no generic code to change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings

from games import cache, claims, store
from games.access import host_cookie_name
from games.kinds import KINDS, find_kind, kind_for_rules
from games.models import Game, Move, Secret, Turn
from tests.kinds.coin.kind import COIN
from tests.kinds.coin.rules import CoinState

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_kind() -> Iterator[None]:
    with override_settings(THIRTY_KINDS=[*settings.THIRTY_KINDS, "tests.kinds.coin.kind.COIN"]):
        yield


def new_game(players: list[tuple[str, bool]], first_to: int = 3) -> tuple[Game, str, Client]:
    """A coin game made as every kind's is (the kind found by the preset of its rules), and
    the host's browser."""
    kind = kind_for_rules({"preset": "coin"})
    game, host_key = kind.create("Toss", players, {"preset": "coin", "first_to": first_to})
    host = Client()
    host.cookies[host_cookie_name(game)] = host_key
    return game, host_key, host


def claimed_key(game: Game, host_key: str, seat: int) -> str:
    """The seat's own key, claimed through the API with the link the host hands out."""
    link = next(k.key for k in claims.seat_link_keys(game, host_key) if k.position == seat)
    response = Client().post(
        f"/api/games/{game.pk}/seats/{seat + 1}/claim",
        content_type="application/json",
        headers={"X-Seat-Key": link},
    )
    assert response.status_code == 200, response.content
    key: str = response.json()["seat_key"]
    return key


def call(game: Game, key: str, side: str, version: int | None = None) -> Any:
    body: dict[str, Any] = {"call": side} | ({} if version is None else {"version": version})
    return Client().post(
        f"/api/games/{game.pk}/moves",
        body,
        content_type="application/json",
        headers={"X-Seat-Key": key},
    )


def test_the_kind_is_found_by_name_and_by_its_preset_once_listed() -> None:
    coin: object = COIN
    assert find_kind("coin") is coin and kind_for_rules({"preset": "coin"}) is coin
    assert list(KINDS) == ["dice", "cards", "coin"]


def test_a_coin_game_plays_through_the_api_and_writes_its_sheet() -> None:
    game, host_key, _host = new_game([("Ann", False), ("Bo", False)], first_to=2)
    keys = [claimed_key(game, host_key, seat) for seat in (0, 1)]
    state = Client().get(f"/api/games/{game.pk}").json()
    assert state["to_move"] == 1 and [s["points"] for s in state["seats"]] == [0, 0]
    assert "seed" not in str(state)  # the seed would tell every toss to come

    # Bo cannot call on Ann's turn, a wrong call is refused in a sentence, and neither
    # changes anything.
    assert call(game, keys[1], "heads").status_code == 403
    refused = call(game, keys[0], "edge")
    assert refused.status_code == 422 and refused.json()["error"] == "Call heads or tails."
    assert Move.objects.filter(game=game).count() == 0

    seat, moves = 0, 0
    while True:
        answer = call(game, keys[seat], "heads", version=state["version"])
        assert answer.status_code == 201, answer.content
        state, moves, seat = answer.json(), moves + 1, 1 - seat
        if state["to_move"] is None:
            break
    # Every call is one move in the log and one row of the sheet, whose cells are the points.
    assert Move.objects.filter(game=game).count() == moves == Turn.objects.filter(game=game).count()
    game.refresh_from_db()
    assert game.finished and game.turn_count == moves
    points = [s["points"] for s in state["seats"]]
    assert max(points) == 2 and store.cell_sums(game) == points
    assert COIN.standing(game, points).winners == (points.index(2),)
    # A stale version is refused, and the game over stays over.
    assert call(game, keys[seat], "tails", version=state["version"] - 1).status_code == 409
    assert call(game, keys[seat], "tails").status_code == 409


def test_a_coin_game_plays_through_the_pages_and_every_phone_follows() -> None:
    game, host_key, host = new_game([("Ann", False), ("Bo", False)])
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "Ann calls" in page and "Follow on your phone" in page
    assert page.count('id="seat-links"') == 1  # the host's page hands out both seats' links

    link = next(k.key for k in claims.seat_link_keys(game, host_key) if k.position == 0)
    ann = Client()
    assert ann.post(f"/g/{game.pk}/seat", {"key": link}).status_code == 302
    watcher = Client()
    assert "Heads" not in watcher.get(f"/g/{game.pk}/").content.decode()
    mine = ann.get(f"/g/{game.pk}/").content.decode()
    assert "Heads" in mine and "Tails" in mine

    # A watcher's phone cannot call; Ann's can, through the one move view.
    assert watcher.post(f"/g/{game.pk}/move", {"call": "heads"}).status_code == 403
    refused = ann.post(f"/g/{game.pk}/move", {"call": "edge"}, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and "Call heads or tails." in refused.content.decode()
    version = Game.objects.get(pk=game.pk).version
    played = ann.post(f"/g/{game.pk}/move", {"call": "tails", "v": str(version)})
    assert played.status_code == 302

    # The watcher's live poll brings the toss, and it is Bo's call now.
    live = watcher.get(f"/g/{game.pk}/live", {"v": str(version)})
    assert live.status_code == 200
    body = live.content.decode()
    assert "Ann called tails" in body and "Bo calls" in body
    assert watcher.get(f"/g/{game.pk}/live", {"v": str(version + 1)}).status_code == 204
    sheet = watcher.get(f"/g/{game.pk}/sheet.csv").content.decode().splitlines()
    assert sheet[0] == "Toss,Ann,Bo" and len(sheet) == 2


def test_computer_seats_call_through_the_one_loop_and_the_state_resumes_from_the_log() -> None:
    game, _key, _host = new_game([("Bot", True), ("Cy", True)], first_to=3)
    # Computers alone play the whole game before anyone looks.
    game.refresh_from_db()
    assert game.finished and game.turn_count == Move.objects.filter(game=game).count() > 0
    state = store.load_state(game)
    assert isinstance(state, CoinState) and state.outcome() is not None
    # Without the cached state the seed and the log rebuild the same game.
    Secret.objects.filter(game=game).update(state=None)
    cache.clear()
    assert store.load_state(game) == state


def test_a_coin_game_is_created_through_the_create_form_and_the_rules_page_has_its_section() -> (
    None
):
    host = Client()
    form = host.get("/").content.decode()
    assert 'value="coin"' in form and "Points to win" in form
    made = host.post(
        "/",
        {
            "create": "1",
            "preset": "coin",
            "first_to": "2",
            "player": ["Ann", "Bo"],
            "seat_kind": ["person", "computer"],
        },
    )
    assert made.status_code == 302, made.content.decode()[:500]
    game = Game.objects.get()
    assert game.kind == "coin" and game.rules_data == {"preset": "coin", "first_to": 2}
    assert list(game.seats.values_list("name", "computer")) == [("Ann", False), ("Bo", True)]
    assert "Ann calls" in host.get(made["Location"]).content.decode()  # the host's own page
    rules = Client().get("/rules/").content.decode()
    assert 'id="coin"' in rules and "a right call scores a point" in rules


def test_a_coin_game_is_created_through_the_api_and_the_document_knows_its_shapes() -> None:
    body = {"players": ["Ann", "Bo"], "rules": {"preset": "coin", "first_to": 2}}
    created = Client().post("/api/games", body, content_type="application/json")
    assert created.status_code == 201, created.content
    answer = created.json()
    assert answer["kind"] == "coin" and answer["host_key"] and len(answer["seat_keys"]) == 2
    refused = Client().post(
        "/api/games",
        {"players": ["Ann", "Bo"], "rules": {"preset": "coin", "first_to": 12}},
        content_type="application/json",
    )
    assert refused.status_code in (400, 422) and not Game.objects.filter(name="").exists()
    assert Game.objects.count() == 1
    schemas = Client().get("/api/openapi.json").json()["components"]["schemas"]
    assert {"CoinRulesModel", "CoinCall", "CoinGameState", "NewCoinGameState"} <= set(schemas)
