"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.
"""

from __future__ import annotations

import hmac
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import claims, rules
from games.cache import announce, recall, remember
from games.models import (
    Cell,
    Game,
    Move,
    Seat,
    Secret,
    TablePart,
    TableRoll,
    Turn,
    hash_key,
    new_key,
    seat_key,
)
from games.names import name_key
from games.rules import cards, chance
from games.rules import dice as dice_rules
from games.rules.dice import bot as dice_bot
from games.rules.dice import rolled as rolled_dice
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


class TurnInProgressError(Exception):
    """A turn typed in, or an undo, while a turn with app-rolled dice is under way."""


@dataclass(frozen=True)
class StoredRow:
    """A row as stored, with the rules' verdict rebuilt from it."""

    id: int
    number: int
    row: dice_rules.Row
    # The audit trail of a turn the app rolled (`RolledTurn.to_json`); None when typed in.
    rolls: list[dict[str, Any]] | None = None
    hunt_rolls: list[dict[str, Any]] | None = None
    seed_index: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """A whole game as the rules see it: seats, rows and the position after the last row."""

    game: Game
    names: tuple[str, ...]
    rows: tuple[StoredRow, ...]
    position: dice_rules.Position

    @property
    def rules(self) -> dice_rules.RuleSet:
        return self.position.rules


def create_game(
    name: str,
    players: Sequence[str],
    ruleset: dice_rules.RuleSet,
    *,
    rematch_of: Game | None = None,
    computers: Iterable[int] = (),
    table_dice: bool = False,
) -> tuple[Game, str]:
    """Create a game and return it with its host key, which is never stored in clear.

    Every game gets a secret seed for the dice the app rolls; its SHA-256 is shown from the
    start and the seed once the game is over. `computers` are the seats the computer plays:
    if the first is one, it has played by the time this returns."""
    dice_rules.Position.start(ruleset, len(players))  # refuses a wrong number of players
    computer_seats = frozenset(computers)
    host_key = new_key()
    seed = chance.new_seed()
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            rules_data=ruleset.to_dict(),
            host_key_hash=hash_key(host_key),
            rematch_of=rematch_of,
            seed_sha256=chance.seed_sha256(seed),
            table_dice=table_dice,
        )
        Secret.objects.create(game=game, seed=seed)
        Seat.objects.bulk_create(
            Seat(
                game=game,
                position=position,
                name=player,
                name_key=name_key(player),
                computer=position in computer_seats,
                key_hash=""
                if position in computer_seats
                else hash_key(seat_key(host_key, game.pk, position)),
            )
            for position, player in enumerate(players)
        )
        if computer_seats:
            position = dice_rules.Position.start(ruleset, len(players))
            if _computers_roll(game, position, computer_seats, seed) is not None:
                game = _bump(game, "last_roller", "finished", "turn_count")
    return game, host_key


def create_played_game(
    name: str, players: Sequence[str], ruleset: dice_rules.RuleSet, rows: Sequence[dice_rules.Row]
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
        sums = [sum(column) for column in zip(*(row.cells for row in rows), strict=True)]
        for seat_id, total in zip(seat_ids, sums or [0] * len(seat_ids), strict=True):
            if total:
                Seat.objects.filter(pk=seat_id).update(cell_sum=total)
        last_roller = rows[-1].roller if rows else None
        finished = dice_rules.Position.from_cell_sums(ruleset, sums or [0] * len(seat_ids)).finished
        Game.objects.filter(pk=game.pk).update(
            version=F("version") + len(rows),
            last_roller=last_roller,
            turn_count=len(rows),
            finished=finished,
        )
        game.refresh_from_db()
        announce(game)
    return game, host_key


def load_position(game: Game) -> dice_rules.Position:
    """The position at the game's version: remembered by the process that wrote it, or
    added up by the database in one query."""
    key = ("position", game.pk, game.version)
    found: dice_rules.Position | None = recall(key)
    if found is not None:
        return found
    position, version = _add_up_position(game)
    # Turns may have been written since `game` was read: the position is remembered under
    # the version it was read at, never under an older one.
    remember(("position", game.pk, version), position)
    return position


def _add_up_position(game: Game) -> tuple[dice_rules.Position, int]:
    """The seats' running sums, the last roller and the version they belong to, in one
    statement (one consistent state of the database, however many turns are written
    meanwhile): a handful of rows whatever the length of the game."""
    rows = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("cell_sum", "game__last_roller", "game__version")
    )
    last_roller, version = rows[0][1], rows[0][2]
    sums = [total for total, _, _ in rows]
    return dice_rules.Position.from_cell_sums(game.rules, sums, last_roller), version


