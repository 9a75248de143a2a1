"""The card game's tournaments through the one store path (`games.store.moves`), with their
types: created, resumed at a version, and told deal by deal once they are over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from games import store
from games.models import Game
from games.rules import cards


def create_card_game(
    name: str,
    players: Sequence[store.Player],
    card_rules: cards.CardRules,
    *,
    rematch_of: Game | None = None,
) -> tuple[Game, str]:
    """A new tournament and its host key; computer seats play at once if it is their turn."""
    return store.start_game(cards.KIND, name, players, card_rules.to_dict(), rematch_of=rematch_of)


def rules_of(game: Game) -> cards.CardRules:
    """The variants of a card game."""
    return cards.CardRules.from_dict(game.rules_data)


def load_tournament(game: Game) -> cards.Tournament:
    return cast(cards.Tournament, store.load_state(game))


def card_deals(game: Game) -> tuple[cards.DealStory, ...]:
    """Every deal of a finished tournament with the hands dealt, for its replay. Raises a
    `RuleError` while the tournament is still going: until it is over, no hand leaves its
    holder's phone."""
    seed, moves = store.finished_log(game)
    return cards.deal_stories(
        rules_of(game),
        game.seats.count(),
        seed,
        (cards.Move.from_dict(data) for _, data in moves),
    )
