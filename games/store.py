"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import F, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import rules
from games.cache import announce, recall, remember
from games.models import Cell, Game, Seat, Turn, hash_key, new_key, seat_key
from games.names import name_key
from games.rules.errors import gettext_noop

# A game's length is capped, so that no game (played or imported) grows without bound: a
# long evening is a few hundred turns.
MAX_TURNS = 5_000
TOO_MANY_TURNS = gettext_noop("A game has at most %(most)s turns. Start a rematch to play on.")

# Rows written per INSERT when a whole game is stored at once.
BATCH = 500


class StaleVersionError(Exception):
    """The game changed since the client last looked; nothing was recorded."""


class NotYourTurnError(Exception):
    """A player tried to enter a turn that is not theirs, or the host does not allow it."""


@dataclass(frozen=True)
class StoredRow:
    """A row as stored, with the rules' verdict rebuilt from it."""

    id: int
    number: int
    row: rules.Row


@dataclass(frozen=True)
class Snapshot:
    """A whole game as the rules see it: seats, rows and the position after the last row."""

    game: Game
    names: tuple[str, ...]
    rows: tuple[StoredRow, ...]
    position: rules.Position

    @property
    def rules(self) -> rules.RuleSet:
        return self.position.rules


def create_game(
    name: str, players: Sequence[str], ruleset: rules.RuleSet, *, rematch_of: Game | None = None
) -> tuple[Game, str]:
    """Create a game and return it with its host key, which is never stored in clear."""
    rules.Position.start(ruleset, len(players))  # refuses a wrong number of players
    host_key = new_key()
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            rules_data=ruleset.to_dict(),
            host_key_hash=hash_key(host_key),
            rematch_of=rematch_of,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                position=position,
                name=player,
                name_key=name_key(player),
                key_hash=hash_key(seat_key(host_key, game.pk, position)),
            )
            for position, player in enumerate(players)
        )
    return game, host_key


def create_played_game(
    name: str, players: Sequence[str], ruleset: rules.RuleSet, rows: Sequence[rules.Row]
) -> tuple[Game, str]:
    """Create a game with rows the rules already replayed (an import): a few queries per
    thousand rows, however long the game, in one transaction."""
    if len(rows) > MAX_TURNS:
        raise rules.IllegalTurnError(TOO_MANY_TURNS, most=MAX_TURNS)
    with transaction.atomic():
        game, host_key = create_game(name, players, ruleset)
        Turn.objects.bulk_create(
            (
                Turn(
                    game=game,
                    number=number,
                    roller=row.roller,
                    total=row.turn.total,
                    hunt=row.turn.hunt,
                    target=row.turn.target,
                    heal=row.turn.heal,
                    effect=row.effect.value,
                    victim=row.victim,
                )
                for number, row in enumerate(rows, start=1)
            ),
            batch_size=BATCH,
        )
        turn_ids = dict(Turn.objects.filter(game=game).values_list("number", "id"))
        seat_ids = list(
            Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
        )
        Cell.objects.bulk_create(
            (
                Cell(turn_id=turn_ids[number], seat_id=seat_id, value=value)
                for number, row in enumerate(rows, start=1)
                for seat_id, value in zip(seat_ids, row.cells, strict=True)
            ),
            batch_size=BATCH,
        )
        # As if each row had been recorded one by one.
        Game.objects.filter(pk=game.pk).update(version=F("version") + len(rows))
        game.refresh_from_db()
        announce(game)
    return game, host_key


def load_position(game: Game) -> rules.Position:
    """The position at the game's version: remembered by the process that wrote it, or
    added up by the database in one query."""
    key = ("position", game.pk, game.version)
    found: rules.Position | None = recall(key)
    if found is not None:
        return found
    position, version = _add_up_position(game)
    # Turns may have been written since `game` was read: the position is remembered under
    # the version it was read at, never under an older one.
    remember(("position", game.pk, version), position)
    return position


def _add_up_position(game: Game) -> tuple[rules.Position, int]:
    """The position and the version it belongs to, read in one statement: one statement
    sees one consistent state of the database, however many turns are written meanwhile."""
    last_roller = Turn.objects.filter(game=game).order_by("-number").values("roller")[:1]
    version = Game.objects.filter(pk=game.pk).values("version")[:1]
    seats = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .annotate(
            harm=Coalesce(Sum("cells__value"), 0),
            last_roller=Subquery(last_roller),
            read_version=Subquery(version),
        )
        .values_list("harm", "last_roller", "read_version")
    )
    harm = [value for value, _, _ in seats]
    position = rules.Position.from_cell_sums(game.rules, harm, seats[0][1])
    return position, seats[0][2]


def load_snapshot(game: Game) -> Snapshot:
    """The whole game in two queries: seats, then the turns with their cells."""
    ruleset = game.rules
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    rows = load_rows(game, ruleset, [seat_id for seat_id, _ in seats])
    position = rules.Position.start(ruleset, len(seats))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(game, tuple(name for _, name in seats), tuple(rows), position)


