"""Players across games: the same name at any table, ignoring case and the spaces around it.

A player's page adds up every game they sat in, in a fixed number of queries however many
games there are: their seats with the games, every seat of those games (for the winners),
and three sums over their turns and cells."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from games.cache import remembered
from games.kinds import kind_of, row_labels
from games.models import Cell, Game, Seat, Turn
from games.names import MAX_NAME_LENGTH, clean_text, name_key


def seats_named(key: str) -> QuerySet[Seat]:
    """The seats whose name compares equal to `key` (`games.names.name_key`), the same
    comparison that keeps names unique within a game and that merging spellings uses."""
    return Seat.objects.filter(name_key=key)


@dataclass
class KindStats:
    """One player's numbers in one kind of game."""

    kind: str
    played: int = 0
    finished: int = 0  # games played to the end: the ones that count for the win rate
    won: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    turns: int = 0
    beat: int = 0  # turns whose total beat the mark

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.won, self.finished) if self.finished else None

    @property
    def success_rate(self) -> Fraction | None:
        return Fraction(self.beat, self.turns) if self.turns else None


COUNTS = ("played", "finished", "won", "damage_dealt", "damage_taken", "turns", "beat")


@dataclass(frozen=True)
class Result:
    game: Game
    won: bool


@dataclass
class PlayerStats:
    name: str  # as written in their most recent game
    kinds: dict[str, KindStats] = field(default_factory=dict)
    results: list[Result] = field(default_factory=list)  # oldest first
    longest: Game | None = None

    @property
    def played(self) -> int:
        return sum(kind.played for kind in self.kinds.values())

    @property
    def won(self) -> int:
        return sum(kind.won for kind in self.kinds.values())

    @property
    def all(self) -> KindStats:
        total = KindStats("all")
        for kind in self.kinds.values():
            for name in (
                "played",
                "finished",
                "won",
                "damage_dealt",
                "damage_taken",
                "turns",
                "beat",
            ):
                setattr(total, name, getattr(total, name) + getattr(kind, name))
        return total

    def win_rate_over_time(self) -> list[tuple[datetime, Fraction]]:
        """The share of finished games won after each finished game, oldest first."""
        points: list[tuple[datetime, Fraction]] = []
        won = count = 0
        for result in self.results:
            if not result.game.finished:
                continue
            count += 1
            won += result.won
            points.append((result.game.created_at, Fraction(won, count)))
        return points


def player_stats(name: str) -> PlayerStats | None:
    """Everything the player's page shows, or None if nobody of that name played a turn."""
    key = name_key(name.strip())
    if not key:
        return None
    seats = list(
        _played_seats(key)
        .order_by("game__created_at", "game_id")
        .values_list("game_id", "game__version", "position", "name")
    )
    if not seats:
        return None
    # The numbers change only when one of their games does: remembered per set of versions.
    stamp = tuple((game_id, version) for game_id, version, _, _ in seats)
    stats: PlayerStats = remembered(("player", key, stamp), lambda: _add_up(key, seats))
    return stats


def _played_seats(key: str) -> QuerySet[Seat]:
    return seats_named(key).filter(game__deleted_at__isnull=True, game__turn_count__gt=0)


