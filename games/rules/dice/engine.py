"""The dice games behind the engine protocol every kind of game speaks (`engine.State`).

A `DiceState` is a `Position` seen as a game state: the move is a typed-in `Turn`, what
becomes public is the `Row` it writes, and every seat sees everything, since nothing in a dice
game is hidden. The store and the pages still use `Position` directly, where its questions
(`ask`, `points`) say more; this is the shape that lets code written for any kind of game (a
computer seat, a replay, a property test) treat the dice games like the card game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Outcome
from ..errors import NotYourTurnError, gettext_noop
from .game import HEAL, Position, Row, Step, Turn
from .ruleset import RuleSet


@dataclass(frozen=True)
class DiceState:
    position: Position

    @classmethod
    def start(cls, rules: RuleSet, players: int) -> DiceState:
        return cls(Position.start(rules, players))

    def to_move(self) -> int | None:
        return self.position.next_roller

    def legal_moves(self) -> list[Turn]:
        """Every turn the rules accept now, found by walking the turn form's questions, so
        that the form and this list can never disagree."""
        if self.position.finished:
            return []
        moves: list[Turn] = []
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

    def play(self, move: Turn, seat: int | None = None) -> tuple[DiceState, Row]:
        if seat is not None and seat != self.position.next_roller:
            raise NotYourTurnError(gettext_noop("It is not your turn."))
        row = self.position.play(move)
        return DiceState(self.position.after(row)), row

    def outcome(self) -> Outcome | None:
        if not self.position.finished:
            return None
        winners = self.position.winners
        return Outcome(winners, "last_standing" if len(winners) == 1 else "shared")

    def view(self, seat: int | None) -> DiceState:
        """Everyone sees the whole sheet: a dice game hides nothing."""
        return self
