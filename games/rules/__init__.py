"""The rules of the Thirty family of games, in pure Python.

Nothing here imports Django: the web layer parses input, calls these rules and stores what
they decide. This face hands on only what every kind of game shares: the engine protocol
(`State`, `Outcome`), the errors, and the seeds (`chance`). Each kind is a package of its
own: the dice games in `games.rules.dice`, the card game in `games.rules.cards`.
"""

from .engine import Outcome, State
from .errors import (
    GameOverError,
    IllegalMoveError,
    IllegalTurnError,
    InvalidMoveError,
    InvalidRulesError,
    MoveUnderWayError,
    NotYourTurnError,
    RuleError,
)

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "IllegalTurnError",
    "InvalidMoveError",
    "InvalidRulesError",
    "MoveUnderWayError",
    "NotYourTurnError",
    "Outcome",
    "RuleError",
    "State",
]