def cell_sums(game: Game) -> list[int]:
    """Each seat's cells added up from the rows themselves (what `Seat.cell_sum` keeps)."""
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .annotate(total=Coalesce(Sum("cells__value"), 0))
        .values_list("total", flat=True)
    )


def load_snapshot(game: Game) -> Snapshot:
    """The whole game in two queries: seats, then the turns with their cells."""
    ruleset = game.rules
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    rows = load_rows(game, ruleset, [seat_id for seat_id, _ in seats])
    position = dice_rules.Position.start(ruleset, len(seats))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(game, tuple(name for _, name in seats), tuple(rows), position)


def up_to(snapshot: Snapshot, count: int) -> Snapshot:
    """The game as it stood after its first `count` rows: a step of a replay."""
    rows = snapshot.rows[:count]
    position = dice_rules.Position.start(snapshot.rules, len(snapshot.names))
    for stored in rows:
        position = position.after(stored.row)
    return Snapshot(snapshot.game, snapshot.names, rows, position)


def load_rows(
    game: Game, ruleset: dice_rules.RuleSet, seat_ids: Sequence[int], *, after: int = 0
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
            "turn__rolls",
            "turn__hunt_rolls",
            "turn__seed_index",
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
    for data in turns.values():
        turn_id, number, roller, total, hunt, target, heal, effect_name, victim = data[:9]
        rolls, hunts, seed_index = data[9:]
        effect = dice_rules.Effect(effect_name)
        margin = None if effect is dice_rules.Effect.MISSED else total - ruleset.beat_above
        turn = dice_rules.Turn(total, hunt, target, heal)
        row = dice_rules.Row(roller, turn, tuple(cells[turn_id]), effect, victim, margin)
        stored.append(StoredRow(turn_id, number, row, rolls, hunts, seed_index))
    return stored


def load_cells(game: Game) -> tuple[tuple[str, ...], list[tuple[int, tuple[int, ...]]]]:
    """The sheet as every kind of game writes it: the seats' names, and each row's number
    and cells in seat order (a dice turn's damage or points, a card deal's tokens given up)."""
    seats = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "name"))
    index = {seat_id: position for position, (seat_id, _) in enumerate(seats)}
    rows: dict[int, list[int]] = {}
    found = Cell.objects.filter(turn__game=game).order_by("turn__number")
    for number, seat_id, value in found.values_list("turn__number", "seat_id", "value"):
        rows.setdefault(number, [0] * len(seats))[index[seat_id]] = value
    return tuple(name for _, name in seats), [(n, tuple(c)) for n, c in rows.items()]


@dataclass(frozen=True)
class Recorded:
    """A stored turn: the game at its new version, the row, and the position after it."""

    game: Game
    row: dice_rules.Row
    position: dice_rules.Position


def record_turn(
    game_id: str,
    turn: dice_rules.Turn,
    *,
    version: int | None = None,
    known: dice_rules.Position | None = None,
    seat: int | None = None,
    part: str | None = None,
) -> Recorded:
    """Check a turn with the rules and store the row it writes. Raises `rules.RuleError`,
    `StaleVersionError`, `NotYourTurnError`, `TurnInProgressError` or `Game.DoesNotExist`; on
    any of them nothing changes.

    `known` is the position at `version`, when the caller has already loaded it: the version
    check under the lock proves it is still current, which saves adding up the game again.
    `seat` is the player entering the turn from their own phone, if it is not the host.
    """
    try:
        with transaction.atomic():
            game = _lock(game_id, version)
            if game.rolling is not None:
                raise TurnInProgressError
            position = known if known is not None and version is not None else load_position(game)
            if seat is not None and (not game.seats_play or position.next_roller != seat):
                raise NotYourTurnError
            row, after = _write_row(game, position, turn)
            dice = partial(_chance, game, seat, part, version, required=False)
            after = _computers_roll(game, after, dice=dice) or after
            game = _bump(game, "last_roller", "finished", "turn_count")
        remember(("position", game.pk, game.version), after)
        return Recorded(game, row, after)
    except IntegrityError as error:
        # Another request recorded this turn number first.
        raise StaleVersionError from error


