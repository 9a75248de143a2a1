"""The undo policy over random games with app-rolled dice, typed-in turns and computers, in
both presets: finished games do get reopened (and are counted), no turn number is ever rolled
twice with different dice, and every roll of every game, reopened or not, re-derives from the
seeds the game reveals, each by the seed its turn names (`seed_index`)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.kinds.dice import stored
from games.models import Game
from games.rules import chance
from games.rules import dice as dice_rules
from games.rules.chance import seeded_dice
from games.rules.dice.rolled import Action
from tests.budget import examples
from tests.openapi_check import CheckedClient
from tests.rules.test_properties import random_turn, rule_sets
from tests.rules.test_rolled import random_action
from tests.web.test_api_roll import create, post

pytestmark = pytest.mark.django_db

REOPENS = 3  # a game is reopened at most this many times
MOVES = 80  # and played for at most this many moves


def rolled_dice(turn: dict[str, Any]) -> list[list[int]]:
    return [r["dice"] for r in turn["rolls"]] + [h["dice"] for h in turn["hunt_rolls"] or ()]


def roll_body(action: Action) -> dict[str, Any]:
    """An action of `games.rules.dice.rolled` as the API's roll body says it (seats from 1)."""
    body: dict[str, Any] = {}
    if action.keep is not None:
        body["keep"] = list(action.keep)
    if action.heal is not None:
        body["heal"] = action.heal
    if action.target is not None:
        body["target"] = action.target + 1
    if action.hunt:
        body["hunt"] = True
    if action.stop:
        body["stop"] = True
    return body


class Table:
    """One random game through the API, as the host plays it: rolled turns with random
    choices, typed-in turns, undos, and a reopen whenever the deciding turn was typed in."""

    def __init__(self, client: Client, game: dict[str, Any], rng: random.Random) -> None:
        self.client, self.game, self.rng = client, game, rng
        self.url = f"/api/games/{game['id']}"
        self.host = {"X-Host-Key": game["host_key"]}
        self.state: dict[str, Any] = client.get(self.url).json()
        self.seen: dict[int, list[list[int]]] = {}  # the dice of every roll shown, by turn
        self.reopened = 0

    def position(self) -> dice_rules.Position:
        return stored.position_of(Game.objects.get(pk=self.game["id"]))

    def roll_step(self) -> None:
        game = Game.objects.get(pk=self.game["id"])
        turn = stored.rolling_turn(game)
        action = Action() if turn is None else random_action(turn, self.rng.choice)
        answer = post(self.client, f"{self.url}/roll", roll_body(action), **self.host)
        assert answer.status_code == 200, answer.json()
        self.state = answer.json()

    def roll_turn(self) -> None:
        self.roll_step()
        while self.state["turn_in_progress"] is not None and not self.rng.random() < 0.05:
            self.roll_step()  # now and then a turn is left under way for the next move

    def type_turn(self) -> None:
        turn = random_turn(self.position(), self.rng)
        body = {
            "total": turn.total,
            "hunt": turn.hunt,
            "target": None if turn.target is None else turn.target + 1,
            "heal": turn.heal,
        }
        answer = post(self.client, f"{self.url}/turns", body, **self.host)
        assert answer.status_code == 201, answer.json()
        self.state = answer.json()

    def undo(self) -> bool:
        """The host's undo, which takes back a typed-in turn (and the computers' turns after
        it only if none of them rolled) and refuses everything the app rolled."""
        turns = self.state["turns"]
        answer = self.client.delete(f"{self.url}/turns/last", headers=self.host)
        if self.state["turn_in_progress"] is not None:
            assert answer.status_code == 409
            return False
        assert answer.status_code == (422 if not turns or turns[-1]["rolls"] else 200), (
            answer.json()
        )
        if answer.status_code != 200:
            return False
        was_finished = self.state["finished"]
        self.state = answer.json()
        if was_finished:
            self.reopened += 1
            # The seed everybody saw stays public; a fresh secret one rolls on.
            assert self.state["seed"] is None and not self.state["finished"]
            assert len(self.state["earlier_seeds"]) == self.reopened
        return True

    def look(self) -> None:
        """Every roll shown now, the turn in progress's too, is the one shown before."""
        for turn in self.state["turns"]:
            if turn["rolls"]:
                dice = rolled_dice(turn)
                shown = self.seen.setdefault(turn["number"], dice)
                assert dice[: len(shown)] == shown, f"turn {turn['number']} rolled again"
                self.seen[turn["number"]] = dice
        if (progress := self.state["turn_in_progress"]) is not None:
            number = len(self.state["turns"]) + 1
            dice = rolled_dice(progress)
            shown = self.seen.setdefault(number, dice)
            assert dice[: len(shown)] == shown, f"turn {number} rolled again"
            self.seen[number] = dice

    def play(self) -> None:
        for _ in range(MOVES):
            if self.state["finished"]:
                if self.reopened == REOPENS or not self.undo():
                    break
            else:
                choice = self.rng.random()
                if choice < 0.35 or self.state["turn_in_progress"] is not None:
                    self.roll_turn()
                elif choice < 0.9:
                    self.type_turn()
                else:
                    self.undo()
            self.look()

    def check_seeds(self) -> Counter[str]:
        """Every roll of every turn whose seed is shown re-derives from it: the seed the turn
        names, among the earlier ones and, once the game is over, its last. Counts the rolls
        checked, and those of them rolled with a seed shown before a reopen."""
        state = self.client.get(self.url).json()
        seeds = [entry["seed"] for entry in state["earlier_seeds"]]
        if state["finished"]:
            seeds.append(state["seed"])
        assert [chance.seed_sha256(seed) for seed in seeds] == [
            entry["seed_sha256"] for entry in state["earlier_seeds"]
        ] + ([state["seed_sha256"]] if state["finished"] else [])
        checked: Counter[str] = Counter()
        for turn in state["turns"] + state["undone_turns"]:
            if not turn["rolls"]:
                assert turn.get("seed_index") is None
                continue
            assert 0 <= turn["seed_index"] <= len(state["earlier_seeds"])
            if turn["seed_index"] >= len(seeds):
                continue  # rolled with the seed still secret
            seed = bytes.fromhex(seeds[turn["seed_index"]])
            for step, faces in enumerate(rolled_dice(turn)):
                assert faces == list(seeded_dice(seed, turn["number"], step, len(faces)))
                checked["rolls checked"] += 1
                checked["rolls checked with an earlier seed"] += turn["seed_index"] < len(
                    state["earlier_seeds"]
                )
        return checked


