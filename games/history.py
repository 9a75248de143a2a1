"""The history: every game played, searched and filtered, a page at a time.

Each page costs the same few queries whatever the number of games: the page of games, its
count, and the seats of the games on it (with their cell sums, for the winners)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.db.models import Exists, OuterRef, QuerySet, Sum
from django.db.models.functions import Coalesce, Lower, Trim
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.cache import recall, remember
from games.kinds import KINDS, kind_of
from games.models import Game, Seat


def game_choices() -> list[tuple[str, Any]]:
    """The games a history can be filtered by (`Game.preset`): every kind's, as the kind
    names them."""
    return [preset for kind in KINDS.values() for preset in kind.presets]


@dataclass(frozen=True)
class HistoryEntry:
    game: Game
    players: tuple[str, ...]
    turns: int
    finished: bool
    winners: tuple[str, ...]


class HistoryFilter(forms.Form):
    player = forms.CharField(label=_("Player"), required=False, max_length=40)
    kind = forms.ChoiceField(
        label=_("Game"), required=False, choices=lambda: [("", _("All games")), *game_choices()]
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=(("", _("Any")), ("finished", _("Finished")), ("playing", _("In play"))),
    )
    since = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def games(self) -> QuerySet[Game]:
        """The games played that match, newest first. An invalid field is left out."""
        games = played_games()
        data: dict[str, Any] = self.cleaned_data if self.is_valid() else {}
        if player := (data.get("player") or "").strip():
            games = games.filter(
                Exists(
                    Seat.objects.alias(key=Lower(Trim("name"))).filter(
                        game=OuterRef("pk"), key__contains=player.lower()
                    )
                )
            )
        if kind := data.get("kind"):
            games = games.filter(rules_data__preset=kind)
        if status := data.get("status"):
            games = games.filter(finished=status == "finished")
        if since := data.get("since"):
            games = games.filter(created_at__gte=_start_of(since))
        if until := data.get("until"):
            games = games.filter(created_at__lt=_start_of(until, days=1))
        return games.order_by("-created_at", "pk")

    @property
    def active(self) -> bool:
        return self.is_valid() and any(self.cleaned_data.values())


def played_games() -> QuerySet[Game]:
    """A game nobody has played a turn in is not a game played: it stays out of the history."""
    return Game.objects.filter(turn_count__gt=0)


def _start_of(day: date, days: int = 0) -> datetime:
    start = datetime.combine(day, time.min) + timedelta(days=days)
    return timezone.make_aware(start) if timezone.is_naive(start) else start


def history_entries(games: Sequence[Game]) -> list[HistoryEntry]:
    """Each game's line in the history. A line is remembered per game and version, so a page
    adds up the cells only of the games that changed since it was last shown."""
    known = {game.pk: recall(("history-entry", game.pk, game.version)) for game in games}
    missing = [game for game in games if known[game.pk] is None]
    for entry in _add_up(missing):
        remember(("history-entry", entry.game.pk, entry.game.version), entry)
        known[entry.game.pk] = entry
    return [replace(known[game.pk], game=game) for game in games]


def _add_up(games: Sequence[Game]) -> list[HistoryEntry]:
    if not games:
        return []
    seats = (
        Seat.objects.filter(game__in=[game.pk for game in games])
        .order_by("game_id", "position")
        .annotate(harm=Coalesce(Sum("cells__value"), 0))
        .values_list("game_id", "name", "harm")
    )
    by_game: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for game_id, name, harm in seats:
        by_game[game_id].append((name, harm))
    entries = []
    for game in games:
        names = tuple(name for name, _ in by_game[game.pk])
        sums = [harm for _, harm in by_game[game.pk]]
        standing = kind_of(game).standing(game, sums)
        finished, winners = standing.finished, standing.winners
        entries.append(
            HistoryEntry(
                game=game,
                players=names,
                turns=game.turn_count,
                finished=finished,
                winners=tuple(names[seat] for seat in winners),
            )
        )
    return entries