def _write_row(
    game: Game,
    position: dice_rules.Position,
    turn: dice_rules.Turn,
    rolled: rolled_dice.RolledTurn | None = None,
) -> tuple[dice_rules.Row, dice_rules.Position]:
    """Judge a turn and write its row, its cells and the running sums, under the caller's
    lock; `rolled` is the app-rolled turn it came from, whose rolls are kept as its audit
    trail. The caller bumps the version."""
    row = position.play(turn)
    number = _next_number(game)
    if number > MAX_TURNS:
        raise rules.IllegalTurnError(TOO_MANY_TURNS, most=MAX_TURNS)
    audit = rolled.to_json() if rolled is not None else {}
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
        rolls=audit.get("rolls"),
        hunt_rolls=audit.get("hunt_rolls"),
        # The seed in use is the one after every seed shown earlier (`_fresh_seed`).
        seed_index=len(game.earlier_seeds) if rolled is not None else None,
    )
    seat_ids = Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
    written = list(zip(seat_ids, row.cells, strict=True))
    Cell.objects.bulk_create(
        Cell(turn=stored, seat_id=seat_id, value=value) for seat_id, value in written
    )
    _add_to_sums(written)
    after = position.after(row)
    game.last_roller = row.roller
    game.finished, game.turn_count = after.finished, number
    return row, after


def _next_number(game: Game) -> int:
    last = Turn.objects.filter(game=game).order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


# -- dice the app rolls ----------------------------------------------------------------------


def roll(
    game_id: str,
    action: rolled_dice.Action,
    *,
    version: int | None = None,
    seat: int | None = None,
    part: str | None = None,
) -> Recorded | Game:
    """One step of a turn with app-rolled dice (see `games.rules.dice.rolled`): the server rolls
    from the game's secret seed, mixed, where the table makes the dice, with the `part` of the
    phone asking (the host's when `seat` is None). Answers `Recorded` when the step completed
    the turn (and any computer seats have played after it), else the game with its turn in
    progress. Raises like `record_turn`; a refused step changes nothing."""
    try:
        with transaction.atomic():
            game = _lock(game_id, version)
            position = load_position(game)
            if seat is not None and (not game.seats_play or position.next_roller != seat):
                raise NotYourTurnError
            turn = rolled_dice.RolledTurn.from_json(position, game.rolling or {})
            dice = _chance(game, seat, part, version, required=True)
            turn = rolled_dice.act(turn, action, dice.roller(game.turn_count + 1))
            if turn.ask() is not None:
                game.rolling = turn.to_json()
                return _bump(game, "rolling")
            game.rolling = None
            row, after = _write_row(game, position, turn.turn(), turn)
            after = _computers_roll(game, after, dice=lambda: dice) or after
            game = _bump(game, "rolling", "last_roller", "finished", "turn_count")
        remember(("position", game.pk, game.version), after)
        return Recorded(game, row, after)
    except IntegrityError as error:
        raise StaleVersionError from error


@dataclass(frozen=True)
class Chance:
    """Where the dice of a request come from: the game's secret seed and, in a game whose dice
    the whole table makes, the part of the phone that asked (`games.rules.chance`). An empty
    part is the server's seed alone: a computer's turn that no phone's request led to."""

    game: Game
    seed: str = ""  # read when the first die is rolled, unless the caller has it already
    part: str = ""
    seat: int | None = None  # whose part: None for the host's phone
    label: str = ""

    def roller(self, number: int) -> Callable[[int, int], tuple[int, ...]]:
        """The dice of turn `number`, roll by roll; at a table's dice, each roll is logged with
        the part that made it."""
        seed = self.seed or _dice_seed(self.game)
        if not self.game.table_dice:
            return partial(_seeded, seed, number)

        def roll(step: int, count: int) -> tuple[int, ...]:
            TableRoll.objects.create(
                game=self.game,
                number=number,
                step=step,
                seat=self.seat,
                label=self.label,
                part=self.part,
            )
            return rolled_dice.table_dice(
                bytes.fromhex(seed), bytes.fromhex(self.part), number, step, count
            )

        return roll


NO_PART = gettext_noop(
    "This game's dice are made by the whole table, and this phone's part did not come with the"
    " roll. Reload the page and roll again."
)
NOT_AT_TABLE = gettext_noop(
    "This phone has not joined the table's dice: reload the page, which joins it, and roll again."
)


def _chance(
    game: Game, seat: int | None, part: str | None, version: int | None, *, required: bool
) -> Chance:
    """The dice of a request by the host (`seat` None) or a seat. At a table's dice, a part is
    required for a person's roll (`required`); a request without one leaves the computers that
    follow it the server's seed alone."""
    if not game.table_dice:
        return Chance(game)
    if part is None or not chance.is_digest(part) or version is None:
        if required:
            raise rules.IllegalTurnError(NO_PART)
        return Chance(game)
    if not TablePart.objects.filter(game=game, seat=seat).exists():
        if required:
            raise rules.IllegalTurnError(NOT_AT_TABLE)
        return Chance(game)
    return Chance(game, part=part, seat=seat, label=f"v:{version}")


