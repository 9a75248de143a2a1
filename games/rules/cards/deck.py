"""Cards, the card game's rule set, the deck it uses, and the seeded shuffles.

Cards are written rank then suit: `A`, `2`..`10`, `J`, `Q` and `S` `H` `D` `C` (`"10H"`,
`"JS"`, `"AD"`); the Jokers are `"XR"` (red) and `"XB"` (black).

Every shuffle follows from a secret seed: the deal number (and, for a restock, the restock
count within that deal) picks a generator seeded with `sha256(seed + b":deal:N")` (or
`b":deal:N:restock:R"`). Anyone given the seed after the tournament can therefore replay every
deal and check it against `seed_sha256(seed)`, which is shown from the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

from .. import chance
from ..chance import Seed
from ..errors import InvalidMoveError, InvalidRulesError, gettext_noop

Colour = Literal["red", "black"]
RED: Colour = "red"
BLACK: Colour = "black"
COLOURS: tuple[Colour, ...] = (RED, BLACK)

SUITS = ("S", "H", "D", "C")
NUMBER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
JACK, QUEEN, JOKER = "J", "Q", "X"
JOKER_SUITS = ("R", "B")
_SUIT_COLOUR: dict[str, Colour] = {"S": BLACK, "C": BLACK, "H": RED, "D": RED, "R": RED, "B": BLACK}

MIN_PLAYERS, MAX_PLAYERS = 2, 10
MIN_TOKENS, MAX_TOKENS = 1, 9
HAND_SIZE = 3


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Build it with `Card.from_code("10H")`; `card.code` gives the code back.

    The derived fields are worked out once here because the engine and the bot ask for them
    on every move.
    """

    rank: str  # "A", "2".."10", "J", "Q", or "X" for a Joker
    suit: str  # "S", "H", "D", "C", or "R"/"B" for a Joker
    code: str = field(init=False, repr=False, compare=False)
    colour: Colour = field(init=False, repr=False, compare=False)
    is_ace: bool = field(init=False, repr=False, compare=False)
    is_jack: bool = field(init=False, repr=False, compare=False)
    is_queen: bool = field(init=False, repr=False, compare=False)
    is_joker: bool = field(init=False, repr=False, compare=False)
    number: int | None = field(init=False, repr=False, compare=False)  # 2..10, else None

    def __post_init__(self) -> None:
        derived = {
            "code": self.rank + self.suit,
            "colour": _SUIT_COLOUR[self.suit],
            "is_ace": self.rank == "A",
            "is_jack": self.rank == JACK,
            "is_queen": self.rank == QUEEN,
            "is_joker": self.rank == JOKER,
            "number": int(self.rank) if self.rank.isdigit() else None,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @staticmethod
    def from_code(code: str) -> Card:
        """The card a code names. Raises `InvalidMoveError` for anything else."""
        if isinstance(code, str) and code in _BY_CODE:
            return _BY_CODE[code]
        raise InvalidMoveError(
            gettext_noop("There is no card called “%(code)s”."), code=str(code)[:20]
        )

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"

    def __str__(self) -> str:
        return self.code


_ALL_CARDS = tuple(
    Card(rank, suit) for suit in SUITS for rank in (*NUMBER_RANKS, JACK, QUEEN)
) + tuple(Card(JOKER, suit) for suit in JOKER_SUITS)
_BY_CODE: dict[str, Card] = {card.code: card for card in _ALL_CARDS}
ALL_CODES: tuple[str, ...] = tuple(_BY_CODE)


@dataclass(frozen=True)
class CardRules:
    """The variants a table agreed on for the card game, as one immutable value."""

    tokens: int = 5
    fewer_jacks: bool = False  # two Jacks out (one red, one black): 44 cards
    queens: bool = False  # two Queens in (one red, one black): 48 cards
    single_stock: bool = False  # an empty stock ends the deal and everyone in loses a token

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardRules:
        """Build from `{"preset": "cards", ...}` (the preset key is optional), refusing typos."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(gettext_noop("The rules must be a set of named options."))
        overrides: dict[str, Any] = {}
        for key, value in data.items():
            if key == "preset":
                if value != "cards":
                    raise InvalidRulesError(
                        gettext_noop("There is no card game called “%(preset)s”."),
                        preset=str(value),
                    )
            elif key == "tokens":
                if (
                    not isinstance(value, int)
                    or isinstance(value, bool)
                    or not MIN_TOKENS <= value <= MAX_TOKENS
                ):
                    raise InvalidRulesError(
                        gettext_noop("Tokens are a whole number from %(low)s to %(high)s."),
                        low=MIN_TOKENS,
                        high=MAX_TOKENS,
                    )
                overrides[key] = value
            elif key in ("fewer_jacks", "queens", "single_stock"):
                if not isinstance(value, bool):
                    raise InvalidRulesError(
                        gettext_noop("%(key)s must be true or false."), key=str(key)
                    )
                overrides[key] = value
            else:
                raise InvalidRulesError(
                    gettext_noop("The option “%(key)s” is not part of this game."), key=str(key)
                )
        return replace(cls(), **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every key, resolved: the shape the public API returns."""
        return {
            "preset": "cards",
            "tokens": self.tokens,
            "fewer_jacks": self.fewer_jacks,
            "queens": self.queens,
            "single_stock": self.single_stock,
        }

    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in a fixed order (shuffles start from this order)."""
        return _deck(self.fewer_jacks, self.queens)


@cache
def _deck(fewer_jacks: bool, queens: bool) -> tuple[Card, ...]:
    def wanted(card: Card) -> bool:
        if card.is_queen:
            return queens and card.code in ("QH", "QS")
        if card.is_jack:
            return not (fewer_jacks and card.code in ("JH", "JS"))
        return True

    return tuple(card for card in _ALL_CARDS if wanted(card))


# -- seeds and shuffles -------------------------------------------------------------------


def shuffled(cards: tuple[Card, ...], seed: Seed, deal: int, restock: int = 0) -> tuple[Card, ...]:
    """`cards` shuffled for deal `deal` (from 1), or for restock `restock` (from 1) within it.

    A deal shuffles the whole deck in `CardRules.deck()` order; a restock shuffles the pile
    but its top card, bottom first.
    """
    label = f":deal:{deal}" if restock == 0 else f":deal:{deal}:restock:{restock}"
    order = list(cards)
    chance.rng(seed, label).shuffle(order)
    return tuple(order)
