"""The OpenAPI document: generated from the request and answer models, complete, and in step
with the rules module it must not contradict."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import URLPattern

from games.api.openapi import openapi_schema
from games.kinds.cards import api_models as card_models
from games.kinds.dice import api_models as dice_models
from games.rules import cards
from games.rules.dice.ruleset import PRESET_KEYS
from tests.openapi_check import CheckedClient, check_answer
from thirty.urls import urlpatterns

pytestmark = pytest.mark.django_db
DA = {"accept-language": "da"}


@pytest.fixture
def client() -> Client:
    return CheckedClient()


def post(client: Client, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def test_it_serves_the_generated_document(client: Client) -> None:
    assert client.get("/api/openapi.json").json() == json.loads(json.dumps(openapi_schema()))


def test_the_document_has_every_api_address() -> None:
    routes = {
        "/" + str(p.pattern).replace("<game:game_id>", "{game_id}").replace("<int:seat>", "{seat}")
        for p in urlpatterns
        if isinstance(p, URLPattern) and str(p.pattern).startswith("api/")
    }
    assert routes - {"/api/openapi.json"} == set(openapi_schema()["paths"])


def test_the_rule_models_have_the_keys_of_the_rules_module() -> None:
    for preset, model in (("thirty", dice_models.ThirtyRules), ("30s", dice_models.ThirtySRules)):
        assert set(model.model_fields) == {"preset", *PRESET_KEYS[preset]}  # type: ignore[index]
    card_keys = {field.name for field in dataclasses.fields(cards.CardRules)}
    assert set(card_models.CardRules.model_fields) == {"preset", *card_keys}


def test_the_check_refuses_an_answer_of_the_wrong_shape() -> None:
    with pytest.raises(AssertionError, match="p_beat"):
        check_answer(
            "GET", "/api/odds", 200, {"p_beat": "high", "p_beat_exact": "1/2", "totals": {}}
        )
    with pytest.raises(AssertionError, match="does not document 418"):
        check_answer("GET", "/api/odds", 418, {"error": "a teapot"})


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"total": 33, "heal": "yes"}, "»heal« skal være true eller false."),
        ({"total": [33]}, "»total« skal være et helt tal."),
        ({"hunt": 2}, "»total« skal være med."),
        ({"total": None}, "»total« skal være med."),
        ({"total": 20, "version": "7"}, "»version« skal være et helt tal."),
        ({"total": 20, "colour": "red"}, "Ukendt felt: colour."),
    ],
)
def test_a_malformed_turn_gets_one_sentence_in_the_readers_language(
    client: Client, body: dict[str, Any], sentence: str
) -> None:
    game = post(client, "/api/games", {"players": ["Anna", "Ben"]}).json()
    url = f"/api/games/{game['id']}/turns"
    response = post(client, url, body, **{"X-Host-Key": game["host_key"]} | DA)
    assert response.status_code == 400 and response.json() == {"error": sentence}


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"preset": "30s", "start_points": 20}, "not part of this game"),
        ({"target": 36}, "from 30 to 35"),
        ({"target": "31"}, "from 30 to 35"),
        ({"preset": "cards", "tokens": 0}, "from 1 to 9"),
        ({"preset": "chess"}, "no game called"),
    ],
)
def test_rules_the_models_refuse_are_explained_by_the_rules(
    client: Client, rules: dict[str, Any], words: str
) -> None:
    response = post(client, "/api/games", {"players": ["Anna", "Ben"], "rules": rules})
    assert response.status_code == 422 and words in response.json()["error"]


def test_a_player_of_the_wrong_shape_is_a_400(client: Client) -> None:
    body = {"players": ["Anna", {"name": "Robot", "computer": "yes"}]}
    response = post(client, "/api/games", body)
    assert response.status_code == 400 and "“computer”" in response.json()["error"]


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024)
def test_a_body_over_the_limit_is_a_413(client: Client) -> None:
    response = post(client, "/api/games", {"players": ["Anna", "Ben"], "name": "x" * 2000})
    assert response.status_code == 413 and "1 kilobytes" in response.json()["error"]
