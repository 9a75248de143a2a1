"""The dice games' move log as values: each move a dice game is played by, written to a dict
as the store logs it (`Move.data`) and read back, and a game replayed from its moves alone.

A move is one of three:

- `Turn`, a turn typed in from the table's own dice:
  `{"total": 33, "hunt": 2, "target": None, "heal": False}`.
- `RolledStep`, one step of a turn the app rolls (`rolled.Action`) with the dice that fell
  for it: `{"roll": {"keep": [6, 5]}, "dice": [4, 1, 3, 2]}`. The first roll is
  `{"roll": {}, "dice": [...]}`; a choice that rolls nothing has no dice. Chance is part of
  the move, as in OpenSpiel, so the log replays without the seed.
- `WholeTurn`, a turn of app-rolled dice logged whole with every roll: a computer seat's,
  which is played within one request, so no step of it is ever seen on its own; and a turn
  rolled before the log kept steps. Its `turn` is what it wrote; the rolls are its dice.

Seats are numbered from 0, as everywhere in the rules (the API numbers them from 1). The
store adds what only it knows to a move's dict: `"row"`, the sheet row the move closed (a
typed or whole turn always closes one, a rolled step only when it completes its turn).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..chance import SIDES
from ..errors import IllegalTurnError, gettext_noop
from .game import Position, Row, Turn
from .rolled import (
    Action,
    HuntRoll,
    Roll,
    RolledTurn,
    Roller,
    act,
    hunt_rolls_json,
    read_hunt_rolls,
    read_rolls,
    rolls_json,
)


@dataclass(frozen=True)
class RolledStep:
    """One step of a rolled turn, and the dice that fell for it (none for a choice): dice the
    app rolled, or, in a turn thrown at the table (`table`), the dice the roller entered."""

    action: Action
    dice: tuple[int, ...] = ()
    table: bool = False


@dataclass(frozen=True)
class WholeTurn:
    """A turn of app-rolled dice played in one go: what it wrote and every roll of it."""

    turn: Turn
    rolls: tuple[Roll, ...]
    hunt_rolls: tuple[HuntRoll, ...] = ()

    @classmethod
    def of(cls, rolled: RolledTurn) -> WholeTurn:
        """A complete rolled turn, logged whole."""
        return cls(rolled.turn(), rolled.rolls, rolled.hunt_rolls)


DiceMove = Turn | RolledStep | WholeTurn


def write_move(move: DiceMove) -> dict[str, Any]:
    """The move as the log keeps it (see the module docstring)."""
    if isinstance(move, RolledStep):
        step = {"roll": _action_json(move.action), "dice": list(move.dice)}
        return step | {"table": True} if move.table else step
    turn = move if isinstance(move, Turn) else move.turn
    data: dict[str, Any] = {
        "total": turn.total,
        "hunt": turn.hunt,
        "target": turn.target,
        "heal": turn.heal,
    }
    if isinstance(move, WholeTurn):
        data |= {"rolls": rolls_json(move.rolls), "hunt_rolls": hunt_rolls_json(move.hunt_rolls)}
    return data


def read_move(data: Mapping[str, Any]) -> DiceMove:
    """A move from the log. The log holds only what the store wrote, so a key it lacks is
    the store's own mistake (`KeyError`), not a player's."""
    if "roll" in data:
        step = data["roll"]
        keep = step.get("keep")
        action = Action(
            keep=None if keep is None else tuple(keep),
            heal=step.get("heal"),
            target=step.get("target"),
            hunt=bool(step.get("hunt")),
            stop=bool(step.get("stop")),
        )
        return RolledStep(action, tuple(data.get("dice", ())), bool(data.get("table")))
    turn = Turn(data["total"], data.get("hunt"), data.get("target"), bool(data.get("heal")))
    if "rolls" not in data:
        return turn
    return WholeTurn(turn, read_rolls(data["rolls"]), read_hunt_rolls(data.get("hunt_rolls")))


def closes_row(data: Mapping[str, Any]) -> int | None:
    """The sheet row a logged move closed (the store's `"row"`), if it closed one."""
    row = data.get("row")
    return None if row is None else int(row)


def take_step(turn: RolledTurn, action: Action, roller: Roller) -> tuple[RolledTurn, RolledStep]:
    """`rolled.act`, and the step as the log keeps it: the action with the dice that fell.
    Each action rolls at most once (`act`), so those dice are the step's whole chance."""
    fell: list[int] = []

    def rolling(step: int, count: int) -> Sequence[int]:
        dice = tuple(roller(step, count))
        fell.extend(dice)
        return dice

    after = act(turn, action, rolling)
    return after, RolledStep(action, tuple(fell))


def replay_step(turn: RolledTurn, step: RolledStep) -> RolledTurn:
    """The turn after a logged step, its dice taken from the log rather than rolled."""

    def logged(_step: int, count: int) -> Sequence[int]:
        if len(step.dice) != count:
            raise ValueError(f"a logged step rolled {len(step.dice)} dice, not {count}")
        return step.dice

    return act(_thrown(turn, step), step.action, logged)


THROW_COUNT = gettext_noop("Enter the %(count)s dice that were thrown (%(given)s entered).")
THROWS_NOTHING = gettext_noop("This step throws no dice: enter none.")


def throw_step(turn: RolledTurn, step: RolledStep) -> tuple[RolledTurn, RolledStep]:
    """A step of a turn thrown at the table, with the dice the roller entered for it: checked
    by the same rules as the app's dice (a set-aside from the roll, at least one die, or
    exactly one, per roll), and the number of dice entered must be what the step throws (the
    dice left, or the hunt's). Raises `RuleError` with a sentence; the turn is unchanged."""
    given = _faces_entered(step.dice)
    thrown = False

    def entered(_step: int, count: int) -> Sequence[int]:
        nonlocal thrown
        if len(given) != count:
            raise IllegalTurnError(THROW_COUNT, count=count, given=len(given))
        thrown = True
        return given

    after = act(_thrown(turn, step), step.action, entered)
    if given and not thrown:
        raise IllegalTurnError(THROWS_NOTHING)
    return after, RolledStep(step.action, given, table=True)


def _thrown(turn: RolledTurn, step: RolledStep) -> RolledTurn:
    """A turn's first step says whether its dice are thrown at the table."""
    return replace(turn, table=True) if step.table and not turn.rolls else turn


def _faces_entered(dice: Sequence[Any]) -> tuple[int, ...]:
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= SIDES:
            raise IllegalTurnError(
                gettext_noop("A die shows a number from 1 to 6, not %(value)s."), value=die
            )
    return tuple(dice)


@dataclass(frozen=True)
class Replayed:
    """A game replayed from its log: the rows its moves wrote, the position after them, and
    the turn in progress (rolled steps after the last row), if any."""

    rows: tuple[Row, ...]
    position: Position
    rolling: RolledTurn | None


def replay(position: Position, moves: Iterable[DiceMove]) -> Replayed:
    """Play logged moves from `position`, each as the rules judge it: the same rows as
    were written, with no seed and no computer, since every die that fell is in the log.
    Raises `RuleError` or `ValueError` for a log that is not a game."""
    rows: list[Row] = []
    rolling: RolledTurn | None = None
    for move in moves:
        if isinstance(move, RolledStep):
            rolling = replay_step(rolling or RolledTurn(position), move)
            if rolling.ask() is not None:
                continue
            turn = rolling.turn()
            rolling = None
        elif rolling is not None:
            raise ValueError("a whole turn logged while a rolled turn was under way")
        else:
            turn = move if isinstance(move, Turn) else checked(move)
        row = position.play(turn)
        rows.append(row)
        position = position.after(row)
    return Replayed(tuple(rows), position, rolling)


def checked(whole: WholeTurn) -> Turn:
    """The turn a whole rolled turn wrote, once its dice set aside are seen to make its total."""
    if sum(die for roll in whole.rolls for die in roll.kept or ()) != whole.turn.total:
        raise ValueError("a logged turn whose dice set aside do not make its total")
    return whole.turn


def _action_json(action: Action) -> dict[str, Any]:
    """The action as the API's roll body says it, with only the keys it sets."""
    data: dict[str, Any] = {}
    if action.keep is not None:
        data["keep"] = list(action.keep)
    if action.heal is not None:
        data["heal"] = action.heal
    if action.target is not None:
        data["target"] = action.target
    if action.hunt:
        data["hunt"] = True
    if action.stop:
        data["stop"] = True
    return data
