"""The history list: every game with its players, status and winners, in two queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.db.models.functions import Coalesce

from games import rules
from games.models import Game, Seat


@dataclass(frozen=True)
class HistoryEntry:
    game: Game
    players: tuple[str, ...]
    turns: int
    finished: bool
    winners: tuple[str, ...]


def history_entries(games: Sequence[Game]) -> list[HistoryEntry]:
    seats = (
        Seat.objects.filter(game__in=games)
        .order_by("game_id", "position")
        .annotate(harm=Coalesce(Sum("cells__value"), 0))
        .values_list("game_id", "name", "harm")
    )
    by_game: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for game_id, name, harm in seats:
        by_game[game_id].append((name, harm))
    turn_counts = dict(
        Game.objects.filter(pk__in=[g.pk for g in games])
        .annotate(n=Count("turns"))
        .values_list("pk", "n")
    )
    entries = []
    for game in games:
        names = tuple(name for name, _ in by_game[game.pk])
        sums = [harm for _, harm in by_game[game.pk]]
        position = rules.Position.from_cell_sums(game.rules, sums)
        entries.append(
            HistoryEntry(
                game=game,
                players=names,
                turns=turn_counts.get(game.pk, 0),
                finished=position.finished,
                winners=tuple(names[seat] for seat in position.winners),
            )
        )
    return entries
