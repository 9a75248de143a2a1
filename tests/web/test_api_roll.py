"""Dice the app rolls, through the public API (DESIGN.md, "App-rolled dice"): the server rolls
from the game's secret seed, the seat plays its own turn, every roll is kept, an undo stays in
the log, and the seed shown at the end rolls every turn again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Secret, Turn
from games.rules.chance import seeded_dice
from tests.openapi_check import CheckedClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return CheckedClient()


def post(client: Client, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def create(client: Client, players: list[Any] | None = None, **rules: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"players": players or ["Anna", "Ben", "Cleo"]}
    if rules:
        body["rules"] = rules
    response = post(client, "/api/games", body)
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def roll(
    client: Client, game: dict[str, Any], body: dict[str, Any], seat: int | None = None
) -> Any:
    """A step by the host, or by seat `seat` (from 1) with its own key."""
    url = f"/api/games/{game['id']}/roll"
    if seat is None:
        return post(client, url, body, **{"X-Host-Key": game["host_key"]})
    return post(client, url, body, **{"X-Seat-Key": game["seat_keys"][seat - 1]})


def play_turn(client: Client, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """Roll a whole turn, setting aside the highest die each time and hunting when asked."""
    state = roll(client, game, {}, seat).json()
    while (turn := state["turn_in_progress"]) is not None:
        if turn["ask"] == "keep":
            body: dict[str, Any] = {"keep": [max(turn["rolls"][-1]["dice"])]}
        elif turn["ask"] == "action":
            body = {"heal": False}
        elif turn["ask"] == "target":
            body = {
                "target": next(
                    s["seat"]
                    for s in state["seats"]
                    if s["seat"] != turn["roller"] and not s["out"]
                ),
                "hunt": True,
            }
        else:
            body = {"hunt": True}
        response = roll(client, game, body, seat)
        assert response.status_code == 200, response.json()
        state = response.json()
    return dict(state)


def test_a_seat_rolls_sets_aside_and_its_turn_is_recorded_with_every_roll(client: Client) -> None:
    game = create(client)
    assert len(game["seed_sha256"]) == 64 and game["seed"] is None
    first = roll(client, game, {}, seat=1)
    assert first.status_code == 200
    turn = first.json()["turn_in_progress"]
    assert turn["roller"] == 1 and turn["ask"] == "keep" and turn["kept_total"] == 0
    assert len(turn["rolls"][0]["dice"]) == 6 and turn["rolls"][0]["kept"] is None

    dice = turn["rolls"][0]["dice"]
    keep = sorted(dice, reverse=True)[:2]
    after = roll(client, game, {"keep": keep}, seat=1).json()["turn_in_progress"]
    assert after["rolls"][0]["kept"] == keep and after["kept_total"] == sum(keep)
    assert len(after["rolls"][1]["dice"]) == 4

    state = after
    while True:
        current = client.get(f"/api/games/{game['id']}").json()
        turn = current["turn_in_progress"]
        if turn is None:
            state = current
            break
        body = (
            {"keep": [max(turn["rolls"][-1]["dice"])]} if turn["ask"] == "keep" else {"hunt": True}
        )
        assert roll(client, game, body, seat=1).status_code == 200
    recorded = state["turns"][0]
    assert recorded["roller"] == 1
    kept = [die for step in recorded["rolls"] for die in step["kept"]]
    assert len(kept) == 6 and sum(kept) == recorded["total"]
    for step in recorded["rolls"]:
        for die in step["kept"]:
            assert step["dice"].count(die) >= step["kept"].count(die)
    assert state["next_roller"] == 2


def test_the_dice_come_from_the_seed_shown_at_the_end(client: Client) -> None:
    game = create(client, ["Anna", "Ben"], start_points=1)
    while not (state := play_turn(client, game))["finished"]:
        pass
    seed = state["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == game["seed_sha256"]
    for turn in state["turns"]:
        for step, entry in enumerate(turn["rolls"]):
            assert entry["dice"] == list(
                seeded_dice(bytes.fromhex(seed), turn["number"], step, len(entry["dice"]))
            )
        for step, entry in enumerate(turn["hunt_rolls"], start=len(turn["rolls"])):
            assert entry["dice"] == list(
                seeded_dice(bytes.fromhex(seed), turn["number"], step, len(entry["dice"]))
            )


def test_a_client_cannot_send_dice_or_keep_what_was_not_rolled(client: Client) -> None:
    game = create(client)
    assert roll(client, game, {"dice": [6, 6, 6, 6, 6, 6]}).status_code == 400
    assert roll(client, game, {"keep": [6]}).status_code == 422  # nothing rolled yet
    dice = roll(client, game, {}).json()["turn_in_progress"]["rolls"][0]["dice"]
    while len(set(dice)) == 6:
        # Six different faces (one roll in 65) leave no face to refuse: roll in a new game.
        game = create(client)
        dice = roll(client, game, {}).json()["turn_in_progress"]["rolls"][0]["dice"]
    missing = next(face for face in range(1, 7) if face not in dice)
    version = Game.objects.get(pk=game["id"]).version
    refused: list[dict[str, Any]] = [
        {"keep": [missing]},
        {"keep": []},
        {"keep": [7]},
        {"keep": [0]},
        {"hunt": True},
    ]
    for body in refused:
        response = roll(client, game, body)
        assert response.status_code == 422, body
        assert response.json()["error"]
    assert Game.objects.get(pk=game["id"]).version == version  # nothing changed
    assert roll(client, game, {"keep": [dice[0]], "version": version - 1}).status_code == 409


def test_one_die_at_a_time_means_exactly_one(client: Client) -> None:
    game = create(client, set_aside="one")
    dice = roll(client, game, {}).json()["turn_in_progress"]["rolls"][0]["dice"]
    response = roll(client, game, {"keep": sorted(dice)[-2:]})
    assert response.status_code == 422
    assert "one die at a time" in response.json()["error"]
    assert roll(client, game, {"keep": [dice[0]]}).status_code == 200


def test_only_the_roller_rolls_and_typed_turns_wait_for_the_rolled_one(client: Client) -> None:
    game = create(client)
    assert roll(client, game, {}, seat=2).status_code == 403  # not Ben's turn
    assert roll(client, game, {}, seat=1).status_code == 200
    typed = post(
        client,
        f"/api/games/{game['id']}/turns",
        {"total": 20},
        **{"X-Host-Key": game["host_key"]},
    )
    assert typed.status_code == 409
    undo = client.delete(
        f"/api/games/{game['id']}/turns/last", headers={"X-Host-Key": game["host_key"]}
    )
    assert undo.status_code == 409
    assert Turn.objects.count() == 0


def test_a_rolled_turn_is_never_taken_back_and_rolled_again(client: Client) -> None:
    """Board Game Arena's undo policy: an undo never crosses dice someone has seen."""
    game = create(client)
    played = play_turn(client, game, seat=1)
    assert played["turns"][0]["seed_index"] == 0
    undo = client.delete(
        f"/api/games/{game['id']}/turns/last", headers={"X-Host-Key": game["host_key"]}
    )
    assert undo.status_code == 422 and "cannot be taken back" in undo.json()["error"]
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["turns"] == played["turns"] and after["version"] == played["version"]
    assert after["undone_turns"] == []


