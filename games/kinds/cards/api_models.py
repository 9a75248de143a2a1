"""The card game's shapes in the public JSON API (DESIGN.md): its rules, a card played, and the
state as one viewer may see it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from games.api.models import Answer, GameName, Keys, Request
from games.rules import cards as card_rules

Colour = Literal["red", "black"]


class CardRules(Request):
    """The card game."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    preset: Literal["cards"]
    tokens: Annotated[int, Field(ge=card_rules.MIN_TOKENS, le=card_rules.MAX_TOKENS)] = 5
    fewer_jacks: bool = False
    queens: bool = False
    single_stock: bool = False


class NewMove(Request):
    """A card from the seat's own hand."""

    card: Annotated[str, Field(description="Rank then suit: AH, 10S, JD, QC, XR, XB")]
    value: Annotated[int | None, Field(description="An Ace's 1 or 11, or a Jack's −10 to 10")] = (
        None
    )
    colour: Annotated[Colour | None, Field(description="A Joker's declared colour")] = None
    version: Annotated[int | None, Field(description="The version last seen")] = None


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
    name: GameName
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


class NewCardState(Keys, CardState):
    """A new card game, with its keys."""
