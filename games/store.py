"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import rules
from games.cache import announce, remember, remembered
from games.models import Cell, Game, Seat, Turn, hash_key, new_key, seat_key
from games.rules.errors import gettext_noop


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
                key_hash=hash_key(seat_key(host_key, game.pk, position)),
            )
            for position, player in enumerate(players)
        )
    return game, host_key


def load_position(game: Game) -> rules.Position:
    """The position at the game's version: remembered by the process that wrote it, or
    added up by the database in two queries."""
    return remembered(("position", game.pk, game.version), lambda: _add_up_position(game))


def _add_up_position(game: Game) -> rules.Position:
    harm = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .annotate(harm=Coalesce(Sum("cells__value"), 0))
        .values_list("harm", flat=True)
    )
    last_roller = (
        Turn.objects.filter(game=game).order_by("-number").values_list("roller", flat=True).first()
    )
    return rules.Position.from_cell_sums(game.rules, harm, last_roller)


def load_snapshot(game: Game) -> Snapshot:
    """The whole game in three queries: seats, turns and cells."""
    ruleset = game.rules
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    rows = load_rows(game, ruleset, [seat_id for seat_id, _ in seats])
    position = rules.Position.start(ruleset, len(seats))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(game, tuple(name for _, name in seats), tuple(rows), position)


def up_to(snapshot: Snapshot, count: int) -> Snapshot:
    """The game as it stood after its first `count` rows: a step of a replay."""
    rows = snapshot.rows[:count]
    position = rules.Position.start(snapshot.rules, len(snapshot.names))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(snapshot.game, snapshot.names, rows, position)


def load_rows(
    game: Game, ruleset: rules.RuleSet, seat_ids: Sequence[int], *, after: int = 0
) -> list[StoredRow]:
    """The rows numbered above `after`, in two queries."""
    index = {seat_id: position for position, seat_id in enumerate(seat_ids)}
    turns = list(
        Turn.objects.filter(game=game, number__gt=after)
        .order_by("number")
        .values_list(
            "id", "number", "roller", "total", "hunt", "target", "heal", "effect", "victim"
        )
    )
    cells: dict[int, list[int]] = {turn[0]: [0] * len(seat_ids) for turn in turns}
    if turns:
        for turn_id, seat_id, value in Cell.objects.filter(
            turn__game=game, turn__number__gt=after
        ).values_list("turn_id", "seat_id", "value"):
            cells[turn_id][index[seat_id]] = value
    stored = []
    for turn_id, number, roller, total, hunt, target, heal, effect_name, victim in turns:
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
            number = (
                Turn.objects.filter(game=game)
                .order_by("-number")
                .values_list("number", flat=True)
                .first()
                or 0
            ) + 1
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
            after = position.after(row)
            game.finished, game.turn_count = after.finished, number
            game = _bump(game, "finished", "turn_count")
        remember(("position", game.pk, game.version), after)
        return Recorded(game, row, after)
    except IntegrityError as error:
        # Another request recorded this turn number first.
        raise StaleVersionError from error


def undo_last_turn(game_id: str, *, version: int | None = None) -> Game:
    """Remove the last row. Raises `rules.IllegalTurnError` when there is none."""
    with transaction.atomic():
        game = _lock(game_id, version)
        last = Turn.objects.filter(game=game).order_by("-number").first()
        if last is None:
            raise rules.IllegalTurnError(gettext_noop("There is no turn to undo."))
        last.delete()
        # A turn is only ever played in a game still going: without it, the game goes on.
        game.finished, game.turn_count = False, last.number - 1
        return _bump(game, "finished", "turn_count")


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


def rename_game(game_id: str, name: str) -> Game:
    with transaction.atomic():
        game = _lock(game_id, None)
        game.name = name
        return _bump(game, "name")


# How long the host has to take back a deletion.
RESTORE_MINUTES = 10


def delete_game(game_id: str) -> Game:
    """Take the game out of every list and page; `restore_game` brings it back for a while."""
    with transaction.atomic():
        game = _lock(game_id, None)
        game.deleted_at = timezone.now()
        return _bump(game, "deleted_at")


def restore_game(game_id: str) -> Game:
    """Bring back a game deleted less than RESTORE_MINUTES ago. Raises `Game.DoesNotExist`."""
    since = timezone.now() - timedelta(minutes=RESTORE_MINUTES)
    with transaction.atomic():
        game = Game.everything.select_for_update().get(pk=game_id, deleted_at__gte=since)
        game.deleted_at = None
        return _bump(game, "deleted_at")


def _lock(game_id: str, version: int | None) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if version is not None and version != game.version:
        raise StaleVersionError
    return game


def _bump(game: Game, *fields: str) -> Game:
    game.version = F("version") + 1
    game.updated_at = timezone.now()
    game.save(update_fields=["version", "updated_at", *fields])
    game.refresh_from_db(fields=["version"])
    announce(game)
    return game
