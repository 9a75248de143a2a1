"""The small protocol every kind of game in `games.rules` speaks, in the manner of python-chess.

A game is a chain of immutable state values. The web layer needs only these five questions,
whatever the kind of game:

- `to_move()`: the seat (numbered from 0) whose move it is, or None once the game is over.
- `legal_moves()`: every move the rules allow now, in a stable order (empty when over).
- `play(move)`: check the move and return `(new_state, public)`. The old state is unchanged.
  `public` describes what everybody at the table may now know about the move (a card laid
  face up, "drew one card", "lost the deal"); it never holds a secret. A move the rules refuse
  raises a `RuleError` whose message is a sentence a player understands.
- `outcome()`: None while the game runs, then an `Outcome` (the winners and why).
- `view(seat)`: the only way anything leaves the engine. `view(None)` is what any watcher may
  see; `view(seat)` adds what that seat alone may see (its own hand, its legal moves). Shared
  caches must be built from `view(None)` only.

Because states are values, undo is "keep the earlier state" and replay is a fold of `play`
over the stored moves: nothing derived needs storing.

The dice games fit the same shape without change of behaviour: a state would be the dice
`Position` plus the dice of the turn in progress; `to_move()` is `Position.next_roller`;
a move is a choice of dice to set aside (or a typed-in `Turn`), with `legal_moves()` the
distinct sub-multisets of the last roll the set-aside rule allows; `play()` returns the next
state and, as `public`, the roll or the `Row` written; `outcome()` comes from
`Position.winners`; and `view()` is the same for every seat, since nothing in a dice game is
hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

MoveT = TypeVar("MoveT")
PublicT_co = TypeVar("PublicT_co", covariant=True)
ViewT_co = TypeVar("ViewT_co", covariant=True)


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

    def play(self, move: MoveT) -> tuple[Self, PublicT_co]:
        """The state after `move` and what became public. Raises `RuleError`."""
        ...

    def outcome(self) -> Outcome | None:
        """None while the game runs; then the winners and the reason."""
        ...

    def view(self, seat: int | None) -> ViewT_co:
        """What `seat` may see; `None` is any watcher."""
        ...
