"""The history list: every game with its players, status and winners, in two queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.db.models.functions import Coalesce

from games import rules
from games.models import Cell, Game, Seat


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
        if game.is_cards:
            finished, winners = _card_standing(game, sums)
        else:
            position = rules.Position.from_cell_sums(game.rules, sums)
            finished, winners = position.finished, position.winners
        entries.append(
            HistoryEntry(
                game=game,
                players=names,
                turns=turn_counts.get(game.pk, 0),
                finished=finished,
                winners=tuple(names[seat] for seat in winners),
            )
        )
    return entries


def _card_standing(game: Game, given_up: Sequence[int]) -> tuple[bool, tuple[int, ...]]:
    """Whether a card tournament is over, and who won, from the tokens each seat gave up:
    the last player holding tokens wins; when a single-stock end took the last token of
    everyone still in, those players share the win (one more query, for that rare case)."""
    tokens = game.card_rules.tokens
    holding = tuple(seat for seat, lost in enumerate(given_up) if lost < tokens)
    if len(holding) == 1:
        return True, holding
    if holding:
        return False, ()
    last = Cell.objects.filter(turn__game=game).order_by("-turn__number", "seat__position")
    row = list(last.values_list("seat__position", "value")[: len(given_up)])
    return True, tuple(seat for seat, value in row if value)
