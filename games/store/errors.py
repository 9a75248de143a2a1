"""What the store refuses, in one place: each error means nothing was written, and the
pages and the API each turn it into their own answer."""

from __future__ import annotations


class StaleVersionError(Exception):
    """The game changed since the client last looked; nothing was recorded."""


class NotYourTurnError(Exception):
    """A player tried to enter a turn that is not theirs, or the host does not allow it."""


class TurnInProgressError(Exception):
    """A turn typed in, or an undo, while a turn with app-rolled dice is under way."""


class BadKeyError(Exception):
    """A seat key that does not open this seat (wrong, or already claimed)."""


class SeatTakenError(Exception):
    """A claim link whose seat another phone claimed first: not a guess, a lost race."""


class TableDiceError(Exception):
    """A phone's part in the table's dice refused, with the sentence to show (to translate)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
