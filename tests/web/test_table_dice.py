"""Dice made by the whole table: every phone joins with the SHA-256 of a secret before the
first roll, every roll mixes the server's seed with the part of the phone that asked, and at
the end every secret is shown and every die re-derives, checked here independently."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

import pytest
from django.test import Client

from games.models import TableRoll

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


class Phone:
    """A phone at the table: its own secret, its key as a cookie, the API with its key."""

    def __init__(self, game: dict[str, Any], cookie: str, key: str, header: str) -> None:
        self.game, self.secret = game, secrets.token_hex(32)
        self.client = Client()
        self.client.cookies[f"{cookie}_{game['id']}"] = key
        self.headers = {header: key}

    def join(self) -> Any:
        commitment = hashlib.sha256(bytes.fromhex(self.secret)).hexdigest()
        return self.client.post(f"/g/{self.game['id']}/table-dice", {"commitment": commitment})

    def reveal(self, secret: str | None = None) -> Any:
        shown = self.secret if secret is None else secret
        return self.client.post(f"/g/{self.game['id']}/table-dice", {"secret": shown})

    def part(self, version: int) -> str:
        message = f"thirty:part:v:{version}".encode()
        return hmac.new(bytes.fromhex(self.secret), message, hashlib.sha256).hexdigest()

    def roll(self, body: dict[str, Any], version: int, part: bool = True) -> Any:
        body = body | {"version": version} | ({"part": self.part(version)} if part else {})
        return post(self.client, f"/api/games/{self.game['id']}/roll", body, **self.headers)


def independent_dice(seed: str, part: str, turn: int, step: int, count: int) -> list[int]:
    """The table's dice as the rules page describes them, written again from the description."""
    key = hashlib.sha256(bytes.fromhex(seed) + bytes.fromhex(part)).digest()
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        label = f":turn:{turn}:roll:{step}:{block}".encode()
        dice += [b % 6 + 1 for b in hashlib.sha256(key + label).digest() if b < 252]
        block += 1
    return dice[:count]


def new_table(client: Client, **rules: Any) -> tuple[dict[str, Any], Phone, Phone, Phone]:
    body = {"players": ["Anna", "Ben"], "rules": rules, "table_dice": True}
    game = post(client, "/api/games", body).json()
    host = Phone(game, "thirty_host", game["host_key"], "X-Host-Key")
    anna = Phone(game, "thirty_seat", game["seat_keys"][0], "X-Seat-Key")
    ben = Phone(game, "thirty_seat", game["seat_keys"][1], "X-Seat-Key")
    return game, host, anna, ben


def play_turn(phone: Phone, state: dict[str, Any]) -> dict[str, Any]:
    """The rest of a turn, or a whole one when none is under way."""
    if state["turn_in_progress"] is None:
        answer = phone.roll({}, state["version"])
        assert answer.status_code == 200, answer.json()
        state = answer.json()
    while (turn := state["turn_in_progress"]) is not None:
        body: dict[str, Any] = (
            {"keep": [max(turn["rolls"][-1]["dice"])]} if turn["ask"] == "keep" else {"hunt": True}
        )
        answer = phone.roll(body, state["version"])
        assert answer.status_code == 200, answer.json()
        state = answer.json()
    return state


def test_a_whole_game_of_table_dice_checks_out(client: Client) -> None:
    game, host, anna, ben = new_table(client, start_points=2)
    assert game["table_dice"]
    for phone in (host, anna, ben):
        assert phone.join().status_code == 204
    other = Phone(game, "thirty_seat", game["seat_keys"][1], "X-Seat-Key")
    assert other.join().status_code == 409  # a second phone on Ben's seat
    page = Client().get(f"/g/{game['id']}/").content.decode()
    for phone in (host, anna, ben):  # every SHA-256 is on every phone before the first roll
        assert hashlib.sha256(bytes.fromhex(phone.secret)).hexdigest()[:16] in page
    state = client.get(f"/api/games/{game['id']}").json()
    missing = anna.roll({}, state["version"], part=False)
    assert missing.status_code == 422 and "part" in missing.json()["error"]
    first = anna.roll({}, state["version"])
    assert first.status_code == 200
    # After the first roll nobody joins, and the secrets stay hidden till the end.
    late = Phone(game, "thirty_seat", game["seat_keys"][0], "X-Seat-Key")
    refused = late.join()
    assert refused.status_code == 409 and "started" in refused.content.decode()
    assert anna.join().status_code == 204  # the same phone again, after a reload
    assert anna.reveal().status_code == 409
    state = play_turn(anna, first.json())
    while not state["finished"]:
        state = play_turn(anna if state["next_roller"] == 1 else ben, state)
    assert ben.reveal(secrets.token_hex(32)).status_code == 409  # not the secret it committed
    for phone in (host, anna, ben):
        assert phone.reveal().status_code == 204
    check = Client().get(f"/g/{game['id']}/check")
    assert check.status_code == 200
    data = check.context["check_data"]
    assert data["seed"] == state["seed"] and len(data["rolls"]) == TableRoll.objects.count() > 0
    secrets_by_seat = {part["seat"]: part["secret"] for part in data["parts"]}
    for roll in data["rolls"]:
        secret = secrets_by_seat[roll["seat"]]
        expected_part = hmac.new(
            bytes.fromhex(secret), f"thirty:part:{roll['label']}".encode(), hashlib.sha256
        ).hexdigest()
        assert roll["part"] == expected_part
        assert roll["dice"] == independent_dice(
            data["seed"], roll["part"], roll["number"], roll["step"], len(roll["dice"])
        )
    # A finished game of the table's dice is not reopened: every part is known now.
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host.headers)
    assert undo.status_code == 422


def test_a_phone_that_never_joined_cannot_roll(client: Client) -> None:
    game, _host, anna, _ben = new_table(client)
    state = client.get(f"/api/games/{game['id']}").json()
    refused = anna.roll({}, state["version"])
    assert refused.status_code == 422 and "joined" in refused.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == state["version"]


def test_without_the_option_the_dice_come_from_the_seed_alone(client: Client) -> None:
    game = post(client, "/api/games", {"players": ["Anna", "Ben"]}).json()
    assert not game["table_dice"]
    answer = post(client, f"/api/games/{game['id']}/roll", {}, **{"X-Host-Key": game["host_key"]})
    assert answer.status_code == 200 and not TableRoll.objects.exists()