def test_computer_seats_play_their_turns_at_once_with_their_rolls_kept(client: Client) -> None:
    game = create(client, ["Anna", {"name": "Robot", "computer": True}, "Cleo"])
    assert game["seat_keys"][1] is None
    assert [s["computer"] for s in game["seats"]] == [False, True, False]
    state = play_turn(client, game, seat=1)
    assert [t["roller"] for t in state["turns"]] == [1, 2]
    assert len(state["turns"][1]["rolls"]) >= 1 and state["next_roller"] == 3


def test_a_game_of_computers_alone_plays_to_the_end(client: Client) -> None:
    robots = [{"name": f"Robot {n}", "computer": True} for n in (1, 2)]
    game = create(client, robots, start_points=3)
    assert game["finished"] and game["winners"] and game["seed"]
    assert Secret.objects.get().seed == game["seed"]


def test_a_typed_in_turn_a_computer_rolled_after_stays(client: Client) -> None:
    game = create(client, ["Anna", {"name": "Robot", "computer": True}])
    host = {"X-Host-Key": game["host_key"]}
    typed = post(client, f"/api/games/{game['id']}/turns", {"total": 20}, **host).json()
    assert [t["roller"] for t in typed["turns"]] == [1, 2]
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
    assert undo.status_code == 422 and "computer" in undo.json()["error"]
    assert len(client.get(f"/api/games/{game['id']}").json()["turns"]) == 2


