"""The card game in the JSON API: a card read from JSON, `{"card": "AH", "value": 11,
"version": 7}`, played from the seat's own hand."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse

from games import kinds, store
from games.api.base import answer, offered, parse
from games.kinds import kind_of
from games.kinds.cards import api_models
from games.models import Game
from games.rules import cards


def play_move(game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
    """201 with the table as the seat sees it (its own hand included)."""
    offered(game, kinds.CARD)
    assert seat is not None  # only a seat's own key plays its cards (`CardKind.host_moves`)
    # The move's own keys are the rules' to judge, in their words (422); `version` is ours.
    move_keys = {k: v for k, v in body.items() if k != "version"}
    new = parse(
        api_models.NewMove, body, judge=lambda: cards.Move.from_dict(move_keys), version=None
    )
    move = cards.Move.from_dict(new.model_dump(exclude={"version"}, exclude_unset=True))
    played = store.play(game.pk, seat, move, version=new.version)
    kind = kind_of(played.game)
    return answer(kind.state_model, kind.api_state(played.game, seat), status=201)