def rolling_turn(game: Game, position: dice_rules.Position) -> rolled_dice.RolledTurn | None:
    """The turn in progress with app-rolled dice, if there is one."""
    if game.rolling is None:
        return None
    return rolled_dice.RolledTurn.from_json(position, game.rolling)


def revealed_seed(game: Game, *, finished: bool | None = None) -> str | None:
    """The secret seed, which anyone may see once the game is over (`finished`, when the
    caller's position knows better than the row it holds)."""
    if not (game.finished if finished is None else finished):
        return None
    return Secret.objects.filter(game=game).values_list("seed", flat=True).first()


def _seeded(seed: str, number: int, step: int, count: int) -> tuple[int, ...]:
    return rolled_dice.seeded_dice(bytes.fromhex(seed), number, step, count)


def _dice_seed(game: Game) -> str:
    """The game's secret seed; a game created before the app rolled dice gets one now, with
    its SHA-256 shown from this moment on."""
    found = Secret.objects.filter(game=game).values_list("seed", flat=True).first()
    if found is not None:
        return found
    seed = chance.new_seed()
    Secret.objects.create(game=game, seed=seed)
    game.seed_sha256 = chance.seed_sha256(seed)
    game.save(update_fields=["seed_sha256"])
    return seed


def _computers_roll(
    game: Game,
    position: dice_rules.Position,
    computers: frozenset[int] | None = None,
    seed: str | None = None,
    dice: Callable[[], Chance] | None = None,
) -> dice_rules.Position | None:
    """Play every computer seat whose turn it is, each a whole turn of app-rolled dice
    stored with its audit trail, under the caller's lock. The position after them, or None
    when no computer played. `dice` gives where the dice come from, asked only when a
    computer rolls: in a game whose dice the table makes, the part of the phone whose request
    the computers follow."""
    if computers is None:
        computers = frozenset(
            Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
        )
    if not computers:
        return None
    played = None
    source: Chance | None = None
    while (roller := position.next_roller) is not None and roller in computers:
        number = game.turn_count + 1
        if number > MAX_TURNS:
            break  # a game of computers alone stops at the cap, like any other
        turn = rolled_dice.RolledTurn(position)
        turn_plan = dice_bot.plan(position)
        if source is None:
            source = dice() if dice is not None else Chance(game, seed or "")
        roller_of_turn = source.roller(number)
        while turn.ask() is not None:
            turn = rolled_dice.act(turn, dice_bot.rolled_action(turn, turn_plan), roller_of_turn)
        _, position = _write_row(game, position, turn.turn(), turn)
        played = position
    return played


# The undo policy's refusals (see `undo_last_turn`).
TABLE_DICE_SHOWN = gettext_noop(
    "The table made this game's dice, and every phone's secret was shown at the end: the game"
    " cannot be reopened. Start a rematch to play on."
)
ROLLED_TURN_STAYS = gettext_noop(
    "The app rolled this turn, and everyone saw its dice: it cannot be taken back and rolled"
    " again. Correct the score with the next turns, or start a rematch."
)
COMPUTER_ROLLED_SINCE = gettext_noop(
    "A computer has rolled since that turn, and everyone saw its dice: the turn cannot be"
    " taken back, since the computer's dice would fall again."
)


