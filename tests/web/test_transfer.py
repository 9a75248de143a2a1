"""Export a game as JSON and the sheet as CSV, and import a JSON export again."""

from __future__ import annotations

import io
import json
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import store
from games.access import host_cookie_name
from games.models import Game
from games.names import default_game_name
from games.rules import dice as dice_rules
from games.store import MAX_TURNS
from games.transfer import GameFileError, export_game, import_game
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def played_game() -> Game:
    game = make_game(
        players=["Anna", "Ben", "Cleo"],
        rules={"preset": "30s", "healing": True, "free_for_all": True},
    )
    return play(
        game,
        dice_rules.Turn(26),
        dice_rules.Turn(33, hunt=2, target=0),
        dice_rules.Turn(35, heal=True),
        dice_rules.Turn(30),
    )


def test_a_json_export_imports_back_identically() -> None:
    original = played_game()
    exported = export_game(original)
    copy, host_key = import_game(json.loads(json.dumps(exported)))
    assert copy.pk != original.pk and host_key
    again = export_game(copy)
    assert {k: v for k, v in again.items() if k != "created_at"} == {
        k: v for k, v in exported.items() if k != "created_at"
    }


def test_an_edited_export_is_refused_and_creates_nothing() -> None:
    exported = export_game(played_game())
    exported["turns"][1]["cells"] = [0, 0, 99]
    with pytest.raises(GameFileError, match="does not match"):
        import_game(exported)
    exported = export_game(played_game())
    exported["turns"][0]["total"] = 40
    with pytest.raises(GameFileError, match="from 6 to 36"):
        import_game(exported)
    assert Game.objects.count() == 2  # the two played games; nothing imported


@pytest.mark.parametrize(
    "data", [[], {"format": "chess"}, {"format": "thirty-game", "format_version": 1}]
)
def test_files_that_are_not_games_are_refused_with_a_sentence(data: Any) -> None:
    with pytest.raises(GameFileError):
        import_game(data)


def test_the_host_downloads_the_export_and_anyone_the_csv(client: Client) -> None:
    game = played_game()
    assert client.get(f"/g/{game.pk}/export.json").status_code == 403
    csv = client.get(f"/g/{game.pk}/sheet.csv").content.decode()
    assert csv.splitlines()[0] == "#,Roll,Anna,Ben,Cleo"
    assert csv.splitlines()[-1] == "Points,,10,0,0"
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    response = client.get(f"/g/{game.pk}/export.json")
    assert response.status_code == 200 and response.json()["players"] == ["Anna", "Ben", "Cleo"]


def test_importing_through_the_page_makes_the_importer_host(client: Client) -> None:
    exported = json.dumps(export_game(played_game())).encode()
    upload = io.BytesIO(exported)
    upload.name = "game.json"
    response = client.post("/import", {"file": upload})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "turn-panel" in page and 'id="turn-4"' in page
    bad = io.BytesIO(b"not json")
    bad.name = "bad.json"
    refused = client.post("/import", {"file": bad})
    assert refused.status_code == 422 and "not a game exported" in refused.content.decode()


def long_export(turns: int) -> dict[str, Any]:
    """An export of a game of `turns` failed rolls, built without the database."""
    replay = dice_rules.DiceGame(dice_rules.RuleSet.from_dict({}), 3)
    rows = [replay.push(dice_rules.Turn(20)) for _ in range(turns)]
    return {
        "format": "thirty-game",
        "format_version": 1,
        "name": "Long",
        "rules": {},
        "players": ["Anna", "Ben", "Cleo"],
        "turns": [{"total": 20, "cells": list(row.cells)} for row in rows],
    }


def test_a_game_of_the_most_turns_imports_in_a_few_queries() -> None:
    with count_statements() as statements:
        game, _ = import_game(long_export(MAX_TURNS))
    # Rows go in by hundreds (SQLite takes at most 999 values per statement), not one by one.
    assert len(statements) < MAX_TURNS // 25, len(statements)
    assert game.turns.count() == MAX_TURNS and game.version == MAX_TURNS + 1
    assert export_game(game)["turns"][-1] == {
        "total": 20,
        "hunt": None,
        "target": None,
        "heal": False,
        "cells": [0, 0, 0],
    }


def test_a_file_past_the_most_turns_is_refused() -> None:
    with pytest.raises(GameFileError, match="more than 5000 turns"):
        import_game(long_export(MAX_TURNS + 1))
    assert Game.objects.count() == 0


def test_an_upload_over_the_limit_is_refused_before_it_is_read(client: Client) -> None:
    big = io.BytesIO(b" " * (2 * 1024 * 1024))
    big.name = "big.json"
    response = client.post("/import", {"file": big})
    assert response.status_code == 413 and "larger than" in response.content.decode()


def test_an_upload_over_the_limit_without_its_length_is_stopped(rf: Any) -> None:
    """A body that does not announce its size is read only up to the limit."""
    from django.test.client import encode_multipart

    from games.uploads import LimitedMemoryUploadHandler

    big = io.BytesIO(b" " * (2 * 1024 * 1024))
    big.name = "big.json"
    body = encode_multipart("BoUnDaRy", {"file": big})
    request = rf.post("/import", body, content_type="multipart/form-data; boundary=BoUnDaRy")
    request.upload_handlers = [LimitedMemoryUploadHandler(request)]
    assert "file" not in request.FILES and request.upload_too_large


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 100_000])
def test_a_deeply_nested_file_is_refused(client: Client, body: bytes) -> None:
    upload = io.BytesIO(body)
    upload.name = "deep.json"
    response = client.post("/import", {"file": upload})
    assert response.status_code == 422 and Game.objects.count() == 0


def test_names_that_look_like_formulas_are_text_in_the_csv(client: Client) -> None:
    names = ["=1+1", "+Ben", "-Cleo", "@Dan", "\tEve", "Finn"]
    game = make_game(players=names)
    play(game, dice_rules.Turn(20))
    header = client.get(f"/g/{game.pk}/sheet.csv").content.decode().splitlines()[0]
    assert header == "#,Roll,'=1+1,'+Ben,'-Cleo,'@Dan,'\tEve,Finn"


def test_a_name_the_app_made_up_is_exported_in_the_language_of_whoever_exports_it() -> None:
    game = played_game()
    store.name_by_day(game, ["Anna", "Ben", "Cleo"])
    day = date.fromisoformat(game.name_default["day"])  # type: ignore[index]
    names = {}
    for language in ("en", "da"):
        host = Client(headers={"Accept-Language": language})
        host.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
        names[language] = host.get(f"/g/{game.pk}/export.json").json()["name"]
        with translation.override(language):
            assert names[language] == default_game_name(["Anna", "Ben", "Cleo"], day)
    assert " og Cleo" in names["da"] and " and Cleo" in names["en"]
    # The API's name stays the one the game was made with, whoever asks.
    for language in ("en", "da"):
        api = Client(headers={"Accept-Language": language}).get(f"/api/games/{game.pk}")
        assert api.json()["name"] == game.name
