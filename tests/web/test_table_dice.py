"""Dice made by the whole table: every phone joins with the SHA-256 of a secret before the
first roll; every roll mixes the server's seed with the part of the phone that asked and the
part every other phone sent once the roll, its choice fixed, waited for it, each made for the
roll's label; at the end every secret is shown and every die re-derives, checked here
independently. Nothing but the game moving on gives a roll a new label, and no part is taken
before the roll is asked for, so nobody knows every part while a choice can change."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

import pytest
from django.test import Client

from games import store
from games.models import Game, RollPart, TableRoll

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

    def part(self, label: str) -> str:
        message = f"thirty:part:{label}".encode()
        return hmac.new(bytes.fromhex(self.secret), message, hashlib.sha256).hexdigest()

    def send(self, label: str, part: str | None = None) -> Any:
        """The part of a roll this phone sends once it sees the roll waiting for it."""
        body = {"label": label, "part": part or self.part(label)}
        return self.client.post(f"/g/{self.game['id']}/table-dice", body)

    def roll(self, body: dict[str, Any], state: dict[str, Any], part: bool = True) -> Any:
        extra = {"part": self.part(state["table_label"])} if part else {}
        body = body | {"version": state["version"]} | extra
        return post(self.client, f"/api/games/{self.game['id']}/roll", body, **self.headers)

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(f"/api/games/{self.game['id']}").json()
        return answer


def independent_dice(seed: str, parts: list[str], turn: int, step: int, count: int) -> list[int]:
    """The table's dice as the rules describe them, written again from the description."""
    key = hashlib.sha256(bytes.fromhex(seed) + b"".join(map(bytes.fromhex, parts))).digest()
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


def step(phone: Phone, body: dict[str, Any], state: dict[str, Any], *others: Phone) -> Any:
    """One step of `phone`'s turn: a roll asked for waits for every phone in `others`, which
    sends its part of it; the last part makes the roll. A choice that rolls nothing (whom
    to attack) is made at once."""
    answer = phone.roll(body, state)
    if not others or answer.status_code == 200:  # a step that rolls nothing (a choice)
        assert answer.status_code == 200, answer.json()
        return answer.json()
    assert answer.status_code == 202, answer.json()
    waiting = answer.json()["table_waiting"]
    assert waiting["label"] == state["table_label"]
    for other in others:
        assert other.send(waiting["label"]).status_code == 204
    after = phone.state()
    assert after["table_waiting"] is None and after["version"] > answer.json()["version"]
    return after


def next_choice(turn: dict[str, Any]) -> dict[str, Any]:
    """A plain player's next step of a turn under way: keep the highest die, or hunt."""
    if turn["ask"] == "keep":
        return {"keep": [max(turn["rolls"][-1]["dice"])]}
    return {"hunt": True}


def play_turn(phone: Phone, state: dict[str, Any], *others: Phone) -> dict[str, Any]:
    """The rest of a turn, or a whole one when none is under way."""
    if state["turn_in_progress"] is None:
        state = step(phone, {}, state, *others)
    while (turn := state["turn_in_progress"]) is not None:
        state = step(phone, next_choice(turn), state, *others)
    return state


def check(data: dict[str, Any]) -> int:
    """Every roll of the check page's data, checked as a person with the revealed secrets
    would: each part against its phone's secret, then the dice from the seed and every part.
    The parts checked."""
    secrets_by_seat = {part["seat"]: part["secret"] for part in data["parts"]}
    checked = 0
    for roll in data["rolls"]:
        for entry in roll["parts"]:
            secret = secrets_by_seat[entry["seat"]]
            expected = hmac.new(
                bytes.fromhex(secret), f"thirty:part:{roll['label']}".encode(), hashlib.sha256
            ).hexdigest()
            assert entry["part"] == expected
            checked += 1
        parts = [entry["part"] for entry in roll["parts"]]
        assert roll["dice"] == independent_dice(
            data["seed"], parts, roll["number"], roll["step"], len(roll["dice"])
        )
    return checked