def undo_last_turn(game_id: str, *, version: int | None = None) -> Game:
    """Remove the last row, and the computers' turns after the last person's, so that the
    host's undo takes back what a person did. An app-rolled turn taken back stays in the
    game's log (`Game.undone`). Raises `rules.IllegalTurnError` when there is nothing to
    undo, `TurnInProgressError` while a turn with app-rolled dice is under way."""
    with transaction.atomic():
        game = _lock(game_id, version)
        if game.rolling is not None:
            raise TurnInProgressError
        if game.finished and game.table_dice:
            # Every phone's secret is shown at the end: reopened, the parts to come could be
            # foreseen by anyone.
            raise rules.IllegalTurnError(TABLE_DICE_SHOWN)
        if game.finished:
            _fresh_seed(game)
        computers = frozenset(
            Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
        )
        removed: Turn | None = None
        while (last := Turn.objects.filter(game=game).order_by("-number").first()) is not None:
            if last.rolls is not None:
                # Board Game Arena's policy: an undo never crosses a random event someone has
                # seen, so a turn the app rolled is never rolled again with other dice.
                raise rules.IllegalTurnError(
                    COMPUTER_ROLLED_SINCE if last.roller in computers else ROLLED_TURN_STAYS
                )
            _remove(game, last)
            removed = last
            if last.roller not in computers:
                break
        if removed is None:
            raise rules.IllegalTurnError(gettext_noop("There is no turn to undo."))
        game.last_roller = (
            Turn.objects.filter(game=game)
            .order_by("-number")
            .values_list("roller", flat=True)
            .first()
        )
        # A turn is only ever played in a game still going: without it, the game goes on.
        game.finished, game.turn_count = False, removed.number - 1
        # Back at a computer's turn (the game's first seats are computers): it plays again.
        sums = (
            Seat.objects.filter(game=game).order_by("position").values_list("cell_sum", flat=True)
        )
        position = dice_rules.Position.from_cell_sums(game.rules, list(sums), game.last_roller)
        _computers_roll(game, position, computers)
        return _bump(
            game, "last_roller", "finished", "turn_count", "undone", "earlier_seeds", "seed_sha256"
        )


def _fresh_seed(game: Game) -> None:
    """A finished game showed its seed: reopened, it rolls on with a fresh secret one, and
    the one everybody saw stays public, so that the dice rolled with it can still be checked
    and no die to come can be foreseen."""
    secret = Secret.objects.filter(game=game).first()
    if secret is None:
        return
    game.earlier_seeds = [
        *game.earlier_seeds,
        {"seed": secret.seed, "seed_sha256": game.seed_sha256},
    ]
    secret.seed = chance.new_seed()
    secret.save(update_fields=["seed"])
    game.seed_sha256 = chance.seed_sha256(secret.seed)


def _remove(game: Game, last: Turn) -> None:
    _add_to_sums(
        (seat_id, -value)
        for seat_id, value in Cell.objects.filter(turn=last).values_list("seat_id", "value")
    )
    if last.rolls is not None:
        game.undone = [
            *game.undone,
            {
                "number": last.number,
                "roller": last.roller,
                "total": last.total,
                "hunt": last.hunt,
                "target": last.target,
                "heal": last.heal,
                "rolls": last.rolls,
                "hunt_rolls": last.hunt_rolls,
                "seed_index": last.seed_index,
                "undone_at": timezone.now().isoformat(timespec="seconds"),
            },
        ]
    last.delete()


def _add_to_sums(cells: Iterable[tuple[int, int]]) -> None:
    """Keep `Seat.cell_sum`: a row writes a number in at most two seats' columns."""
    for seat_id, value in cells:
        if value:
            Seat.objects.filter(pk=seat_id).update(cell_sum=F("cell_sum") + value)


def start_rematch(
    game: Game, create: Callable[[Game, Sequence[tuple[str, bool]]], tuple[Game, str]]
) -> tuple[Game, str]:
    """A new game with the same players (and computer seats) and rules, made by `create` (the
    kind's). The old game's version goes up, so that every phone following it hears of the
    new one and moves there."""
    with transaction.atomic():
        old = _lock(game.pk, None)
        seats = Seat.objects.filter(game=old).order_by("position").values_list("name", "computer")
        new_game, host_key = create(old, list(seats))
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


def show_hints(game_id: str, *, shown: bool) -> Game:
    """Show the roller the odds of each choice in turns the app rolls, or stop."""
    with transaction.atomic():
        game = _lock(game_id, None)
        game.hints = shown
        return _bump(game, "hints")


def rename_game(game_id: str, name: str) -> Game:
    with transaction.atomic():
        game = _lock(game_id, None)
        game.name = name
        return _bump(game, "name")


@dataclass(frozen=True)
class Merged:
    """What merging two spellings of a player did."""

    changed: int  # games whose seats took the name (a deleted game's too, but uncounted)
    skipped: tuple[Game, ...]  # games with both spellings, left as they were


def merge_names(name: str, other: str) -> Merged:
    """Every seat called `other` (as names compare) takes `name`, in every game but those
    where `name` sits too: a game never has two seats of one name, so those stay as they are.

    Each changed game's version goes up, so that its phones and every cached page redraw."""
    key, other_key = name_key(name), name_key(other)
    if key == other_key:
        raise ValueError("a name cannot be merged into itself")
    with_name = Seat.objects.filter(name_key=key).values("game_id")
    with transaction.atomic():
        ids = (
            Seat.objects.filter(name_key=other_key)
            .exclude(game_id__in=with_name)
            .values_list("game_id", flat=True)
        )
        # Locked in one order, so that two merges at once wait for each other instead of
        # each holding half of the games.
        games = list(Game.everything.select_for_update().filter(pk__in=list(ids)).order_by("pk"))
        Seat.objects.filter(game__in=games, name_key=other_key).update(name=name, name_key=key)
        for game in games:
            _bump_keeping_state(game)
    skipped = Game.objects.filter(seats__name_key=other_key).filter(seats__name_key=key)
    shown = sum(1 for game in games if game.deleted_at is None)
    return Merged(shown, tuple(skipped.order_by("-created_at", "pk")))


