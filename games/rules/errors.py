"""The one family of errors the rules raise.

Every message is a sentence a player understands. Messages are templates with named
parameters, so that the web layer can translate the template and fill it in afterwards;
`str(error)` gives the English sentence.
"""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it here.

    The rules import nothing from Django; the name matches what Django's `makemessages`
    already looks for, so the messages still reach the translation catalogue.
    """
    return message


class RuleError(ValueError):
    """Something the rules refuse. `template % params` is the English sentence."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class InvalidRulesError(RuleError):
    """A rule set that cannot be played: an unknown key, a value out of range."""


class IllegalTurnError(RuleError):
    """A turn the rules do not allow in the current position."""


class GameOverError(IllegalTurnError):
    """A turn offered after the game has ended."""


class InvalidMoveError(IllegalTurnError):
    """A card move that is not well formed: an unknown card, a value of the wrong kind."""


class IllegalMoveError(IllegalTurnError):
    """A well-formed card move the rules do not allow now."""


class NotYourTurnError(IllegalMoveError):
    """A move offered for a seat whose turn it is not."""


class MoveUnderWayError(IllegalMoveError):
    """A move offered while a move made of several steps is still under way (a turn with
    dice the app rolls): it has to be finished first."""
