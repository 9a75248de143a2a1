"""The public JSON API's shapes, as pydantic models: the one source of what a request may
say and what an answer looks like. The views validate request bodies with them and
`games/api/openapi.py` builds the OpenAPI document from them, so the two cannot drift.

The models check shape: types, required and unknown keys, and the ranges DESIGN.md states.
The rules stay with `games/rules/`: where a value has the right type but the rules refuse
it, the rules say so in their own words (see `games/api/views.py`). Numbers that the rules bound
per game (a total, a hunt, a seat to attack) carry their range in the document only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from games.names import MAX_GAME_NAME_LENGTH, MAX_NAME_LENGTH
from games.rules import cards as card_rules
from games.rules.dice import DICE, MAX_PLAYERS, MAX_TOTAL, MIN_PLAYERS, MIN_TOTAL, Effect
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

Colour = Literal["red", "black"]


class Request(BaseModel):
    """A request body: JSON types as they are (no "33" for 33), and no key it does not know."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    """An answer the API gives. A key the code adds without adding it here is an error, not
    a key that quietly goes missing from the answer."""

    model_config = ConfigDict(extra="forbid")


# -- rules ------------------------------------------------------------------------------------


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


class CardRules(Request):
    """The card game."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    preset: Literal["cards"]
    tokens: Annotated[int, Field(ge=card_rules.MIN_TOKENS, le=card_rules.MAX_TOKENS)] = 5
    fewer_jacks: bool = False
    queens: bool = False
    single_stock: bool = False


def _preset(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("preset", "thirty"))
    return str(getattr(value, "preset", "thirty"))


Rules = Annotated[
    Annotated[ThirtyRules, Tag("thirty")]
    | Annotated[ThirtySRules, Tag("30s")]
    | Annotated[CardRules, Tag("cards")],
    Discriminator(_preset),
]
DiceRules = Annotated[
    Annotated[ThirtyRules, Tag("thirty")] | Annotated[ThirtySRules, Tag("30s")],
    Discriminator(_preset),
]


# -- requests ---------------------------------------------------------------------------------


class Player(Request):
    """A seat: a name, and whether the computer plays it."""

    name: Annotated[
        str,
        Field(description=f"1 to {MAX_NAME_LENGTH} characters after trimming"),
    ]
    computer: bool = False


class NewGame(Request):
    """A new game. Names are trimmed, must show something, and are unique ignoring case."""

    players: Annotated[
        list[str | Player],
        Field(
            min_length=MIN_PLAYERS,
            max_length=MAX_PLAYERS,
            description="In seat order: a name, or {name, computer} for a seat the computer"
            f" plays (the card game seats {card_rules.MIN_PLAYERS} to {card_rules.MAX_PLAYERS})",
        ),
    ]
    name: Annotated[
        str,
        Field(description=f"At most {MAX_GAME_NAME_LENGTH} characters after trimming"),
    ] = ""
    rules: Rules = Field(default_factory=ThirtyRules)
    table_dice: Annotated[
        bool,
        Field(
            description="Dice made by the whole table (dice games): every roll mixes the"
            " server's seed with a part of it from every phone at the table"
        ),
    ] = False


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
    """One step of a turn with dice the app rolls. The server rolls: a client never sends a
    die. No key at all rolls the turn's first six dice."""

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


class NewMove(Request):
    """A card from the seat's own hand."""

    card: Annotated[str, Field(description="Rank then suit: AH, 10S, JD, QC, XR, XB")]
    value: Annotated[int | None, Field(description="An Ace's 1 or 11, or a Jack's −10 to 10")] = (
        None
    )
    colour: Annotated[Colour | None, Field(description="A Joker's declared colour")] = None
    version: Annotated[int | None, Field(description="The version last seen")] = None


class OddsQuery(BaseModel):
    """The query of `GET /api/odds` and `GET /api/odds/choices`: text, read as numbers."""

    model_config = ConfigDict(extra="ignore")

    set_aside: SetAside = "any"
    target: Annotated[int, Field(ge=MIN_TARGET, le=MAX_TARGET)] = 30


# -- answers ----------------------------------------------------------------------------------


class Error(Answer):
    """Every refusal: one sentence in the reader's language."""

    error: str


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


class TurnInProgress(Answer):
    """A turn with app-rolled dice under way; `ask` is what it needs next."""

    roller: int
    rolls: list[RollRecord]
    kept_total: int
    hunt_rolls: list[HuntRecord]
    heal: bool | None
    target: int | None
    ask: Literal["roll", "keep", "action", "target", "hunt", "go_on"]


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


class GameState(Answer):
    """A dice game: every rule key resolved, seats and turns numbered from 1."""

    id: str
    name: str
    rules: DiceRules
    seats: list[DiceSeat]
    turns: list[TurnRow]
    next_roller: int | None
    winners: list[int]
    finished: bool
    version: int
    turn_in_progress: TurnInProgress | None = None
    undone_turns: list[UndoneTurn] = []
    hints: Annotated[bool, Field(description="Whether the roller's phone shows the odds")] = False
    table_dice: Annotated[bool, Field(description="Whether the table makes the dice")] = False
    table_label: Annotated[
        str | None,
        Field(
            description="With table_dice, until the game is over: the label of the next roll,"
            ' "t:<turn>:<rolls so far>", which every phone makes its part of that roll for'
        ),
    ] = None
    seed_sha256: Annotated[
        str, Field(description="SHA-256 of the secret seed of the dice the app rolls")
    ] = ""
    seed: Annotated[str | None, Field(description="The seed, once the game is over")] = None
    earlier_seeds: Annotated[
        list[EarlierSeed],
        Field(description="Seeds shown when the game ended before an undo reopened it"),
    ] = []


class CardSeat(Answer):
    seat: int
    name: str
    computer: bool
    tokens: int
    out: bool
    cards: int
    claimed: bool


class Deal(Answer):
    number: int
    to_move: int | None
    direction: Literal["clockwise", "counterclockwise"]
    total: int
    colour: Colour | None
    pile_top: str | None
    pile_count: int
    stock_count: int


class DealRecord(Answer):
    number: int
    losers: list[int]
    cells: list[int]


class LegalMove(Answer):
    """A legal play: `value` for an Ace or a Jack, `colour` (possibly null) for a Joker."""

    card: str
    value: int | None = None
    colour: Colour | None = None


class CardState(Answer):
    """The card game as one viewer may see it: `hand` and `legal` only with that seat's
    own key, `seed` only once the tournament is over."""

    id: str
    name: str
    version: int
    rules: CardRules
    seats: list[CardSeat]
    deal: Deal
    deals: list[DealRecord]
    winners: list[int]
    finished: bool
    seed_sha256: str
    seed: str | None = None
    hand: list[str] | None = None
    legal: list[LegalMove] | None = None


class Keys(Answer):
    host_key: Annotated[str, Field(description="The host's secret: returned only here")]
    seat_keys: Annotated[
        list[str | None], Field(description="One per seat in seat order; null for a computer")
    ]


class NewGameState(Keys, GameState):
    """A new dice game, with its keys."""


class NewCardState(Keys, CardState):
    """A new card game, with its keys."""


class SeatKey(Answer):
    seat_key: str


class Odds(Answer):
    p_beat: float
    p_beat_exact: Annotated[str, Field(description="numerator/denominator")]
    totals: Annotated[dict[str, float], Field(description="Total → chance, 6 to 36")]


class Choice(Answer):
    keep: list[int]
    p_beat: float


class OddsChoices(Answer):
    choices: list[Choice]
