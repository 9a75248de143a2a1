"""The dice games behind the engine protocol every kind of game speaks (`games.rules.engine`):
the state the store plays, resumes and replays, and the engine that reads and writes its moves.

A `DiceState` is a `Position` (the points and whose turn it is), the number of rows written so
far, and the turn in progress with dice the app rolls, if one is under way. A move is one of
the log's (`log`): a turn typed in from the table's own dice, one step of a turn the app
rolls with the dice that fell for it, or a whole rolled turn (a computer's). What a move makes
public is a `DiceEvent`: the row it wrote, if it completed a turn. Every seat sees
everything, since nothing in a dice game is hidden.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..engine import Chance, Outcome, SheetRow
from ..errors import IllegalTurnError, MoveUnderWayError, NotYourTurnError, gettext_noop
from . import analysis, bot, log
from .game import HEAL, Position, Row, Step, Turn
from .rolled import Action, Ask, HuntRoll, Roll, RolledTurn, act, hunt_rolls_json, rolls_json
from .ruleset import RuleSet

APP_ROLLS = gettext_noop(
    "The app rolls this turn's dice: send no dice. Dice thrown at the table are entered from"
    " the first roll of a turn."
)
UNDER_WAY = gettext_noop("A turn with dice the app rolls is under way: finish it first.")
# The undo policy's refusals: an undo never crosses dice that someone has seen.
ROLLED_TURN_STAYS = gettext_noop(
    "The app rolled this turn, and everyone saw its dice: it cannot be taken back and rolled"
    " again. Correct the score with the next turns, or start a rematch."
)
COMPUTER_ROLLED_SINCE = gettext_noop(
    "A computer has rolled since that turn, and everyone saw its dice: the turn cannot be"
    " taken back, since the computer's dice would fall again."
)


@dataclass(frozen=True)
class ComputerTurn:
    """A computer seat's whole turn, before its dice are rolled: `DiceEngine.with_chance`
    plays it by the computer's plan with the dice that fall, into a `log.WholeTurn`."""


DiceMove = log.DiceMove | ComputerTurn


@dataclass(frozen=True)
class DiceEvent:
    """What a move makes public: the number of the row the turn writes, and, once the move
    completed the turn, the row with the rolls that made it (none for a typed-in turn)."""

    number: int
    row: Row | None = None
    rolls: tuple[Roll, ...] | None = None
    hunt_rolls: tuple[HuntRoll, ...] = ()
    table: bool = False  # its dice were thrown at the table and entered roll by roll
    # What each set-aside cost and how the dice ran (`analysis`), for a turn with its rolls.
    analysis: dict[str, Any] | None = None


@dataclass(frozen=True)
class DiceState:
    position: Position
    rows: int = 0  # rows written so far: the turn under way writes row `rows + 1`
    rolling: RolledTurn | None = None

    @classmethod
    def start(cls, rules: RuleSet, players: int) -> DiceState:
        return cls(Position.start(rules, players))

    def to_move(self) -> int | None:
        return self.position.next_roller

    def legal_moves(self) -> list[log.DiceMove]:
        """Every move the rules accept now: while a rolled turn is under way, its next steps
        (before their dice fall); otherwise every turn that can be typed in, found by walking
        the turn form's questions, so that the form and this list can never disagree."""
        if self.position.finished:
            return []
        if self.rolling is not None:
            return [log.RolledStep(action) for action in _actions(self.rolling)]
        moves: list[log.DiceMove] = []
        ask = self.position.ask
        first = ask()
        assert first is not None and first.step is Step.TOTAL
        for total in first.options:
            assert isinstance(total, int)
            question = ask(total)
            if question is None:
                moves.append(Turn(total))
                continue
            heals: tuple[bool | None, ...] = (None,)
            if question.step is Step.ACTION:
                heals = (False, True) if HEAL in question.options else (False,)
            for heal in heals:
                if heal:
                    moves.append(Turn(total, heal=True))
                    continue
                after_action = ask(total, heal)
                assert after_action is not None
                targets: tuple[int | None, ...] = (None,)
                if after_action.step is Step.TARGET:
                    targets = tuple(t for t in after_action.options if isinstance(t, int))
                for target in targets:
                    hunt = ask(total, heal, target)
                    assert hunt is not None and hunt.step is Step.HUNT
                    moves += [Turn(total, h, target) for h in hunt.options if isinstance(h, int)]
        return moves

    def play(self, move: DiceMove, seat: int | None = None) -> tuple[DiceState, DiceEvent]:
        """The state after a logged move (its dice already fallen) and what it made public.
        Raises `RuleError`; a step whose dice do not fit the turn is the log's own mistake
        (`ValueError`)."""
        roller = self.position._roller()  # GameOverError once the game is over
        if seat is not None and seat != roller:
            raise NotYourTurnError(gettext_noop("It is not your turn."))
        number = self.rows + 1
        if isinstance(move, log.RolledStep):
            turn = log.replay_step(self.rolling or RolledTurn(self.position), move)
            if turn.ask() is not None:
                return replace(self, rolling=turn), DiceEvent(number)
            return self._close(turn.turn(), turn.rolls, turn.hunt_rolls, table=turn.table)
        if self.rolling is not None:
            raise MoveUnderWayError(UNDER_WAY)
        if isinstance(move, ComputerTurn):
            raise ValueError("a computer's turn is played once its dice have fallen")
        if isinstance(move, log.WholeTurn):
            return self._close(log.checked(move), move.rolls, move.hunt_rolls)
        return self._close(move, None, ())

    def _close(
        self,
        turn: Turn,
        rolls: tuple[Roll, ...] | None,
        hunt_rolls: tuple[HuntRoll, ...],
        *,
        table: bool = False,
    ) -> tuple[DiceState, DiceEvent]:
        row = self.position.play(turn)
        number = self.rows + 1
        after = DiceState(self.position.after(row), number)
        judged = None if rolls is None else analysis.analyse(self.position, rolls).to_json()
        return after, DiceEvent(number, row, rolls, hunt_rolls, table, judged)

    def outcome(self) -> Outcome | None:
        if not self.position.finished:
            return None
        winners = self.position.winners
        return Outcome(winners, "last_standing" if len(winners) == 1 else "shared")

    def view(self, seat: int | None) -> DiceState:
        """Everyone sees the whole sheet: a dice game hides nothing."""
        return self


