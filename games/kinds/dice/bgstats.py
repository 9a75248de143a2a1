"""“Log in BG Stats”: a finished game as a link in the push format BG Stats documents
(`bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`), which opens the
app with the play filled in for the player to check and save."""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.utils import timezone

from games.kinds.dice.charts import dice_lines
from games.kinds.dice.stored import Snapshot

LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
GAME_NAMES = {"thirty": "Thirty (dice)", "30s": "30s (dice)"}


def player_key(name: str) -> str:
    """A player's id for BG Stats: "  Anna " and "anna" are one player."""
    return name.strip().lower()


def play_data(snapshot: Snapshot, ended: datetime) -> dict[str, Any]:
    """The play as BG Stats reads it: the game, when and how long, and each player's final
    points, rank and whether they won."""
    game = snapshot.game
    ruleset = snapshot.rules
    position = snapshot.position
    lines = dice_lines(snapshot)
    highest_wins = not ruleset.counts_up
    winners = set(position.winners)

    def standing(seat: int) -> tuple[int, int, int, int]:
        line = lines[seat]
        lasted = max(index for index, value in enumerate(line.values) if value is not None)
        points = position.points[seat]
        return (
            seat in winners,
            not position.is_out(seat),
            lasted if position.is_out(seat) else 0,
            points if highest_wins else -points,
        )

    standings = [standing(seat) for seat in range(len(snapshot.names))]
    started = timezone.localtime(game.created_at)
    return {
        "sourceName": "Thirty",
        "sourcePlayId": game.pk,
        "game": {
            "name": GAME_NAMES.get(game.preset, game.preset),
            "sourceGameId": game.preset,
            "highestWins": highest_wins,
            "noPoints": False,
        },
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, math.ceil((ended - game.created_at).total_seconds() / 60)),
        "comments": game.title,  # a made-up name in the language of whoever logs the play
        "players": [
            {
                "name": name,
                "sourcePlayerId": player_key(name),
                "score": str(position.points[seat]),
                "winner": seat in winners,
                "rank": 1 + sum(other > standings[seat] for other in standings),
                "startPlayer": seat == 0,
            }
            for seat, name in enumerate(snapshot.names)
        ],
    }


def link(data: dict[str, Any]) -> str:
    return LINK + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