def _bump_keeping_state(game: Game) -> None:
    """A new version for a change the rules never see (a name): a card game's kept state
    still holds, so it is carried to the new version rather than replayed from the seed."""
    before = game.version
    _bump(game)
    Secret.objects.filter(game=game, state_version=before).update(state_version=game.version)


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


def _bump(game: Game, *changed: str) -> Game:
    game.version = F("version") + 1
    game.updated_at = timezone.now()
    game.save(update_fields=["version", "updated_at", *changed])
    game.refresh_from_db(fields=["version"])
    announce(game)
    return game


# -- the card game ---------------------------------------------------------------------------
# The move log and the secret seed are all that is stored: hands and the stock follow from
# them (DESIGN.md, "Game kinds"). A finished deal also writes one row of the score sheet, the
# tokens each seat gave up, so that history, exports and charts read cells for every kind.

MAX_MOVES = 20_000  # a five-token tournament of ten players is a few thousand cards
TOO_MANY_MOVES = gettext_noop("A card game has at most %(most)s moves.")
DEAL_ROW = "deal"  # `Turn.effect` of a card game's sheet row


@dataclass(frozen=True)
class Player:
    """A seat as the host set it up: a name, and whether the computer plays it."""

    name: str
    computer: bool = False


def create_card_game(
    name: str,
    players: Sequence[Player],
    card_rules: cards.CardRules,
    *,
    rematch_of: Game | None = None,
) -> tuple[Game, str]:
    """Create a card game with a fresh secret seed; computer seats play at once if it is
    their turn. Returns the game with its host key."""
    seed = chance.new_seed()
    start = cards.Tournament.start(card_rules, len(players), seed)  # refuses a wrong count
    host_key = new_key()
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            kind="cards",
            rules_data=card_rules.to_dict(),
            host_key_hash=hash_key(host_key),
            seed_sha256=chance.seed_sha256(seed),
            rematch_of=rematch_of,
        )
        Secret.objects.create(game=game, seed=seed)
        Seat.objects.bulk_create(
            _card_seat(game, host_key, position, player) for position, player in enumerate(players)
        )
        computers = frozenset(seat for seat, player in enumerate(players) if player.computer)
        state, moves = _computers_play(game, start, seed, computers, 0)
        if moves:
            # Computers alone may play deals, or the whole tournament, before anyone looks.
            game.finished, game.turn_count = state.finished, len(state.deals)
            game = _bump(game, "finished", "turn_count")
        _keep_state(game, state)
    return game, host_key


def _keep_state(game: Game, state: cards.Tournament) -> None:
    """Keep the state at the game's new version, in the secret row and, once the write has
    committed, in this process's memory."""
    Secret.objects.filter(game=game).update(state=cards.snapshot(state), state_version=game.version)
    transaction.on_commit(lambda: remember(("tournament", game.pk, game.version), state))


def load_tournament(game: Game) -> cards.Tournament:
    """The card game at its version: remembered by the process that wrote it, or resumed
    from the state kept in the secret row, or (for a game stored before that) replayed from
    the secret seed and the move log."""
    known = recall(("tournament", game.pk, game.version))
    if known is not None:
        return cast(cards.Tournament, known)
    # The state kept with the version it belongs to: one row, whatever the game's length.
    version, saved, saved_version = (
        Game.objects.filter(pk=game.pk)
        .values_list("version", "secret__state", "secret__state_version")
        .get()
    )
    if saved is not None and saved_version == version:
        state = cards.from_snapshot(saved)
    else:
        state, version = _replay_tournament(game)
    remember(("tournament", game.pk, version), state)
    return state


def _replay_tournament(game: Game) -> tuple[cards.Tournament, int]:
    """The tournament rebuilt from the seed and every move. The stored moves are all legal,
    so the replay cannot fail."""
    with transaction.atomic():
        # The version and the moves in one snapshot: a move written in between would
        # otherwise be remembered under the older version.
        version, seed = Game.objects.filter(pk=game.pk).values_list("version", "secret__seed").get()
        data = list(
            Move.objects.filter(game=game).order_by("number").values_list("data", flat=True)
        )
    state = cards.replay(
        game.card_rules, game.seats.count(), seed, (cards.Move.from_dict(d) for d in data)
    )
    return state, version


