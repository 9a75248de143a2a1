"""The kinds of game, in one table: everything generic code needs of a kind, asked of the
kind by name (`find_kind(game.kind)`), in the manner of python-chess's `find_variant` and
healthchecks' `TRANSPORTS`. Generic code never names a kind.

Each kind is a package beside this one (`games.kinds.dice`, `games.kinds.cards`) that holds
what belongs to it alone on the web, over its engine in `games.rules`. Adding a kind means a
package there, one in `games.rules`, and one line in `KINDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from games.models import Game


@dataclass(frozen=True)
class Standing:
    """Where a game stands, from the sums of its sheet's cells alone: whether it is over and
    who won (seats from 0)."""

    finished: bool
    winners: tuple[int, ...]


class Kind(Protocol):
    """What a kind of game offers the generic parts of the app."""

    name: str  # as stored in `Game.kind`

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


KINDS: dict[str, Kind] = _kinds()
