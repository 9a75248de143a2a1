"""Hand-built card tables for the card game's tests."""

from __future__ import annotations

from games.rules.cards import Card, CardRules, Colour, Deal, Tournament

SEED = b"a fixed seed for the tests"


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(code) for code in codes.split())


def table(
    *hands: str,
    total: int = 0,
    colour: Colour | None = None,
    stock: str = "",
    pile: str = "",
    to_move: int = 0,
    step: int = 1,
    tokens: tuple[int, ...] | None = None,
    rules: CardRules | None = None,
) -> Tournament:
    """A tournament in the middle of deal 1, laid out by hand."""
    rules = rules or CardRules()
    deal = Deal(
        number=1,
        hands=tuple(cards(hand) for hand in hands),
        stock=cards(stock),
        pile=cards(pile),
        total=total,
        colour=colour,
        step=step,
        to_move=to_move,
    )
    tokens = tokens or (rules.tokens,) * len(hands)
    return Tournament(rules, tokens, deal, seed=SEED)
