"""The public JSON API's shapes that every kind shares, as pydantic models: a request and an
answer, a player, a new game (its rules are each kind's, `Kind.rules_models`), the keys a new
game answers, and an error. Each kind's own models (its rules, moves and state) live with it
(`games.kinds.<kind>.api_models`). The views validate request bodies with them and
`games/api/openapi.py` builds the OpenAPI document from them, so the two cannot drift.

The models check shape: types, required and unknown keys, and the ranges DESIGN.md states.
The rules stay with `games/rules/`: where a value has the right type but the rules refuse
it, the rules say so in their own words (see `games/api/views.py`). Numbers that the rules bound
per game (a total, a hunt, a seat to attack) carry their range in the document only.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from django.utils import translation
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from games.kinds import KINDS, seat_bounds
from games.names import MAX_GAME_NAME_LENGTH, MAX_NAME_LENGTH


class Request(BaseModel):
    """A request body: JSON types as they are (no "33" for 33), and no key it does not know."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    """An answer the API gives. A key the code adds without adding it here is an error, not
    a key that quietly goes missing from the answer."""

    model_config = ConfigDict(extra="forbid")


class Player(Request):
    """A seat: a name, and whether the computer plays it."""

    name: Annotated[
        str,
        Field(description=f"1 to {MAX_NAME_LENGTH} characters after trimming"),
    ]
    computer: bool = False


def first_preset() -> str:
    """The game a new game is when its rules name none: the first kind's first."""
    return next(iter(KINDS.values())).presets[0][0]


def preset_of(value: Any) -> str:
    """The preset a rules object or dict names, for the discriminated union of rules."""
    if isinstance(value, dict):
        return str(value.get("preset", first_preset()))
    return str(getattr(value, "preset", first_preset()))


def new_game_model() -> type[BaseModel]:
    """`NewGame`, with the rules of every kind as one union told apart by `preset` (the
    first kind's first game when left out); made once for the kinds the app has."""
    return _new_game_model(tuple(KINDS))


@cache
def _new_game_model(kinds: tuple[str, ...]) -> type[BaseModel]:
    tagged = [
        Annotated[model, Tag(preset)]
        for kind in KINDS.values()
        for preset, model in kind.rules_models
    ]
    union: Any = tagged[0]
    for member in tagged[1:]:
        union = union | member
    first = next(iter(KINDS.values())).rules_models[0][1]
    fewest, most = seat_bounds()
    with translation.override("en"):  # the document is in English, whoever asks first
        narrower = "; ".join(
            f"{kind.presets[0][1]}: {kind.seats[0]} to {kind.seats[1]}"
            for kind in KINDS.values()
            if kind.seats != (fewest, most)
        )
    seats_note = f" ({narrower})" if narrower else ""
    fields: dict[str, Any] = {
        "players": (
            Annotated[
                list[str | Player],
                Field(
                    min_length=fewest,
                    max_length=most,
                    description="In seat order: a name, or {name, computer} for a seat the"
                    f" computer plays{seats_note}",
                ),
            ],
            ...,
        ),
        "name": (
            Annotated[
                str,
                Field(description=f"At most {MAX_GAME_NAME_LENGTH} characters after trimming"),
            ],
            "",
        ),
        "rules": (Annotated[union, Discriminator(preset_of)], Field(default_factory=first)),
        "table_dice": (
            Annotated[
                bool,
                Field(
                    description="Dice made by the whole table (dice games): every roll mixes the"
                    " server's seed with a part of it from every phone at the table"
                ),
            ],
            False,
        ),
    }
    return create_model(
        "NewGame",
        __base__=Request,
        __doc__="A new game. Names are trimmed, must show something, and are unique ignoring case.",
        **fields,
    )


# A game's name in an answer: a value programs may keep and compare, so it does not change
# with the language of whoever asks. The pages (and the game file, and the BG Stats link,
# which a person reads) show a name the app made up in their reader's language (`Game.title`).
GameName = Annotated[
    str,
    Field(
        description="The name the host gave the game; for a game nobody named, the one the app"
        " made up for it (its day and players) in the language it was created in, whoever asks"
    ),
]


class Error(Answer):
    """Every refusal: one sentence in the reader's language."""

    error: str


class Keys(Answer):
    host_key: Annotated[str, Field(description="The host's secret: returned only here")]
    seat_keys: Annotated[
        list[str | None], Field(description="One per seat in seat order; null for a computer")
    ]


class SeatKey(Answer):
    seat_key: str
