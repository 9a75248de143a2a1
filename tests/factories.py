"""factory-boy factories for games, seats and turns, built through the app's own store."""

from __future__ import annotations

from typing import Any

import factory

from games.kinds.dice import moves as dice_moves
from games.kinds.dice import stored
from games.models import Game
from games.rules import dice as dice_rules


class GameFactory(factory.django.DjangoModelFactory):  # type: ignore[type-arg]
    """A game with seats. `host_key` is kept on the instance for tests that act as host."""

    class Meta:
        model = Game

    name = factory.Sequence(lambda n: f"Friday {n}")  # type: ignore[attr-defined,no-untyped-call]

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        players = kwargs.pop("players", ["Anna", "Ben", "Cleo", "Dan"])
        ruleset = dice_rules.RuleSet.from_dict(kwargs.pop("rules", {}))
        game, host_key = dice_moves.create_game(kwargs.pop("name"), players, ruleset)
        game.host_key = host_key  # type: ignore[attr-defined]
        return game


def play(game: Game, *turns: dice_rules.Turn) -> Game:
    for turn in turns:
        dice_moves.record_turn(game.pk, turn)
    game.refresh_from_db()
    return game


def rolling(game: Game) -> dict[str, Any] | None:
    """The game's turn in progress with app-rolled dice as it stands now (`RolledTurn.to_json`),
    read from the move log as every page reads it; None while no turn is under way."""
    now = Game.objects.get(pk=game.pk)
    turn = stored.rolling_turn(now)
    return None if turn is None else turn.to_json()


def make_game(**kwargs: Any) -> Game:
    """A typed way to build one game through the factory."""
    game: Game = GameFactory.create(**kwargs)
    return game
