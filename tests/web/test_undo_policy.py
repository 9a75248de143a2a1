"""The undo policy over random games with app-rolled dice, typed-in turns and computers: no
turn number is ever rolled twice with different dice, and every roll of every game, reopened
or not, re-derives from the seeds the game reveals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games.rules.chance import seeded_dice
from tests.web.test_api_roll import create, play_turn, post

pytestmark = pytest.mark.django_db


def rolled_dice(turn: dict[str, Any]) -> list[list[int]]:
    return [r["dice"] for r in turn["rolls"]] + [h["dice"] for h in turn["hunt_rolls"] or ()]


@pytest.mark.parametrize("seed", range(6))
def test_no_turn_is_rolled_twice_and_every_roll_re_derives(client: Client, seed: int) -> None:
    rng = random.Random(seed)
    players: list[Any] = ["Anna", "Ben"]
    if seed % 2:
        players.insert(1, {"name": "Robot", "computer": True})
    game = create(client, players, start_points=3)
    host = {"X-Host-Key": game["host_key"]}
    seen: dict[int, list[list[int]]] = {}  # every rolled turn ever shown, by number
    reopened = 0
    state = client.get(f"/api/games/{game['id']}").json()
    for _ in range(300):
        if state["finished"]:
            if reopened == 3:
                break
            undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
            last = state["turns"][-1]
            # Only a typed-in deciding turn can be taken back; a rolled one stays.
            assert undo.status_code == (422 if last["rolls"] else 200)
            if undo.status_code == 422:
                break
            reopened += 1
            state = undo.json()
            assert state["seed"] is None and len(state["earlier_seeds"]) == reopened
        choice = rng.random()
        if choice < 0.5:
            state = play_turn(client, game)
        elif choice < 0.85:
            total = rng.randint(6, 36)
            body = {"total": total} | ({"hunt": rng.randint(0, 6)} if total > 30 else {})
            typed = post(client, f"/api/games/{game['id']}/turns", body, **host)
            assert typed.status_code == 201
            state = typed.json()
        else:
            undo = client.delete(f"/api/games/{game['id']}/turns/last", headers=host)
            if state["turns"]:
                expected = 422 if state["turns"][-1]["rolls"] else 200
                assert undo.status_code == expected, undo.json()
            if undo.status_code == 200:
                state = undo.json()
        for turn in state["turns"]:
            if turn["rolls"]:
                dice = rolled_dice(turn)
                assert seen.setdefault(turn["number"], dice) == dice, turn["number"]
    final = client.get(f"/api/games/{game['id']}").json()
    if not final["finished"]:
        return  # the seed is still secret: only the part below needs it
    seeds = [bytes.fromhex(s["seed"]) for s in final["earlier_seeds"]] + [
        bytes.fromhex(final["seed"])
    ]
    checked = 0
    for turn in final["turns"]:
        if turn["rolls"]:
            seed_of_turn = seeds[turn["seed_index"]]
            for step, faces in enumerate(rolled_dice(turn)):
                assert faces == list(seeded_dice(seed_of_turn, turn["number"], step, len(faces)))
                checked += 1
    assert checked > 0


@pytest.mark.parametrize(
    ("headers", "policy"),
    [
        ({}, ("A turn the app rolled stays", "An undo never goes back past dice")),
        (
            {"Accept-Language": "da"},
            ("En tur, appen slog, bliver stående", "aldrig fortryde sig tilbage forbi terninger"),
        ),
    ],
    ids=["en", "da"],
)
def test_the_rules_page_states_the_undo_policy(
    client: Client, headers: dict[str, str], policy: tuple[str, ...]
) -> None:
    """The policy the undo follows is written where the table reads the rules."""
    page = " ".join(client.get("/rules/", headers=headers).content.decode().split())
    assert 'id="fair-dice"' in page
    for words in policy:
        assert words in page
