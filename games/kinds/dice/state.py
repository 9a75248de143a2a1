"""The dice games' state as the JSON API answers it (DESIGN.md), once per version and process.

Whatever the game's length, a new version costs about the same: the position and the turn in
progress come from the game's state (`store.load_state`: remembered by the process that wrote
it, else one row), and the turns list grows from the one this process built before, since a row
never changes once written: only the rows after it are read, and each row is turned into
JSON once. The last row the process knew is checked by its id, so an undo (which deletes
the last row) or a game this process has not seen yet is read whole, once. The turns taken
back come from the move log (`stored.undone_turns`), read only when the game row says there
are any.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse

from games import store
from games.cache import current_version, peek, remember, remembered
from games.kinds import SHARED_ANSWER
from games.kinds.dice.stored import StoredRow, load_rows, rules_of, state_of, undone_turns
from games.models import Game, Seat, Turn, WaitingRoll
from games.rules.dice.rolled import RolledTurn
from games.store import table_rolls
from games.store.seeds import next_roll_label

_GAP = len("}")


@dataclass(frozen=True)
class TurnLog:
    """The turns numbered 1..count as JSON, the last with this id."""

    count: int
    last_id: int | None
    turns: tuple[str, ...]


@dataclass(frozen=True)
class State:
    """A version's state as JSON: everything but the turns, and each turn."""

    version: int
    head: str
    turns: tuple[str, ...]

    def body(self, since: int = 0) -> bytes:
        """The state with the turns numbered above `since` (all of them by default)."""
        turns = self.turns[since:] if since > 0 else self.turns
        return f'{self.head[:-_GAP]}, "turns": [{", ".join(turns)}]}}'.encode()

    def as_dict(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(self.body())
        return state

    def response(self, since: int = 0, status: int = 200) -> HttpResponse:
        """The API's answer: the same for every viewer, so kept for any request to take
        (`games.kinds.SharedAnswer`)."""
        return HttpResponse(self.body(since), content_type="application/json", status=status)


def game_state(game: Game) -> State:
    """The state at `game.version` (or a newer one, if the game changed meanwhile)."""
    known: State | None = peek((SHARED_ANSWER, game.pk, game.version))
    if known is not None:
        return known
    state = _build(game)
    # Kept where the API's generic view finds it (`games.kinds.known_answer`).
    remember((SHARED_ANSWER, game.pk, state.version), state, replace=True)
    return state


def _build(game: Game) -> State:
    game_id = game.pk
    seats = remembered(
        ("api-seats", game_id),
        lambda: tuple(
            Seat.objects.filter(game_id=game_id)
            .order_by("position")
            .values_list("id", "name", "computer")
        ),
    )
    for _ in range(3):
        ruleset = rules_of(game)
        dice_state = state_of(game)
        position = dice_state.position
        log = _turn_log(game, [seat_id for seat_id, _, _ in seats])
        in_progress = _in_progress(dice_state.rolling)
        undone = undone_turns(game)
        now = current_version(game.pk)
        if now == game.version:
            break
        # A turn may have landed between the reads: read again at the newer version.
        game = Game.objects.get(pk=game.pk)
    next_roller = position.next_roller
    head = json.dumps(
        {
            "id": game.pk,
            "name": game.name,
            "rules": ruleset.to_dict(),
            "seats": [
                {
                    "seat": seat + 1,
                    "name": name,
                    "points": position.points[seat],
                    "out": position.is_out(seat),
                    "computer": computer,
                }
                for seat, (_, name, computer) in enumerate(seats)
            ],
            "next_roller": None if next_roller is None else next_roller + 1,
            "winners": [seat + 1 for seat in position.winners],
            "finished": position.finished,
            "version": game.version,
            "turn_in_progress": in_progress,
            "undone_turns": [_numbered(entry) for entry in undone],
            "hints": game.hints,
            "table_dice": game.table_dice,
            "table_label": next_roll_label(game) if game.table_dice else None,
            "table_waiting": _waiting(game) if game.table_dice else None,
            "seed_sha256": game.seed_sha256,
            "earlier_seeds": game.earlier_seeds,
            # The seed shows once the game is over, so that anyone can roll every turn again.
            "seed": store.revealed_seed(game, finished=position.finished),
        }
    )
    return State(game.version, head, log.turns)


def _waiting(game: Game) -> dict[str, Any] | None:
    waiting = WaitingRoll.objects.filter(game=game).first()
    if waiting is None:
        return None
    return {
        "label": waiting.label,
        "roller": None if waiting.seat is None else waiting.seat + 1,
        "due_at": table_rolls.due_at(waiting).isoformat(),
    }


def _in_progress(turn: RolledTurn | None) -> dict[str, Any] | None:
    if turn is None:
        return None
    data = turn.to_json()
    asked = turn.ask()
    return {
        "roller": turn.roller + 1,
        "rolls": data["rolls"],
        "kept_total": turn.kept_total,
        "hunt_rolls": data["hunt_rolls"],
        "heal": turn.heal,
        "target": None if turn.target is None else turn.target + 1,
        "ask": None if asked is None else asked.value,
    } | ({"table": True} if turn.table else {})


def _numbered(entry: dict[str, Any]) -> dict[str, Any]:
    """An undone turn with its seats numbered from 1, as everywhere in the API."""
    target = entry["target"]
    return entry | {"roller": entry["roller"] + 1, "target": None if target is None else target + 1}


def _turn_log(game: Game, seat_ids: list[int]) -> TurnLog:
    key = ("api-turns", game.pk)
    known: TurnLog | None = peek(key)
    if known is not None and known.count:
        last = Turn.objects.filter(game=game, number=known.count).values_list("id", flat=True)
        if last.first() != known.last_id:
            known = None  # the last row was undone
    base = known or TurnLog(0, None, ())
    rows = load_rows(game, rules_of(game), seat_ids, after=base.count)
    if not rows and known is not None:
        return known
    log = TurnLog(
        rows[-1].number if rows else 0,
        rows[-1].id if rows else None,
        base.turns + tuple(_turn_json(stored) for stored in rows),
    )
    remember(key, log, replace=True)
    return log


def _turn_json(stored: StoredRow) -> str:
    turn = stored.row.turn
    return json.dumps(
        {
            "number": stored.number,
            "roller": stored.row.roller + 1,
            "total": turn.total,
            "hunt": turn.hunt,
            "target": None if turn.target is None else turn.target + 1,
            "heal": turn.heal,
            "effect": stored.row.effect.value,
            "cells": list(stored.row.cells),
            "rolls": stored.rolls,
            "hunt_rolls": stored.hunt_rolls,
            "seed_index": stored.seed_index,
        }
        | ({"table": True} if stored.table else {})
    )
