"""What the store refuses, in one place: each error means nothing was written, and the
pages and the API each turn it into their own answer."""

from __future__ import annotations

from typing import Any


class StaleVersionError(Exception):
    """The game changed since the client last looked; nothing was recorded."""


class NotYourTurnError(Exception):
    """A player tried to enter a turn that is not theirs, or the host does not allow it."""


class TurnInProgressError(Exception):
    """A turn typed in, or an undo, while a turn with app-rolled dice is under way."""


class RollWaitsError(Exception):
    """A roll of the table's dice was asked for and waits for the other phones' parts
    (`WaitingRoll`): nothing is rolled yet. `game` is at its new version, which shows the
    roll waiting to every phone."""

    def __init__(self, game: Any) -> None:
        super().__init__(game.pk)
        self.game = game


class BadKeyError(Exception):
    """A seat key that does not open this seat (wrong, or already claimed)."""


class SeatTakenError(Exception):
    """A claim link whose seat another phone claimed first: not a guess, a lost race."""


class TableDiceError(Exception):
    """A phone's part in the table's dice refused, with the sentence to show (to translate)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