@pytest.mark.usefixtures("template_records")  # reads the answer's templates or context
@pytest.mark.slow
def test_a_whole_game_of_table_dice_mixes_every_phone_and_checks_out(client: Client) -> None:
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
    assert state["table_label"] == "t:1:0"
    missing = anna.roll({}, state, part=False)
    assert missing.status_code == 422 and "part" in missing.json()["error"]
    # Nobody sends a part before the roll is asked for: that would let whoever reads the
    # server's rows see the dice before the roller chose.
    assert ben.send("t:1:0").status_code == 409
    asked = anna.roll({}, state)
    assert asked.status_code == 202
    assert asked.json()["table_waiting"]["label"] == "t:1:0"
    assert asked.json()["table_waiting"]["roller"] == 1
    assert not TableRoll.objects.exists()  # nothing rolled yet
    again = anna.roll({}, asked.json())
    assert again.status_code == 422 and "on its way" in again.json()["error"]
    assert anna.send("t:1:0").status_code == 409  # the roller's part came with the roll
    assert ben.send("t:1:0").status_code == 204
    assert ben.send("t:1:0").status_code == 204  # the same again changes nothing
    assert ben.send("t:1:0", host.part("t:1:0")).status_code == 409
    assert not TableRoll.objects.exists()  # the host's phone has not sent yet
    assert host.send("t:1:0").status_code == 204  # the last part: the roll is made
    first = anna.state()
    assert first["table_waiting"] is None and first["turn_in_progress"] is not None
    roll = TableRoll.objects.get()
    assert roll.seat == 0 and roll.label == "t:1:0"
    assert roll.parts == [  # the host's phone first, then by seat
        {"seat": None, "part": host.part("t:1:0")},
        {"seat": 0, "part": anna.part("t:1:0")},
        {"seat": 1, "part": ben.part("t:1:0")},
    ]
    assert first["table_label"] == "t:1:1"
    assert ben.send("t:1:0").status_code == 204  # sent before, and used: nothing changes
    assert ben.send("t:1:1").status_code == 409  # no roll waits for it yet
    # After the first roll nobody joins, and the secrets stay hidden till the end.
    late = Phone(game, "thirty_seat", game["seat_keys"][0], "X-Seat-Key")
    refused = late.join()
    assert refused.status_code == 409 and "started" in refused.content.decode()
    assert anna.join().status_code == 204  # the same phone again, after a reload
    assert anna.reveal().status_code == 409
    state = play_turn(anna, first, host, ben)
    while not state["finished"]:
        if state["next_roller"] == 1:
            state = play_turn(anna, state, host, ben)
        else:
            state = play_turn(ben, state, host, anna)
    assert state["table_label"] is None
    assert ben.reveal(secrets.token_hex(32)).status_code == 409  # not the secret it committed
    for phone in (host, anna, ben):
        assert phone.reveal().status_code == 204
    check_page = Client().get(f"/g/{game['id']}/check")
    assert check_page.status_code == 200
    data = check_page.context["check_data"]
    assert data["seed"] == state["seed"] and len(data["rolls"]) == TableRoll.objects.count() > 1
    assert all(len(roll["parts"]) == 3 for roll in data["rolls"])  # every phone, every roll
    assert check(data) == 3 * len(data["rolls"])
    # A finished game of the table's dice is not reopened: every part is known now.
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host.headers)
    assert undo.status_code == 422


def test_while_a_roll_waits_its_choice_and_its_label_stay(client: Client) -> None:
    """The roll is made for the game it was asked for: nothing changes the game meanwhile but
    what no die depends on (its name, the hints), and nothing gives the roll a new label."""
    game, host, anna, ben = new_table(client)
    for phone in (host, anna, ben):
        assert phone.join().status_code == 204
    before = anna.state()
    asked = anna.roll({}, before)
    assert asked.status_code == 202
    store.rename_game(game["id"], "Another name")
    store.show_hints(game["id"], shown=True)
    after = anna.state()
    assert after["version"] > asked.json()["version"]
    assert after["table_label"] == before["table_label"] == after["table_waiting"]["label"]
    typed = post(
        client, f"/api/games/{game['id']}/turns", {"total": 20}, **{"X-Host-Key": game["host_key"]}
    )
    assert typed.status_code == 422 and "on its way" in typed.json()["error"]
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host.headers)
    assert undo.status_code == 422
    assert ben.send(after["table_label"]).status_code == 204
    assert host.send(after["table_label"]).status_code == 204
    assert RollPart.objects.count() == 2
    assert [entry["seat"] for entry in TableRoll.objects.get().parts] == [None, 0, 1]
    assert len(anna.state()["turn_in_progress"]["rolls"]) == 1


