"""The public JSON API, as DESIGN.md specifies it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Turn
from tests.openapi_check import CheckedClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    """Every answer from /api/ is checked against the OpenAPI document."""
    return CheckedClient()


def post(client: Client, url: str, body: Any, key: str | None = None) -> Any:
    headers = {"X-Host-Key": key} if key else {}
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def create(client: Client, **body: Any) -> Any:
    body.setdefault("players", ["Anna", "Ben", "Cleo", "Dan"])
    return post(client, "/api/games", body)


def test_it_creates_a_game_and_returns_the_state_with_a_host_key(client: Client) -> None:
    response = create(client, name="Friday")
    assert response.status_code == 201
    state = response.json()
    assert state["name"] == "Friday" and len(state["host_key"]) >= 20
    assert [s["name"] for s in state["seats"]] == ["Anna", "Ben", "Cleo", "Dan"]
    assert state["rules"] == {
        "preset": "thirty",
        "start_points": 30,
        "target": 30,
        "set_aside": "any",
        "on_failure": "nothing",
        "empty_seat": "carry",
        "hunt_dice": "six",
    }
    assert state["next_roller"] == 1 and state["winners"] == [] and not state["finished"]
    assert "host_key" not in client.get(f"/api/games/{state['id']}").json()


def test_it_records_the_worked_example(client: Client) -> None:
    state = create(client).json()
    response = post(
        client, f"/api/games/{state['id']}/turns", {"total": 33, "hunt": 2}, state["host_key"]
    )
    assert response.status_code == 201
    after = response.json()
    assert [s["points"] for s in after["seats"]] == [30, 28, 30, 30]
    assert {k: after["turns"][0][k] for k in ("number", "roller", "total", "hunt", "cells")} == {
        "number": 1,
        "roller": 1,
        "total": 33,
        "hunt": 2,
        "cells": [0, 2, 0, 0],
    }
    assert after["next_roller"] == 2 and after["version"] == state["version"] + 1


def test_it_plays_a_game_to_the_end_and_undo_reopens_it(client: Client) -> None:
    state = create(client, players=["Anna", "Ben"], rules={"start_points": 2}).json()
    url, key = f"/api/games/{state['id']}/turns", state["host_key"]
    final = post(client, url, {"total": 36, "hunt": 2}, key).json()
    assert final["finished"] and final["winners"] == [1] and final["next_roller"] is None
    assert final["seats"][1]["out"]
    refused = post(client, url, {"total": 20}, key)
    assert refused.status_code == 409
    reopened = client.delete(f"{url}/last", headers={"X-Host-Key": key}).json()
    assert not reopened["finished"] and reopened["next_roller"] == 1 and reopened["turns"] == []


def test_it_refuses_a_stale_version_and_records_nothing(client: Client) -> None:
    state = create(client).json()
    url, key = f"/api/games/{state['id']}/turns", state["host_key"]
    first = post(client, url, {"total": 20, "version": state["version"]}, key)
    assert first.status_code == 201
    again = post(client, url, {"total": 20, "version": state["version"]}, key)
    assert again.status_code == 409 and "changed" in again.json()["error"]
    assert Turn.objects.filter(game_id=state["id"]).count() == 1
    stale_undo = client.delete(
        f"{url}/last?version={state['version']}", headers={"X-Host-Key": key}
    )
    assert stale_undo.status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"total": 34}, 422, "hunt dice showed 4"),
        ({"total": 40}, 422, "from 6 to 36"),
        ({"total": "33"}, 400, "whole number"),
        ({"total": 33, "hunt": True}, 400, "whole number"),
        ({"total": 33, "hunt": 2, "heal": True}, 422, "Healing"),
        ({"total": 33, "hunt": 2, "target": 3}, 422, "free for all"),
        ({"totl": 33}, 400, "Unknown field"),
    ],
)
def test_it_refuses_bad_turns_with_a_sentence_and_changes_nothing(
    client: Client, body: dict[str, Any], status: int, words: str
) -> None:
    state = create(client).json()
    response = post(client, f"/api/games/{state['id']}/turns", body, state["host_key"])
    assert response.status_code == status
    assert words in response.json()["error"]
    assert Game.objects.get(pk=state["id"]).version == state["version"]


def test_it_refuses_writes_without_the_host_key(client: Client) -> None:
    state = create(client).json()
    url = f"/api/games/{state['id']}/turns"
    assert post(client, url, {"total": 20}).status_code == 403
    assert post(client, url, {"total": 20}, "not-the-key").status_code == 403
    assert client.delete(f"{url}/last").status_code == 403
    assert Turn.objects.count() == 0


def test_it_answers_404_for_an_unknown_game(client: Client) -> None:
    assert client.get("/api/games/nope").status_code == 404


def test_it_answers_400_for_malformed_json(client: Client) -> None:
    response = client.post("/api/games", "{nope", content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": ["Anna"]}, "from 2 to 12"),
        ({"players": [f"P{i}" for i in range(13)]}, "from 2 to 12"),
        ({"players": ["Anna", "  "]}, "blank"),
        ({"players": ["Anna", "anna"]}, "different name"),
        ({"players": ["Anna", "B" * 41]}, "too long"),
        ({"players": ["Anna", "B\x07n"]}, "control"),
        (
            {"players": ["Anna", "Ben"], "rules": {"preset": "30s", "target": 31}},
            "not part of this game",
        ),
        ({"players": ["Anna", "Ben"], "rules": {"tagret": 31}}, "not part of this game"),
    ],
)
def test_it_refuses_bad_games(client: Client, body: dict[str, Any], words: str) -> None:
    response = post(client, "/api/games", body)
    assert response.status_code in (400, 422)
    assert words in response.json()["error"]
    assert Game.objects.count() == 0


def test_it_creates_a_30s_game_with_variants(client: Client) -> None:
    rules = {"preset": "30s", "healing": True, "free_for_all": True, "end": "first_out"}
    state = create(client, rules=rules).json()
    assert state["rules"] == rules | {
        "set_aside": "any",
        "weaker_attacks": False,
        "precise_elimination": False,
    }
    assert [s["points"] for s in state["seats"]] == [0, 0, 0, 0]
    url, key = f"/api/games/{state['id']}/turns", state["host_key"]
    after = post(client, url, {"total": 33, "hunt": 2, "target": 4}, key).json()
    assert after["turns"][0]["cells"] == [0, 0, 0, 6]
    healed = post(client, url, {"total": 26}, key).json()
    assert healed["seats"][1]["points"] == 4
    assert post(client, url, {"total": 20}, key).json()["seats"][2]["points"] == 10


def test_the_schema_describes_every_endpoint(client: Client) -> None:
    schema = client.get("/api/openapi.json").json()
    assert set(schema["paths"]) >= {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/turns",
        "/api/games/{game_id}/turns/last",
    }


def test_the_odds_match_the_exact_value_and_sum_to_one(client: Client) -> None:
    odds = client.get("/api/odds?set_aside=any&target=30").json()
    assert odds["p_beat"] == 0.538447
    assert abs(sum(odds["totals"].values()) - 1) < 1e-9
    choices = client.get("/api/odds/choices?roll=6,6,5,1,1,2&kept=0").json()["choices"]
    assert choices[0]["p_beat"] >= choices[-1]["p_beat"]
    assert client.get("/api/odds?target=29").status_code == 422
    assert client.get("/api/odds/choices?roll=7&kept=0").status_code == 422
