"""The card game's state as the API shows it."""

from __future__ import annotations

from typing import Any

from games import store
from games.kinds.cards import tournaments
from games.models import Game


def card_state(game: Game, seat: int | None) -> dict[str, Any]:
    """A card game as `seat` may see it (None: any watcher): the engine's view, with seats
    numbered from 1. Only `view(seat)` is ever shown, so no hand but the seat's own."""
    view = tournaments.load_tournament(game).view(seat)
    data = view.to_dict(with_log=False)
    # Read now, not per version: the API answers a move from inside its change.
    for entry, place in zip(data["seats"], store.read_seats(game), strict=True):
        entry["seat"] += 1
        entry |= {"name": place.name, "computer": place.computer, "claimed": place.claimed}
    deal = data["deal"]
    deal["to_move"] = None if deal["to_move"] is None else deal["to_move"] + 1
    for record in data["deals"]:
        record["losers"] = [loser + 1 for loser in record["losers"]]
    data["winners"] = [winner + 1 for winner in data["winners"]]
    return {"id": game.pk, "name": game.name, "version": game.version} | data