def _add_up(key: str, seats: list[tuple[str, int, int, str]]) -> PlayerStats:
    # Their games are named by a subquery rather than a list of ids: thousands of games
    # would otherwise be thousands of parameters in every statement.
    played = _played_seats(key)
    in_played = played.values("game_id")
    by_id = {game.pk: game for game in Game.objects.filter(pk__in=in_played)}
    games = {game_id: by_id[game_id] for game_id, _, _, _ in seats}
    mine = {game_id: position for game_id, _, position, _ in seats}

    sums: dict[str, list[int]] = defaultdict(list)
    for game_id, harm in (
        Seat.objects.filter(game__in=in_played)
        .order_by("game_id", "position")
        .annotate(harm=Coalesce(Sum("cells__value"), 0))
        .values_list("game_id", "harm")
    ):
        sums[game_id].append(harm)

    beat_labels, hit_labels = row_labels()
    rolled_by_me = Exists(
        seats_named(key).filter(game=OuterRef("game"), position=OuterRef("roller"))
    )
    turns = {
        game_id: (rolled, beat)
        for game_id, rolled, beat in Turn.objects.filter(rolled_by_me, game__in=in_played)
        .values("game_id")
        .annotate(rolled=Count("id"), beat=Count("id", filter=Q(effect__in=beat_labels)))
        .values_list("game_id", "rolled", "beat")
    }
    # A hit writes its damage in the victim's column, never the roller's own.
    hits = Cell.objects.filter(turn__effect__in=hit_labels).exclude(
        seat__position=F("turn__roller")
    )
    dealt = dict(
        hits.filter(
            Exists(
                seats_named(key).filter(
                    game=OuterRef("turn__game"), position=OuterRef("turn__roller")
                )
            ),
            turn__game__in=in_played,
        )
        .values("turn__game_id")
        .annotate(total=Sum("value"))
        .values_list("turn__game_id", "total")
    )
    taken = dict(
        hits.filter(seat__in=played.values("pk"))
        .values("seat__game_id")
        .annotate(total=Sum("value"))
        .values_list("seat__game_id", "total")
    )

    stats = PlayerStats(name=seats[-1][3].strip())
    for game_id, game in games.items():
        standing = kind_of(game).standing(game, sums[game_id])
        finished, winners = standing.finished, standing.winners
        won = finished and mine[game_id] in winners
        kind = stats.kinds.setdefault(game.preset, KindStats(game.preset))
        kind.played += 1
        kind.finished += finished
        kind.won += won
        kind.turns += turns.get(game_id, (0, 0))[0]
        kind.beat += turns.get(game_id, (0, 0))[1]
        kind.damage_dealt += dealt.get(game_id) or 0
        kind.damage_taken += taken.get(game_id) or 0
        stats.results.append(Result(game, won))
        if stats.longest is None or game.turn_count > stats.longest.turn_count:
            stats.longest = game
    return stats


class MergeRefused(Exception):
    """Two spellings that cannot be merged; the message is a sentence for the player."""


@dataclass(frozen=True)
class MergePlan:
    """What merging `other` into `name` would do, shown before anyone confirms it."""

    name: str  # the player whose page it is, as their latest game writes it
    other: str  # the other spelling, as typed
    changes: int  # games whose seat called `other` would take `name`
    skipped: tuple[Game, ...]  # games with both spellings: they stay as they are


def merge_plan(name: str, raw_other: str) -> MergePlan:
    """Check a merge of `raw_other` into `name` and say what it would do, or raise
    `MergeRefused` with the reason. Reads, never writes: `store.merge_names` does that."""
    try:
        other = clean_text(raw_other, most=MAX_NAME_LENGTH)
    except ValidationError as error:
        raise MergeRefused(error.messages[0]) from None
    if not other:
        raise MergeRefused(_("Write the other spelling of the name."))
    key, other_key = name_key(name), name_key(other)
    if key == other_key:
        raise MergeRefused(
            _("“%(other)s” is already how %(name)s is written: there is nothing to merge.")
            % {"other": other, "name": name}
        )
    theirs = Seat.objects.filter(name_key=other_key, game__deleted_at__isnull=True)
    if not theirs.exists():
        raise MergeRefused(_("Nobody called “%(other)s” has played here.") % {"other": other})
    changes = theirs.exclude(game__seats__name_key=key).count()
    skipped = tuple(
        Game.objects.filter(seats__name_key=other_key)
        .filter(seats__name_key=key)
        .order_by("-created_at", "pk")
    )
    if not changes:
        raise MergeRefused(
            _(
                "“%(other)s” only played in games where %(name)s played too. A game cannot"
                " have two players of one name, so those games stay as they are."
            )
            % {"other": other, "name": name}
        )
    return MergePlan(name, other, changes, skipped)
