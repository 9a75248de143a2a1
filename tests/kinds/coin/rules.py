"""Coin toss: each seat in turn calls heads or tails, the coin falls from the game's secret
seed, and a right call scores a point. The first seat to the target wins. What a kind's rules
are (`games.rules.engine`): a state value, moves read from dicts, and an engine for the store."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from games.rules import Outcome
from games.rules.engine import Chance, SheetRow
from games.rules.errors import (
    GameOverError,
    InvalidMoveError,
    InvalidRulesError,
    NotYourTurnError,
)

Side = Literal["heads", "tails"]
SIDES: tuple[Side, Side] = ("heads", "tails")
MIN_SEATS, MAX_SEATS = 2, 6


@dataclass(frozen=True)
class CoinRules:
    first_to: int = 3

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CoinRules:
        first_to = data.get("first_to", 3)
        if data.get("preset") != "coin" or not isinstance(first_to, int) or not 1 <= first_to <= 9:
            raise InvalidRulesError("A coin toss is played to 1 to 9 points.")
        return cls(first_to)

    def to_dict(self) -> dict[str, Any]:
        return {"preset": "coin", "first_to": self.first_to}


@dataclass(frozen=True)
class Call:
    side: Side

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Call:
        side = data.get("call")
        if side not in SIDES or set(data) != {"call"}:
            raise InvalidMoveError("Call heads or tails.")
        return cls(side)


@dataclass(frozen=True)
class Toss:
    """What a call makes public: the row it writes (a point for a right call)."""

    number: int
    seat: int
    call: Side
    fell: Side
    cells: tuple[int, ...]


@dataclass(frozen=True)
class CoinState:
    rules: CoinRules
    seed: str  # secret: every toss to come follows from it
    points: tuple[int, ...]
    tosses: tuple[Toss, ...] = ()

    def to_move(self) -> int | None:
        if self.outcome() is not None:
            return None
        return len(self.tosses) % len(self.points)

    def legal_moves(self) -> list[Call]:
        return [] if self.to_move() is None else [Call(side) for side in SIDES]

    def play(self, move: Call, seat: int | None = None) -> tuple[CoinState, tuple[Toss, ...]]:
        mover = self.to_move()
        if mover is None:
            raise GameOverError("The game is over.")
        if seat is not None and seat != mover:
            raise NotYourTurnError("It is not your turn.")
        number = len(self.tosses) + 1
        digest = hashlib.sha256(f"{self.seed}:toss:{number}".encode()).digest()
        fell = SIDES[digest[0] & 1]
        cells = tuple(int(s == mover and fell == move.side) for s in range(len(self.points)))
        toss = Toss(number, mover, move.side, fell, cells)
        points = tuple(p + c for p, c in zip(self.points, cells, strict=True))
        return replace(self, points=points, tosses=(*self.tosses, toss)), (toss,)

    def outcome(self) -> Outcome | None:
        winners = tuple(s for s, p in enumerate(self.points) if p >= self.rules.first_to)
        return Outcome(winners, "first_to") if winners else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything but the seed, which would tell every toss to come."""
        return {
            "to_move": self.to_move(),
            "points": list(self.points),
            "tosses": [
                {"seat": t.seat, "call": t.call, "fell": t.fell, "point": t.cells[t.seat] == 1}
                for t in self.tosses
            ],
        }


class CoinEngine:
    name = "coin"

    def read_rules(self, data: Mapping[str, Any]) -> CoinRules:
        return CoinRules.from_dict(data)

    def write_rules(self, rules: CoinRules) -> dict[str, Any]:
        return rules.to_dict()

    def start(self, rules: CoinRules, seats: int, seed: str) -> CoinState:
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise InvalidRulesError("A coin toss takes 2 to 6 players.")
        return CoinState(rules, seed, (0,) * seats)

    def read_move(self, data: Mapping[str, Any]) -> Call:
        return Call.from_dict(data)

    def write_move(self, move: Call) -> dict[str, Any]:
        return {"call": move.side}

    def rows(self, public: Sequence[Toss]) -> list[SheetRow]:
        return [SheetRow(t.number, t.seat, t.cells, "toss") for t in public]

    def computer_move(self, state: CoinState, seat: int, rng: random.Random) -> Call:
        return Call(rng.choice(SIDES))

    def with_chance(self, state: CoinState, move: Call, chance: Chance) -> Call:
        return move  # the coin falls from the seed the state holds

    def take_back_refusal(self, move: Call, by_computer: bool) -> str | None:
        return "A toss everyone saw stays."

    def row_title(self, data: Mapping[str, Any]) -> str:
        return ""

    def snapshot(self, state: CoinState) -> dict[str, Any]:
        return {
            "first_to": state.rules.first_to,
            "seed": state.seed,
            "points": list(state.points),
            "tosses": [[t.number, t.seat, t.call, t.fell, list(t.cells)] for t in state.tosses],
        }

    def from_snapshot(self, data: Mapping[str, Any]) -> CoinState:
        tosses = tuple(
            Toss(number, seat, call, fell, tuple(cells))
            for number, seat, call, fell, cells in data["tosses"]
        )
        return CoinState(CoinRules(data["first_to"]), data["seed"], tuple(data["points"]), tosses)


ENGINE = CoinEngine()
