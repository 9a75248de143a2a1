"""Many phones submitting at the same moment, in separate threads, against the real database."""

from __future__ import annotations

import json
import secrets as secrets_module
import threading
from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection
from django.test import Client

from games import store
from games.kinds.dice import moves as dice_moves
from games.models import Game, TableRoll, Turn, WaitingRoll
from games.rules import chance
from games.rules import dice as dice_rules
from games.rules.dice import rolled
from tests.factories import make_game, rolling

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 12


def run_at_once(work: Callable[[], object]) -> list[object]:
    """Run `work` in THREADS threads released together; return each result or error."""
    barrier = threading.Barrier(THREADS)
    results: list[object] = []
    lock = threading.Lock()

    def worker() -> None:
        barrier.wait(timeout=10)
        try:
            outcome: object = work()
        except Exception as error:  # the refusals are the point of the test
            outcome = error
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == THREADS
    return results


def test_one_roll_submitted_by_many_phones_is_recorded_once() -> None:
    game = make_game()
    results = run_at_once(
        lambda: dice_moves.record_turn(game.pk, dice_rules.Turn(33, 2), version=game.version)
    )
    recorded = [r for r in results if isinstance(r, store.Played)]
    refused = [r for r in results if isinstance(r, store.StaleVersionError)]
    assert len(recorded) == 1 and len(refused) == THREADS - 1
    assert Turn.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_turns_without_a_version_are_serialised_without_skipping_anyone() -> None:
    game = make_game(players=["Anna", "Ben", "Cleo"])
    results = run_at_once(lambda: dice_moves.record_turn(game.pk, dice_rules.Turn(20)))
    assert all(isinstance(r, store.Played) for r in results), results
    turns = list(Turn.objects.filter(game=game).order_by("number").values_list("number", "roller"))
    assert [number for number, _ in turns] == list(range(1, THREADS + 1))
    assert [roller for _, roller in turns] == [n % 3 for n in range(THREADS)]


def test_undos_racing_each_other_remove_exactly_one_turn_each() -> None:
    game = make_game()
    for _ in range(THREADS // 2):
        dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    version = Game.objects.get(pk=game.pk).version
    results = run_at_once(lambda: store.undo(game.pk, version=version))
    assert sum(isinstance(r, Game) for r in results) == 1
    assert Turn.objects.filter(game=game).count() == THREADS // 2 - 1


def test_a_turn_number_taken_meanwhile_is_a_409_and_records_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The unique constraint is the last line of defence: should two submits ever get the
    same number, the second is refused with 409, never a server error."""
    game = make_game()
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    monkeypatch.setattr(store.moves, "last_move_number", lambda game: 0)
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/api/games/{game.pk}/turns",
        json.dumps({"total": 20}),
        content_type="application/json",
        headers={"X-Host-Key": game.host_key},  # type: ignore[attr-defined]
    )
    assert response.status_code == 409 and response.json()["error"]
    assert Turn.objects.filter(game=game).count() == 1


def test_a_game_stops_at_its_longest(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game()
    monkeypatch.setattr(store.moves, "MAX_TURNS", 3)
    for _ in range(3):
        dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/api/games/{game.pk}/turns",
        json.dumps({"total": 20}),
        content_type="application/json",
        headers={"X-Host-Key": game.host_key},  # type: ignore[attr-defined]
    )
    assert response.status_code == 422 and "at most 3 turns" in response.json()["error"]
    assert Turn.objects.filter(game=game).count() == 3


def test_parts_of_a_waiting_roll_sent_at_once_make_the_roll_once() -> None:
    """Every other phone of a table's dice sends its part of a waiting roll at the same
    moment, while others ask for the roll to be made: the last part makes it, once, with
    every part in it."""
    players = [f"P{seat}" for seat in range(THREADS - 3)]
    game, _key = dice_moves.create_game("Parts", players, dice_rules.RuleSet(), table_dice=True)
    phones: list[int | None] = [None, *range(len(players))]  # the host's, then every seat's
    secrets = {phone: secrets_module.token_hex(32) for phone in phones}
    for phone in phones:
        store.join_table_dice(game.pk, phone, chance.commitment(secrets[phone]))
    game.refresh_from_db()
    label = chance.roll_label(1, 0)
    with pytest.raises(store.RollWaitsError):
        dice_moves.roll(
            game.pk,
            rolled.Action(),
            version=game.version,
            seat=0,
            part=chance.table_part(secrets[0], label),
        )
    others = [phone for phone in phones if phone != 0]
    work: list[Callable[[], object]] = [
        partial(store.send_part, game.pk, phone, label, chance.table_part(secrets[phone], label))
        for phone in others
    ]
    work += [partial(store.finish_waiting_roll, game.pk)] * (THREADS - len(work))
    jobs = iter(work)
    lock = threading.Lock()

    def next_job() -> object:
        with lock:
            job = next(jobs)
        return job()

    results = run_at_once(next_job)
    assert not [result for result in results if isinstance(result, Exception)], results
    roll = TableRoll.objects.get(game=game)
    assert [entry["seat"] for entry in roll.parts] == phones  # the host's phone first
    assert not WaitingRoll.objects.filter(game=game).exists()
    turn = rolling(game)
    assert turn is not None and len(turn["rolls"]) == 1
