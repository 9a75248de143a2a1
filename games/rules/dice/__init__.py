"""The dice games Thirty and 30s, in pure Python: rule sets, typed-in and app-rolled turns,
exact odds, the computer player, the game-length estimate, and the move log the store keeps
(`log`: typed turns, rolled steps with their dice, whole rolled turns, and their replay).

A game is a `Position` (the points and whose turn it is) and `Position.play(turn)` writes a
`Row`; `DiceState` (`engine`) is the game the store plays, behind the engine protocol of
`games.rules`, with the turn under way.
"""

from . import bot, estimate, log, odds, rolled
from .engine import ENGINE, ComputerTurn, DiceEngine, DiceEvent, DiceState
from .game import (
    ATTACK,
    DICE,
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
from .ruleset import PRESET_KEYS, PRESETS, THIRTY_S_LIMIT, RuleSet

__all__ = [
    "ATTACK",
    "DICE",
    "ENGINE",
    "HEAL",
    "MAX_PLAYERS",
    "MAX_TOTAL",
    "MIN_PLAYERS",
    "MIN_TOTAL",
    "PRESETS",
    "PRESET_KEYS",
    "THIRTY_S_LIMIT",
    "ComputerTurn",
    "DiceEngine",
    "DiceEvent",
    "DiceGame",
    "DiceState",
    "Effect",
    "Position",
    "Question",
    "Row",
    "RuleSet",
    "Step",
    "Turn",
    "bot",
    "estimate",
    "log",
    "odds",
    "rolled",
]
