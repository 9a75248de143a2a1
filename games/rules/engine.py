"""The small protocol every kind of game in `games.rules` speaks, in the manner of python-chess.

A game is a chain of immutable state values. The web layer needs only these five questions,
whatever the kind of game:

- `to_move()`: the seat (numbered from 0) whose move it is, or None once the game is over.
- `legal_moves()`: every move the rules allow now, in a stable order (empty when over).
- `play(move, seat)`: check the move (made by `seat`, or by whoever is to move when None)
  and return `(new_state, public)`. The old state is unchanged.
  `public` describes what everybody at the table may now know about the move (a card laid
  face up, "drew one card", "lost the deal"); it never holds a secret. A move the rules refuse
  raises a `RuleError` whose message is a sentence a player understands.
- `outcome()`: None while the game runs, then an `Outcome` (the winners and why).
- `view(seat)`: the only way anything leaves the engine. `view(None)` is what any watcher may
  see; `view(seat)` adds what that seat alone may see (its own hand, its legal moves). Shared
  caches must be built from `view(None)` only.

Because states are values, undo is "keep the earlier state" and replay is a fold of `play`
over the stored moves: nothing derived needs storing.

Chance is part of a move, as in OpenSpiel: a move that needs chance (dice to roll) is
completed with what fell before it is played (`Engine.with_chance`), and it is logged that
way, so that the log alone replays the game. Chance that a kind keeps inside its state (the
card game's deals, drawn from the seed) needs no completing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

MoveT = TypeVar("MoveT")
PublicT_co = TypeVar("PublicT_co", covariant=True)
ViewT_co = TypeVar("ViewT_co", covariant=True)
RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (from 0, shared wins allowed) and why."""

    winners: tuple[int, ...]
    reason: str


class State(Protocol[MoveT, PublicT_co, ViewT_co]):
    """An immutable position of some kind of game; see the module docstring."""

    def to_move(self) -> int | None:
        """The seat whose move it is, or None once the game is over."""
        ...

    def legal_moves(self) -> list[MoveT]:
        """Every move the rules allow now; empty once the game is over."""
        ...

    def play(self, move: MoveT, seat: int | None = None) -> tuple[Self, PublicT_co]:
        """The state after `move` and what became public. Raises `RuleError`."""
        ...

    def outcome(self) -> Outcome | None:
        """None while the game runs; then the winners and the reason."""
        ...

    def view(self, seat: int | None) -> ViewT_co:
        """What `seat` may see; `None` is any watcher."""
        ...


@dataclass(frozen=True)
class SheetRow:
    """A row of the score sheet that a move closed: what the whole table writes down (a dice
    turn's damage or points, a card deal's tokens given up, a coin toss's point), in every
    seat's column."""

    number: int  # from 1, no gaps
    seat: int  # the seat the row is about: who rolled, who lost the deal
    cells: tuple[int, ...]  # one per seat, in seat order
    label: str  # what kind of row it is, as the store keeps it (at most 10 letters)
    # What else the kind says of the row, JSON-ready and public (a dice turn's total and its
    # rolls): the store keeps it with the row for the kind's own pages to read.
    data: Mapping[str, Any] = field(default_factory=dict)


class Chance(Protocol):
    """Where the chance a move needs comes from: the store draws it from the game's secret
    seed (and, where the table makes the dice, a phone's part), so that every die can be
    checked once the seed is shown."""

    def dice(self, number: int, step: int, count: int) -> tuple[int, ...]:
        """`count` dice for roll `step` (from 0) of the row numbered `number`."""
        ...


class Engine(Protocol[RulesT, StateT, MoveT]):
    """What a kind of game offers a store that keeps only its rules, its secret seed and its
    move log (DESIGN.md, "Game kinds"): the whole game follows from those, so the store needs
    nothing else of the kind to create, play, resume and replay it.

    A state is the kind's `State`; a move is whatever its `play` takes. Every move a seat or a
    computer makes is appended to the log as `write_move` writes it, and `read_move` reads it
    back, so `replay` is the same game. What a move makes public is given to `rows`, which says
    which rows of the sheet it closed."""

    name: str  # as stored in `Game.kind`

    def read_rules(self, data: Mapping[str, Any]) -> RulesT:
        """The rules from a dict. Raises `InvalidRulesError`, in the rules' own words."""
        ...

    def write_rules(self, rules: RulesT) -> dict[str, Any]: ...

    def start(self, rules: RulesT, seats: int, seed: str) -> StateT:
        """The game before the first move. Raises `InvalidRulesError` for a wrong count."""
        ...

    def read_move(self, data: Mapping[str, Any]) -> MoveT:
        """A move from a dict (the API's body, a form, the log). Raises `InvalidMoveError`."""
        ...

    def write_move(self, move: MoveT) -> dict[str, Any]: ...

    def rows(self, public: Any) -> Sequence[SheetRow]:
        """The rows of the sheet that a move closed, from what it made public."""
        ...

    def computer_move(self, state: StateT, seat: int, rng: random.Random) -> MoveT:
        """The computer's move for `seat`, from what that seat may see alone; its tie-breaks
        from `rng`, which the store seeds from the game's seed and the move's number. A move
        that needs chance is completed by `with_chance`, as a person's is."""
        ...

    def with_chance(self, state: StateT, move: MoveT, chance: Chance) -> MoveT:
        """The move completed with the chance it needs, drawn from `chance` now (the dice a
        roll throws), as the log keeps it; a move that needs none as it is. Raises
        `RuleError` for a move the rules refuse, before any chance is drawn."""
        ...

    def take_back_refusal(self, move: MoveT, by_computer: bool) -> str | None:
        """Why a logged move may not be taken back (a sentence to translate), or None. The
        undo policy: an undo never crosses chance that someone has seen."""
        ...

    def row_title(self, data: Mapping[str, Any]) -> str:
        """A row as a player names it, from its `SheetRow.data` (a dice turn's total)."""
        ...

    def snapshot(self, state: StateT) -> dict[str, Any]:
        """The state as JSON-ready data, secrets included: only the store's secret row keeps
        it, as a cache of the state at one version."""
        ...

    def from_snapshot(self, data: Mapping[str, Any]) -> StateT: ...