def _actions(turn: RolledTurn) -> list[Action]:
    """The calls a rolled turn takes now, before their dice fall."""
    asked = turn.ask()
    if asked is Ask.ROLL:
        return [Action()]
    if asked is Ask.KEEP:
        return [Action(keep=keep) for keep in turn.keep_options()]
    if asked is Ask.ACTION:
        return [Action(heal=True), Action(heal=False)]
    if asked is Ask.TARGET:
        total = turn.total
        assert total is not None
        question = turn.position.ask(total, False)
        assert question is not None
        return [Action(target=t, hunt=True) for t in question.options if isinstance(t, int)]
    if asked is Ask.GO_ON:
        return [Action(hunt=True), Action(stop=True)]
    return [Action(hunt=True)] if asked is Ask.HUNT else []


class DiceEngine:
    """The dice games for the store (`games.rules.engine.Engine`)."""

    name = "dice"

    def read_rules(self, data: Mapping[str, Any]) -> RuleSet:
        return RuleSet.from_dict(data)

    def write_rules(self, rules: RuleSet) -> dict[str, Any]:
        return rules.to_dict()

    def start(self, rules: RuleSet, seats: int, seed: str) -> DiceState:
        return DiceState.start(rules, seats)  # the dice come with the moves, not the seed

    def read_move(self, data: Mapping[str, Any]) -> log.DiceMove:
        return log.read_move(data)

    def write_move(self, move: DiceMove) -> dict[str, Any]:
        assert not isinstance(move, ComputerTurn), "a computer's turn is logged once rolled"
        return log.write_move(move)

    def rows(self, public: DiceEvent) -> list[SheetRow]:
        row = public.row
        if row is None:
            return []
        turn = row.turn
        data: dict[str, Any] = {
            "total": turn.total,
            "hunt": turn.hunt,
            "target": turn.target,
            "heal": turn.heal,
            "victim": row.victim,
        }
        if public.rolls is not None:
            data |= {
                "rolls": rolls_json(public.rolls),
                "hunt_rolls": hunt_rolls_json(public.hunt_rolls),
            }
        if public.table:
            data["table"] = True
        if public.analysis is not None:
            data["analysis"] = public.analysis
        return [SheetRow(public.number, row.roller, row.cells, row.effect.value, data)]

    def computer_move(self, state: DiceState, seat: int, rng: random.Random) -> ComputerTurn:
        return ComputerTurn()

    def with_chance(self, state: DiceState, move: DiceMove, chance: Chance) -> log.DiceMove:
        """A step of a rolled turn with the dice it throws (from `chance`, or in a turn thrown
        at the table the dice the roller entered), or a computer's whole turn rolled by its
        plan; a typed-in turn as it is."""
        number = state.rows + 1

        def roller(step: int, count: int) -> tuple[int, ...]:
            return chance.dice(number, step, count)

        if isinstance(move, log.RolledStep):
            turn = state.rolling or RolledTurn(state.position)
            if turn.table or (move.table and not turn.rolls):
                return log.throw_step(turn, move)[1]
            if move.dice or move.table:
                raise IllegalTurnError(APP_ROLLS)
            return log.take_step(turn, move.action, roller)[1]
        if isinstance(move, ComputerTurn):
            if state.rolling is not None:
                raise MoveUnderWayError(UNDER_WAY)
            turn = RolledTurn(state.position)
            turn_plan = bot.plan(state.position)
            while turn.ask() is not None:
                turn = act(turn, bot.rolled_action(turn, turn_plan), roller)
            return log.WholeTurn.of(turn)
        return move

    def take_back_refusal(self, move: log.DiceMove, by_computer: bool) -> str | None:
        if isinstance(move, Turn) or (isinstance(move, log.RolledStep) and move.table):
            return None  # dice thrown at the table, typed or entered: nobody saw the app roll
        return COMPUTER_ROLLED_SINCE if by_computer else ROLLED_TURN_STAYS

    def row_title(self, data: Mapping[str, Any]) -> str:
        return str(data.get("total", ""))

    def snapshot(self, state: DiceState) -> dict[str, Any]:
        return {
            "rules": state.position.rules.to_dict(),
            "points": list(state.position.points),
            "last_roller": state.position.last_roller,
            "rows": state.rows,
            "rolling": None if state.rolling is None else state.rolling.to_json(),
        }

    def from_snapshot(self, data: Mapping[str, Any]) -> DiceState:
        position = Position(
            RuleSet.from_dict(data["rules"]), tuple(data["points"]), data["last_roller"]
        )
        rolling = data.get("rolling")
        turn = None if rolling is None else RolledTurn.from_json(position, rolling)
        return DiceState(position, int(data["rows"]), turn)


ENGINE = DiceEngine()
