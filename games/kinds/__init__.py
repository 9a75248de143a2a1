"""The kinds of game, in one table: everything generic code needs of a kind, asked of the
kind by name (`find_kind(game.kind)`), in the manner of python-chess's `find_variant` and
healthchecks' `TRANSPORTS`. Generic code never names a kind.

Each kind is a package beside this one (`games.kinds.dice`, `games.kinds.cards`) that holds
what belongs to it alone on the web, over its engine in `games.rules`. Adding a kind means a
package there, one in `games.rules`, and one line in `KINDS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pydantic
from django.utils.functional import Promise

from games.models import Game


@dataclass(frozen=True)
class Standing:
    """Where a game stands, from the sums of its sheet's cells alone: whether it is over and
    who won (seats from 0)."""

    finished: bool
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Refusal:
    """Why a kind does not offer an operation: the status and the sentence (to translate)."""

    status: int
    sentence: str


# The operations a kind may lack (`Kind.refuses`).
TYPED_TURN, ROLL, UNDO, CARD, CLAIM = "typed_turn", "roll", "undo", "card", "claim"


class Kind(Protocol):
    """What a kind of game offers the generic parts of the app."""

    name: str  # as stored in `Game.kind`
    # Its games as `Game.preset` stores them, each with the name a list of games shows.
    presets: Sequence[tuple[str, str | Promise]]
    # The state is the same for every viewer (nothing hidden), so it can be built once per
    # version and shared; otherwise each viewer gets its own view.
    shared_state: bool
    # The operations this kind does not offer, and the refusal each gets.
    refuses: Mapping[str, Refusal]
    # The API's answer models: the state, and the state of a game just created (with keys).
    state_model: type[pydantic.BaseModel]
    new_state_model: type[pydantic.BaseModel]

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        """The game as the API shows it to `seat` (None: any watcher), seats from 1."""
        ...

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        """The standing from each seat's sum of cells, in seat order."""
        ...

    def sheet_csv(self, game: Game) -> str:
        """The sheet as a spreadsheet reads it: only what the whole table saw."""
        ...

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        """A new game of the same rules with these (name, computer) seats, and its host key;
        under the caller's transaction."""
        ...


def _kinds() -> dict[str, Kind]:
    from games.kinds.cards import CARDS
    from games.kinds.dice import DICE

    return {kind.name: kind for kind in (DICE, CARDS)}


class UnknownKindError(LookupError):
    """A kind of game this app does not have."""


def find_kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKindError(name) from None


def kind_of(game: Game) -> Kind:
    return find_kind(game.kind)


def refusal(game: Game, operation: str) -> Refusal | None:
    """Why this game's kind does not offer `operation`, or None when it does."""
    return kind_of(game).refuses.get(operation)


def offers(game: Game, operation: str) -> bool:
    return refusal(game, operation) is None


KINDS: dict[str, Kind] = _kinds()
