"""The rules of the Thirty family of games, in pure Python.

Nothing here imports Django: the web layer parses input, calls these functions and stores
what they decide. Every kind of game speaks the small protocol in `engine`; the card game
lives in `games.rules.cards`.
"""

from .dice import (
    ATTACK,
    HEAL,
    MAX_PLAYERS,
    MAX_TOTAL,
    MIN_PLAYERS,
    MIN_TOTAL,
    DiceGame,
    Effect,
    Position,
    Question,
    Row,
    Step,
    Turn,
)
from .engine import Outcome, State
from .errors import (
    GameOverError,
    IllegalMoveError,
    IllegalTurnError,
    InvalidMoveError,
    InvalidRulesError,
    NotYourTurnError,
    RuleError,
)
from .ruleset import PRESET_KEYS, PRESETS, RuleSet

__all__ = [
    "ATTACK",
    "HEAL",
    "MAX_PLAYERS",
    "MAX_TOTAL",
    "MIN_PLAYERS",
    "MIN_TOTAL",
    "PRESETS",
    "PRESET_KEYS",
    "DiceGame",
    "Effect",
    "GameOverError",
    "IllegalMoveError",
    "IllegalTurnError",
    "InvalidMoveError",
    "InvalidRulesError",
    "NotYourTurnError",
    "Outcome",
    "Position",
    "Question",
    "Row",
    "RuleError",
    "RuleSet",
    "State",
    "Step",
    "Turn",
]
