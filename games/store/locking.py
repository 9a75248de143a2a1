"""What every change to a game does around its writes: lock the game's row, check the version
the client last saw, and bump the version, which tells every phone following the game.

Every writer of the store runs these under its own transaction, so two phones can never
record one roll twice."""

from __future__ import annotations

from django.utils import timezone

from games.cache import announce
from games.models import Game
from games.store.errors import StaleVersionError


def lock_game(game_id: str, version: int | None) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if version is not None and version != game.version:
        raise StaleVersionError
    return game


def bump(game: Game, *changed: str) -> Game:
    """The game at its next version. `game` is the row `lock_game` (or another lock in the
    caller's transaction) read: nobody else can have moved its version since, so the new one
    is known without reading it back."""
    game.version += 1
    game.updated_at = timezone.now()
    game.save(update_fields=["version", "updated_at", *changed])
    announce(game)
    return game