@pytest.mark.slow
def test_random_games_are_reopened_and_no_turn_is_rolled_twice() -> None:
    counts: Counter[str] = Counter()

    # Two tables that are reopened with a computer at them, one of each preset, tried under
    # every budget; the random ones add breadth.
    with_a_computer = [False, True, False, False]

    @settings(max_examples=examples(40, on_postgresql=10), deadline=None)
    @example(dice_rules.RuleSet(preset="thirty"), 3, with_a_computer, 2, 0)
    @example(dice_rules.RuleSet(preset="30s"), 3, with_a_computer, 1, 0)
    @given(
        rules=rule_sets,
        players=st.integers(2, 4),
        computer=st.lists(st.booleans(), min_size=4, max_size=4),
        start_points=st.integers(1, 4),
        seed=st.integers(0, 2**32),
    )
    def game(
        rules: dice_rules.RuleSet,
        players: int,
        computer: list[bool],
        start_points: int,
        seed: int,
    ) -> None:
        rng = random.Random(seed)
        seeds = (f"{rng.getrandbits(128):032x}" for _ in itertools.count())
        # A person at the table, so that the host's undo has a turn to take back.
        computers = {seat for seat in range(1, players) if computer[seat]}
        names: list[Any] = [
            {"name": f"Robot {i}", "computer": True} if i in computers else f"P{i}"
            for i in range(players)
        ]
        chosen = rules.to_dict()
        if "start_points" in chosen:
            chosen["start_points"] = start_points  # short games, so that many end
        client = CheckedClient()  # every answer as the OpenAPI document says
        with mock.patch.object(chance, "new_seed", side_effect=seeds.__next__):
            table = Table(client, create(client, names, **chosen), rng)
            table.look()
            table.play()
        counts["games"] += 1
        counts[f"{rules.preset} games"] += 1
        counts["finished"] += table.state["finished"]
        counts["reopened"] += table.reopened
        counts["games reopened"] += table.reopened > 0
        counts[f"{rules.preset} reopened"] += table.reopened > 0
        counts["with a computer"] += bool(computers)
        counts["reopened with a computer"] += table.reopened > 0 and bool(computers)
        counts.update(table.check_seeds())

    game()
    assert counts["games reopened"] > 0, counts
    assert counts["reopened with a computer"] > 0, counts
    assert counts["thirty reopened"] > 0 and counts["30s reopened"] > 0, counts
    assert counts["rolls checked with an earlier seed"] > 0, counts


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
