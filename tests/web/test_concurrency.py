"""Many phones submitting at the same moment, in separate threads, against the real database."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client

from games import store
from games.kinds.dice import moves as dice_moves
from games.models import Game, Turn
from games.rules import dice as dice_rules
from tests.factories import make_game

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
