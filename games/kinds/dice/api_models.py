"""The dice games' shapes in the public JSON API (DESIGN.md): their rules, a typed-in turn, a
step of a turn the app rolls, the odds, and a dice game's state."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from games.api.models import Answer, GameName, Keys, Request, preset_of
from games.api.openapi import GAME_ID, HOST_KEY, SEAT_KEY, Operation, Param
from games.rules.dice import DICE, MAX_TOTAL, MIN_TOTAL, Effect
from games.rules.dice.ruleset import (
    MAX_START_POINTS,
    MAX_TARGET,
    MIN_START_POINTS,
    MIN_TARGET,
    EmptySeat,
    End,
    HuntDice,
    OnFailure,
    SetAside,
)


class ThirtyRules(Request):
    """Thirty: `preset` may be left out. Only the keys of this preset are accepted."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    preset: Literal["thirty"] = "thirty"
    start_points: Annotated[int, Field(ge=MIN_START_POINTS, le=MAX_START_POINTS)] = 30
    target: Annotated[int, Field(ge=MIN_TARGET, le=MAX_TARGET)] = 30
    set_aside: SetAside = "any"
    on_failure: OnFailure = "nothing"
    empty_seat: EmptySeat = "carry"
    hunt_dice: HuntDice = "six"


class ThirtySRules(Request):
    """30s, always played to 30."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    preset: Literal["30s"]
    set_aside: SetAside = "any"
    end: End = "last_standing"
    healing: bool = False
    free_for_all: bool = False
    weaker_attacks: bool = False
    precise_elimination: bool = False


DiceRules = Annotated[
    Annotated[ThirtyRules, Tag("thirty")] | Annotated[ThirtySRules, Tag("30s")],
    Discriminator(preset_of),
]


class NewTurn(Request):
    """A turn typed in from physical dice."""

    total: Annotated[int, Field(json_schema_extra={"minimum": MIN_TOTAL, "maximum": MAX_TOTAL})]
    hunt: Annotated[
        int | None,
        Field(
            description="Hunt dice that showed the margin; required when the total beats the"
            " target",
            json_schema_extra={"minimum": 0, "maximum": DICE},
        ),
    ] = None
    target: Annotated[
        int | None,
        Field(description="The seat attacked (free for all)", json_schema_extra={"minimum": 1}),
    ] = None
    heal: bool = False
    version: Annotated[int | None, Field(description="The version last seen")] = None


class NewRoll(Request):
    """One step of a rolled turn. With dice the app rolls, the server rolls: a client never
    sends a die, and no key at all rolls the turn's first six dice. With dice thrown at the
    table, the first step says `table` and gives the six faces thrown; each later step gives
    the faces of the dice it throws (the dice left after `keep`, or the hunt's)."""

    keep: Annotated[
        list[int] | None,
        Field(
            description="Dice of the last roll to set aside (their faces); the rest are rolled",
            json_schema_extra={"items": {"type": "integer", "minimum": 1, "maximum": DICE}},
        ),
    ] = None
    heal: Annotated[bool | None, Field(description="30s healing: heal (true) or attack")] = None
    target: Annotated[
        int | None,
        Field(description="The seat attacked (free for all)", json_schema_extra={"minimum": 1}),
    ] = None
    hunt: Annotated[bool, Field(description="Roll the hunt (30s: the dice left in the chain)")] = (
        False
    )
    stop: Annotated[bool, Field(description="30s weaker attacks: stop the chain")] = False
    table: Annotated[
        bool,
        Field(description="The first step of a turn thrown at the table: its `dice` follow"),
    ] = False
    dice: Annotated[
        list[int] | None,
        Field(
            description="Only in a turn thrown at the table: the faces this step threw",
            json_schema_extra={"items": {"type": "integer", "minimum": 1, "maximum": DICE}},
        ),
    ] = None
    version: Annotated[int | None, Field(description="The version last seen")] = None
    part: Annotated[
        str | None,
        Field(
            description="With table_dice: HMAC-SHA256 under this phone's secret of"
            ' "thirty:part:<table_label>", the label of the next roll as the state at'
            " `version` gives it, in hex (the version is required then)",
            pattern="^[0-9a-f]{64}$",
        ),
    ] = None


class OddsQuery(BaseModel):
    """The query of `GET /api/odds` and `GET /api/odds/choices`: text, read as numbers."""

    model_config = ConfigDict(extra="ignore")

    set_aside: SetAside = "any"
    target: Annotated[int, Field(ge=MIN_TARGET, le=MAX_TARGET)] = 30


class DiceSeat(Answer):
    seat: int
    name: str
    points: int
    out: bool
    computer: bool


class RollRecord(Answer):
    """One roll of an app-rolled turn: the dice, and those then set aside (null until chosen)."""

    dice: list[int]
    kept: list[int] | None


class HuntRecord(Answer):
    """One roll of the hunt, and how many of its dice showed the margin."""

    dice: list[int]
    hits: int


class TurnReported(Answer):
    """What a turn reported: who rolled, the total, and the hunt, target or healing."""

    number: int
    roller: int
    total: int
    hunt: int | None
    target: int | None
    heal: bool


SEED_INDEX = (
    "Which seed rolled the turn: an index into `earlier_seeds`, or their count for the game's"
    " own seed (`seed_sha256`, `seed` once over); null when typed in"
)


class TurnRow(TurnReported):
    effect: Effect
    cells: list[int]
    rolls: Annotated[
        list[RollRecord] | None, Field(description="The audit trail; null when typed in")
    ] = None
    hunt_rolls: list[HuntRecord] | None = None
    seed_index: Annotated[int | None, Field(description=SEED_INDEX)] = None
    table: Annotated[
        bool, Field(description="Its rolls were thrown at the table and entered roll by roll")
    ] = False


class TurnInProgress(Answer):
    """A rolled turn under way; `ask` is what it needs next."""

    roller: int
    rolls: list[RollRecord]
    kept_total: int
    hunt_rolls: list[HuntRecord]
    heal: bool | None
    target: int | None
    ask: Literal["roll", "keep", "action", "target", "hunt", "go_on"]
    table: Annotated[
        bool, Field(description="Its dice are thrown at the table: each step gives its `dice`")
    ] = False


class EarlierSeed(Answer):
    """A seed shown when the game ended, before an undo reopened it with a fresh one: every
    turn rolled before that matches one of the game's seeds."""

    seed: str
    seed_sha256: str


class UndoneTurn(TurnReported):
    """An app-rolled turn the host took back: it stays in the log."""

    rolls: list[RollRecord]
    hunt_rolls: list[HuntRecord] | None
    seed_index: Annotated[int | None, Field(description=SEED_INDEX)] = None
    undone_at: str


class WaitingRollState(BaseModel):
    """A roll of the table's dice asked for, waiting for the other phones' parts: made once
    every awake phone's part has come, or at `due_at` without those that did not."""

    label: str
    roller: Annotated[int | None, Field(description="The seat whose phone asked; null: host")]
    due_at: Annotated[str, Field(description="When it is made without the missing parts")]


class GameState(Answer):
    """A dice game: every rule key resolved, seats and turns numbered from 1."""

    id: str
    name: GameName
    rules: DiceRules
    seats: list[DiceSeat]
    turns: list[TurnRow]
    next_roller: int | None
    winners: list[int]
    finished: bool
    version: int
    turn_in_progress: TurnInProgress | None = None
    undone_turns: list[UndoneTurn] = []  # noqa: RUF012 (pydantic copies a field's default)
    hints: Annotated[bool, Field(description="Whether the roller's phone shows the odds")] = False
    table_dice: Annotated[bool, Field(description="Whether the table makes the dice")] = False
    table_label: Annotated[
        str | None,
        Field(
            description="With table_dice, until the game is over: the label of the next roll,"
            ' "t:<turn>:<rolls so far>", which every phone makes its part of that roll for'
        ),
    ] = None
    table_waiting: Annotated[
        WaitingRollState | None,
        Field(
            description="With table_dice: the roll asked for that waits for the other phones'"
            " parts (each sends its part of `label` now), else null"
        ),
    ] = None
    seed_sha256: Annotated[
        str, Field(description="SHA-256 of the secret seed of the dice the app rolls")
    ] = ""
    seed: Annotated[str | None, Field(description="The seed, once the game is over")] = None
    earlier_seeds: Annotated[
        list[EarlierSeed],
        Field(description="Seeds shown when the game ended before an undo reopened it"),
    ] = []  # noqa: RUF012 (pydantic copies a field's default)


class NewGameState(Keys, GameState):
    """A new dice game, with its keys."""


class Odds(Answer):
    p_beat: float
    p_beat_exact: Annotated[str, Field(description="numerator/denominator")]
    totals: Annotated[dict[str, float], Field(description="Total → chance, 6 to 36")]


class Choice(Answer):
    keep: list[int]
    p_beat: float


class OddsChoices(Answer):
    choices: list[Choice]


# -- the dice games' own operations in the OpenAPI document (`Kind.api_operations`) -----------

_ODDS = OddsQuery.model_json_schema()["properties"]
SET_ASIDE = Param("set_aside", "query", _ODDS["set_aside"])
TARGET = Param("target", "query", _ODDS["target"])
ROLL = Param(
    "roll",
    "query",
    {"type": "string", "pattern": "^[1-6](,[1-6]){0,5}$"},
    required=True,
    description="The dice still in hand, such as 6,6,5,1,1,2",
)
KEPT = Param(
    "kept",
    "query",
    {"type": "integer", "minimum": 0, "default": 0},
    description="The sum already set aside",
)

OPERATIONS = (
    Operation(
        "post",
        "/api/games/{game_id}/turns",
        "Record a dice turn (the host's key, or the roller's own seat key)",
        (201, GameState),
        (400, 403, 404, 409, 413, 415, 422, 429),
        (GAME_ID, HOST_KEY, SEAT_KEY),
        NewTurn,
    ),
    Operation(
        "post",
        "/api/games/{game_id}/roll",
        "One step of a dice turn the app rolls: the first roll, setting dice aside (the rest"
        " are rolled), healing, the target and the hunt (the host's key, or the roller's own"
        " seat key). Where the table makes the dice, a roll answers 202 with the state, its"
        " `table_waiting` set: the roll is made once the other phones have sent their parts"
        " of it, or its wait has run out",
        (200, GameState),
        (400, 403, 404, 409, 413, 415, 422, 429),
        (GAME_ID, HOST_KEY, SEAT_KEY),
        NewRoll,
    ),
    Operation(
        "get",
        "/api/odds",
        "Exact odds of one dice turn under best play",
        (200, Odds),
        (400, 422, 429),
        (SET_ASIDE, TARGET),
    ),
    Operation(
        "get",
        "/api/odds/choices",
        "Every legal choice of dice to set aside from a roll, best first",
        (200, OddsChoices),
        (400, 422, 429),
        (ROLL, KEPT, SET_ASIDE, TARGET),
    ),
)