def card_deals(game: Game) -> tuple[cards.DealStory, ...]:
    """Every deal of a finished card game with the hands dealt, for its replay. Raises a
    `RuleError` while the tournament is still going: until it is over, no hand leaves its
    holder's phone."""
    with transaction.atomic():
        finished, seed = (
            Game.objects.filter(pk=game.pk).values_list("finished", "secret__seed").get()
        )
        if not finished:
            raise rules.IllegalTurnError(
                gettext_noop("The hands are shown once the tournament is over.")
            )
        data = list(
            Move.objects.filter(game=game).order_by("number").values_list("data", flat=True)
        )
    moves = (cards.Move.from_dict(d) for d in data)
    return cards.deal_stories(game.card_rules, game.seats.count(), seed, moves)


@dataclass(frozen=True)
class Played:
    """A stored card move: the game at its new version, the tournament after it and every
    public event since the last version (the computers' moves that followed included)."""

    game: Game
    state: cards.Tournament
    events: tuple[cards.Event, ...]


def play_card(game_id: str, seat: int, move: cards.Move, *, version: int | None = None) -> Played:
    """Check a seat's card with the rules and store it; then every computer seat whose turn
    it becomes plays at once. Raises `rules.RuleError`, `StaleVersionError` or
    `Game.DoesNotExist`; on any of them nothing changes."""
    try:
        with transaction.atomic():
            game = _lock(game_id, version)
            if game.kind != "cards":
                raise rules.IllegalMoveError(gettext_noop("This game is played with dice."))
            state = load_tournament(game)
            moves = Move.objects.filter(game=game).order_by("-number")
            number = moves.values_list("number", flat=True).first() or 0
            if number >= MAX_MOVES:
                raise rules.IllegalMoveError(TOO_MANY_MOVES, most=MAX_MOVES)
            computers = frozenset(
                Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
            )
            if seat in computers:
                raise NotYourTurnError
            state, events = state.play(move, seat)
            _store_moves(game, number, [(seat, move, events)])
            seed = Secret.objects.filter(game=game).values_list("seed", flat=True).get()
            state, more = _computers_play(game, state, seed, computers, number + 1)
            game.finished, game.turn_count = state.finished, len(state.deals)
            game = _bump(game, "finished", "turn_count")
            _keep_state(game, state)
        return Played(game, state, events + tuple(e for _, _, done in more for e in done))
    except IntegrityError as error:
        raise StaleVersionError from error


def _computers_play(
    game: Game,
    state: cards.Tournament,
    seed: str,
    computers: frozenset[int],
    number: int,
) -> tuple[cards.Tournament, list[tuple[int, cards.Move, tuple[cards.Event, ...]]]]:
    """Play every computer seat whose turn it is, one after another, and store the moves.

    Each computer sees only its own seat's view. Its tie-breaks come from the seed and the
    move's number, so a replay of the log is the same game."""
    played: list[tuple[int, cards.Move, tuple[cards.Event, ...]]] = []
    while (seat := state.to_move()) is not None and seat in computers:
        rng = random.Random(f"{seed}:{number + len(played) + 1}")
        move = cards.choose_move(state.view(seat), rng)
        state, events = state.play(move, seat)
        played.append((seat, move, events))
    _store_moves(game, number, played)
    return state, played


def _store_moves(
    game: Game, number: int, played: Sequence[tuple[int, cards.Move, tuple[cards.Event, ...]]]
) -> None:
    """Append moves to the log, and a sheet row for each deal they finished."""
    if not played:
        return
    Move.objects.bulk_create(
        Move(game=game, number=number + index, seat=seat, data=move.to_dict())
        for index, (seat, move, _) in enumerate(played, start=1)
    )
    records = [e for _, _, events in played for e in events if isinstance(e, cards.DealRecord)]
    if not records:
        return
    seat_ids = list(
        Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
    )
    for record in records:
        row = Turn.objects.create(
            game=game,
            number=record.number,
            roller=record.losers[0],
            total=0,
            effect=DEAL_ROW if record.reason == cards.NO_LEGAL_PLAY else "stock",
        )
        written = list(zip(seat_ids, record.cells, strict=True))
        Cell.objects.bulk_create(
            Cell(turn=row, seat_id=seat_id, value=value) for seat_id, value in written
        )
        _add_to_sums(written)