def test_a_phone_that_left_holds_one_roll_up_for_a_moment_and_no_more(
    client: Client, settings: Any
) -> None:
    game, host, anna, ben = new_table(client)
    for phone in (host, anna, ben):
        assert phone.join().status_code == 204
    state = anna.state()
    asked = anna.roll({}, state)
    assert asked.status_code == 202
    label = state["table_label"]
    assert host.send(label).status_code == 204
    # Ben's phone is gone. Before the wait runs out, asking to go on changes nothing.
    assert host.client.post(f"/g/{game['id']}/table-dice", {"finish": label}).status_code == 204
    assert anna.state()["table_waiting"] is not None
    settings.THIRTY_TABLE_ROLL_WAIT_SECONDS = 0
    assert host.client.post(f"/g/{game['id']}/table-dice", {"finish": label}).status_code == 204
    rolled = anna.state()
    assert rolled["table_waiting"] is None and rolled["turn_in_progress"] is not None
    assert [entry["seat"] for entry in TableRoll.objects.get().parts] == [None, 0]
    late = ben.send(label)
    assert late.status_code == 409 and "without it" in late.content.decode()
    page = host.client.get(f"/g/{game['id']}/").content.decode()
    assert "asleep" in page
    # Ben's phone is asleep: Anna's next roll waits for the host's phone alone.
    settings.THIRTY_TABLE_ROLL_WAIT_SECONDS = 60
    state = step(anna, next_choice(rolled["turn_in_progress"]), rolled, host)
    assert [entry["seat"] for entry in list(TableRoll.objects.all())[-1].parts] == [None, 0]
    # Back, Ben's phone joins again (its page does so by itself), and is waited for again.
    assert ben.join().status_code == 204
    if (turn := state["turn_in_progress"]) is not None:
        state = step(anna, next_choice(turn), anna.state(), host, ben)
        assert [entry["seat"] for entry in list(TableRoll.objects.all())[-1].parts] == [None, 0, 1]


def test_computers_after_a_typed_turn_roll_with_the_parts_of_the_turn_it_followed(
    client: Client,
) -> None:
    body = {
        "players": ["Anna", {"name": "Robot", "computer": True}],
        "rules": {},
        "table_dice": True,
    }
    game = post(client, "/api/games", body).json()
    host = Phone(game, "thirty_host", game["host_key"], "X-Host-Key")
    anna = Phone(game, "thirty_seat", game["seat_keys"][0], "X-Seat-Key")
    for phone in (host, anna):
        assert phone.join().status_code == 204
    state = client.get(f"/api/games/{game['id']}").json()
    # Anna types in a turn from her own phone's page, with her part of the roll it found.
    typed = anna.client.post(
        f"/g/{game['id']}/turn",
        {"total": "20", "v": state["version"], "part": anna.part(state["table_label"])},
    )
    assert typed.status_code in (200, 302)
    robot = list(TableRoll.objects.filter(number=2))
    assert robot and {roll.label for roll in robot} == {"t:1:0"}
    # Nobody chooses a computer's dice: they do not wait for the other phones.
    assert robot[0].parts == [{"seat": 0, "part": anna.part("t:1:0")}]
    assert Game.objects.get(pk=game["id"]).turn_count == 2


def test_a_phone_that_never_joined_cannot_roll_nor_send_a_part(client: Client) -> None:
    game, _host, anna, _ben = new_table(client)
    state = client.get(f"/api/games/{game['id']}").json()
    assert anna.send(state["table_label"]).status_code == 409
    refused = anna.roll({}, state)
    assert refused.status_code == 422 and "joined" in refused.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == state["version"]


def test_without_the_option_the_dice_come_from_the_seed_alone(client: Client) -> None:
    game = post(client, "/api/games", {"players": ["Anna", "Ben"]}).json()
    assert not game["table_dice"]
    answer = post(client, f"/api/games/{game['id']}/roll", {}, **{"X-Host-Key": game["host_key"]})
    assert answer.status_code == 200 and not TableRoll.objects.exists()
    assert answer.json()["table_label"] is None
