"""The rules of the Thirty family of games, in pure Python.

Nothing here imports Django: the web layer parses input, calls these functions and stores
what they decide.
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
from .errors import GameOverError, IllegalTurnError, InvalidRulesError, RuleError
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
    "IllegalTurnError",
    "InvalidRulesError",
    "Position",
    "Question",
    "Row",
    "RuleError",
    "RuleSet",
    "Step",
    "Turn",
]