def _card_seat(game: Game, host_key: str, position: int, player: Player) -> Seat:
    seat = Seat(
        game=game,
        position=position,
        name=player.name,
        name_key=name_key(player.name),
        computer=player.computer,
    )
    if not player.computer:
        claim = claims.new_claim(host_key, game.pk)
        seat.claim_hash, seat.claim_sealed = claim.claim_hash, claim.sealed
    return seat


def claim_seat(game_id: str, seat: int | None, token: str) -> tuple[int, str]:
    """A card game's seat link is used once: the phone that opens it gets a key of its own,
    the only key that shows the seat's hand. `seat` is the seat the link names (the API), or
    None to find it by the token (the page). Returns the seat and its new key. Raises
    `BadKeyError` for a token that opens no seat, `SeatTakenError` for one whose seat another
    phone claimed first."""
    with transaction.atomic():
        game = _lock(game_id, None)
        rows = Seat.objects.select_for_update().filter(game=game, computer=False)
        if seat is not None:
            rows = rows.filter(position=seat)
        row = next((r for r in rows if claims.matches(token, r.claim_hash)), None)
        if row is None:
            raise BadKeyError
        if row.joined_at is not None:
            raise SeatTakenError  # another phone was first: this link no longer works
        fresh = new_key()
        row.key_hash, row.joined_at = hash_key(fresh), timezone.now()
        row.save(update_fields=["key_hash", "joined_at"])
        _bump(game)
    return row.position, fresh


def reissue_seat(game: Game, seat: int, host_key: str) -> str:
    """Give a card game's seat a new link (its phone was lost): the phone's key and the old
    link stop working and the seat can be claimed again. Returns the new link's token."""
    with transaction.atomic():
        locked = _lock(game.pk, None)
        row = Seat.objects.select_for_update().get(game=locked, position=seat, computer=False)
        claim = claims.new_claim(host_key, locked.pk)
        row.key_issue += 1
        row.key_hash, row.joined_at = "", None
        row.claim_hash, row.claim_sealed = claim.claim_hash, claim.sealed
        row.save(update_fields=["key_issue", "key_hash", "joined_at", "claim_hash", "claim_sealed"])
        _bump(locked)
    return claim.token


class BadKeyError(Exception):
    """A seat key that does not open this seat (wrong, or already claimed)."""


class SeatTakenError(Exception):
    """A claim link whose seat another phone claimed first: not a guess, a lost race."""


# -- dice made by the whole table (`Game.table_dice`) ---------------------------------------


def join_table_dice(game_id: str, seat: int | None, commitment: str) -> Game:
    """A phone (the host's when `seat` is None) joins the table's dice with the SHA-256 of its
    secret, before the first roll; joining again with the same one changes nothing. Raises
    `TableDiceError` with the sentence to show."""
    with transaction.atomic():
        game = _lock(game_id, None)
        if not game.table_dice:
            raise TableDiceError(gettext_noop("This game's dice are not made by the table."))
        known = TablePart.objects.filter(game=game, seat=seat).first()
        if known is not None and hmac.compare_digest(known.commitment, commitment):
            return game  # the same phone again (a reload)
        if TableRoll.objects.filter(game=game).exists():
            raise TableDiceError(
                gettext_noop(
                    "The dice have started rolling: this phone joins the table's dice in the"
                    " next game."
                )
            )
        if known is not None:
            raise TableDiceError(
                gettext_noop("Another phone of this seat has joined the table's dice already.")
            )
        TablePart.objects.create(game=game, seat=seat, commitment=commitment)
        return _bump(game)


def reveal_table_secret(game_id: str, seat: int | None, secret: str) -> Game:
    """Once the game is over, a phone shows its secret, which must match what it showed before
    the first roll. Raises `TableDiceError`."""
    with transaction.atomic():
        game = _lock(game_id, None)
        part = TablePart.objects.filter(game=game, seat=seat).first()
        if part is None:
            raise TableDiceError(gettext_noop("This phone did not join the table's dice."))
        if not game.finished:
            raise TableDiceError(
                gettext_noop("A phone's secret is shown only once the game is over.")
            )
        if part.secret:
            return game
        try:
            matches = chance.commitment(secret) == part.commitment
        except rules.RuleError:
            matches = False
        if not matches:
            raise TableDiceError(
                gettext_noop("That secret is not the one this phone showed the SHA-256 of.")
            )
        part.secret = secret
        part.save(update_fields=["secret"])
        return _bump(game)


class TableDiceError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