def test_a_typed_in_turn_undoes_as_before(client: Client) -> None:
    game = create(client, ["Anna", "Ben"])
    host = {"X-Host-Key": game["host_key"]}
    post(client, f"/api/games/{game['id']}/turns", {"total": 20}, **host)
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
    assert undo.status_code == 200 and undo.json()["turns"] == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "30s", "healing": True, "free_for_all": True},
        {"preset": "30s", "weaker_attacks": True},
        {"preset": "thirty", "hunt_dice": "margin", "target": 31, "start_points": 1},
    ],
    ids=["30s-healing-free-for-all", "30s-weaker-attacks", "thirty-margin"],
)
def test_every_variant_plays_to_the_end_through_the_api(
    client: Client, rules: dict[str, Any]
) -> None:
    game = create(client, ["Anna", "Ben"], **rules)
    for _ in range(400):
        state = play_turn(client, game)
        if state["finished"]:
            break
    assert state["finished"]
    for turn in state["turns"]:
        assert sum(d for step in turn["rolls"] for d in step["kept"]) == turn["total"]


def test_reopening_a_finished_game_rolls_on_with_a_fresh_seed(client: Client) -> None:
    """Once the seed is shown, nobody may foresee a die: an undo of the typed-in deciding turn
    reopens the game with a new secret seed; the one shown stays public, and each rolled turn
    names the seed that rolled it. A rolled deciding turn stays."""
    for _attempt in range(50):
        game = create(client, ["Anna", "Ben"], start_points=2)
        host = {"X-Host-Key": game["host_key"]}
        state = play_turn(client, game)  # rolled, from the first seed
        if not state["finished"]:
            break  # the deciding turn is to be typed in: a seed whose first turn won is drawn again
    while not state["finished"]:
        # Typed-in turns that beat the target with every hunt die hitting: quick damage.
        state = post(
            client, f"/api/games/{game['id']}/turns", {"total": 36, "hunt": 6}, **host
        ).json()
    shown = state["seed"]
    undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
    reopened = undo.json()
    assert undo.status_code == 200 and not reopened["finished"] and reopened["seed"] is None
    assert reopened["earlier_seeds"] == [{"seed": shown, "seed_sha256": game["seed_sha256"]}]
    secret = Secret.objects.get(game_id=game["id"]).seed
    assert secret != shown
    assert reopened["seed_sha256"] == hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    # The turn rolled now comes from the fresh seed, not from the one everybody saw.
    while not (state := play_turn(client, game))["finished"]:
        pass
    seeds = [earlier["seed"] for earlier in state["earlier_seeds"]] + [state["seed"]]
    rolled = [turn for turn in state["turns"] if turn["rolls"]]
    assert {turn["seed_index"] for turn in rolled} == {0, 1}
    for turn in rolled:
        seed = bytes.fromhex(seeds[turn["seed_index"]])
        for step, roll_ in enumerate(turn["rolls"]):
            dice = roll_["dice"]
            assert dice == list(seeded_dice(seed, turn["number"], step, len(dice)))
    # The rolled turn that decided the game now stays.
    last = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
    assert last.status_code == 422