def load_rows(
    game: Game, ruleset: rules.RuleSet, seat_ids: Sequence[int], *, after: int = 0
) -> list[StoredRow]:
    """The rows numbered above `after`, in one query.

    Turns and their cells are read together, in one statement, so that a turn written (or
    undone) while the game is read can never bring cells without their turn or the reverse.
    Every turn has one cell per seat, so every turn is in the answer.
    """
    index = {seat_id: position for position, seat_id in enumerate(seat_ids)}
    found = (
        Cell.objects.filter(turn__game=game, turn__number__gt=after)
        .order_by("turn__number")
        .values_list(
            "turn_id",
            "turn__number",
            "turn__roller",
            "turn__total",
            "turn__hunt",
            "turn__target",
            "turn__heal",
            "turn__effect",
            "turn__victim",
            "seat_id",
            "value",
        )
    )
    turns: dict[int, tuple[Any, ...]] = {}
    cells: dict[int, list[int]] = {}
    for *fields, seat_id, value in found:
        turn_id = cast(int, fields[0])
        if turn_id not in turns:
            turns[turn_id] = tuple(fields)
            cells[turn_id] = [0] * len(seat_ids)
        cells[turn_id][index[seat_id]] = value
    stored = []
    for turn_id, number, roller, total, hunt, target, heal, effect_name, victim in turns.values():
        effect = rules.Effect(effect_name)
        margin = None if effect is rules.Effect.MISSED else total - ruleset.beat_above
        turn = rules.Turn(total, hunt, target, heal)
        row = rules.Row(roller, turn, tuple(cells[turn_id]), effect, victim, margin)
        stored.append(StoredRow(turn_id, number, row))
    return stored


@dataclass(frozen=True)
class Recorded:
    """A stored turn: the game at its new version, the row, and the position after it."""

    game: Game
    row: rules.Row
    position: rules.Position


def record_turn(
    game_id: str,
    turn: rules.Turn,
    *,
    version: int | None = None,
    known: rules.Position | None = None,
    seat: int | None = None,
) -> Recorded:
    """Check a turn with the rules and store the row it writes. Raises `rules.RuleError`,
    `StaleVersionError`, or `Game.DoesNotExist`; on any of them nothing changes.

    `known` is the position at `version`, when the caller has already loaded it: the version
    check under the lock proves it is still current, which saves adding up the game again.
    `seat` is the player entering the turn from their own phone, if it is not the host.
    """
    try:
        with transaction.atomic():
            game = _lock(game_id, version)
            position = known if known is not None and version is not None else load_position(game)
            if seat is not None and (not game.seats_play or position.next_roller != seat):
                raise NotYourTurnError
            row = position.play(turn)
            number = _next_number(game)
            if number > MAX_TURNS:
                raise rules.IllegalTurnError(TOO_MANY_TURNS, most=MAX_TURNS)
            stored = Turn.objects.create(
                game=game,
                number=number,
                roller=row.roller,
                total=turn.total,
                hunt=turn.hunt,
                target=turn.target,
                heal=turn.heal,
                effect=row.effect.value,
                victim=row.victim,
            )
            seat_ids = (
                Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
            )
            Cell.objects.bulk_create(
                Cell(turn=stored, seat_id=seat_id, value=value)
                for seat_id, value in zip(seat_ids, row.cells, strict=True)
            )
            game, after = _bump(game), position.after(row)
        remember(("position", game.pk, game.version), after)
        return Recorded(game, row, after)
    except IntegrityError as error:
        # Another request recorded this turn number first.
        raise StaleVersionError from error


def _next_number(game: Game) -> int:
    last = Turn.objects.filter(game=game).order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


def undo_last_turn(game_id: str, *, version: int | None = None) -> Game:
    """Remove the last row. Raises `rules.IllegalTurnError` when there is none."""
    with transaction.atomic():
        game = _lock(game_id, version)
        last = Turn.objects.filter(game=game).order_by("-number").first()
        if last is None:
            raise rules.IllegalTurnError(gettext_noop("There is no turn to undo."))
        last.delete()
        return _bump(game)


def start_rematch(game: Game, names: Sequence[str]) -> tuple[Game, str]:
    """A new game with the same players and rules. The old game's version goes up, so that
    every phone following it hears of the new one and moves there."""
    with transaction.atomic():
        old = _lock(game.pk, None)
        new_game, host_key = create_game(old.name, names, old.rules, rematch_of=old)
        _bump(old)
    return new_game, host_key


def rematch_of(game: Game) -> str | None:
    """The id of the rematch started from this game, if there is one."""
    return (
        Game.objects.filter(rematch_of=game)
        .order_by("-created_at")
        .values_list("pk", flat=True)
        .first()
    )


def seat_joined(game: Game, position: int) -> None:
    """Note the first time a phone opened a seat's link (the host's page shows it)."""
    Seat.objects.filter(game=game, position=position, joined_at__isnull=True).update(
        joined_at=timezone.now()
    )


def allow_seats_to_play(game_id: str, *, allowed: bool) -> Game:
    """Let players enter their own turns with their seat links, or stop them."""
    with transaction.atomic():
        game = _lock(game_id, None)
        game.seats_play = allowed
        game.save(update_fields=["seats_play"])
        return _bump(game)


def _lock(game_id: str, version: int | None) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if version is not None and version != game.version:
        raise StaleVersionError
    return game


def _bump(game: Game) -> Game:
    game.version = F("version") + 1
    game.updated_at = timezone.now()
    game.save(update_fields=["version", "updated_at"])
    game.refresh_from_db(fields=["version"])
    announce(game)
    return game
