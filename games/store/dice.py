"""The dice games' writes: creating a game (or importing one already played), a turn typed
in, a turn the app rolls step by step, the computer seats' turns, and the host's undo; and
what is read back from their move log: the turn in progress and the turns taken back.

Each write judges the turn with `games.rules.dice`, rolls the dice the app rolls from the
game's seed (`games.store.seeds`) and, under one lock (`games.store.locking`), appends every
move to the game's log (`Move`, as `games.rules.dice.log` writes it): a typed turn, each
step of a rolled turn with the dice that fell for it, a computer's whole rolled turn with
its rolls. A move that closes a row also writes that row with its cells and the running sums
(`games.store.sheet`), the sheet every page reads, as for the card game
(`games.store.moves`). An undo marks the moves it takes back and keeps them in the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import rules
from games.cache import announce, recall, remember
from games.join_codes import join_code
from games.models import Cell, Game, Move, Seat, Secret, Turn, hash_key, new_key, seat_key
from games.names import name_key
from games.rules import chance
from games.rules import dice as dice_rules
from games.rules.dice import bot as dice_bot
from games.rules.dice import log
from games.rules.dice import rolled as rolled_dice
from games.rules.errors import gettext_noop
from games.store.errors import NotYourTurnError, StaleVersionError, TurnInProgressError
from games.store.locking import bump, lock_game
from games.store.moves import last_move_number
from games.store.notices import tell_taken_back
from games.store.seeds import Chance, fresh_seed, request_chance
from games.store.sheet import add_to_sums, load_position

# A game's length is capped, so that no game (played or imported) grows without bound: a
# long evening is a few hundred turns.
MAX_TURNS = 5_000
TOO_MANY_TURNS = gettext_noop("A game has at most %(most)s turns. Start a rematch to play on.")

# Rows written per INSERT when a whole game is stored at once.
BATCH = 500


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
        join_code(game)  # the code to type instead of scanning, ready for the first page
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
                game = bump(game, "last_roller", "finished", "turn_count")
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
        Move.objects.bulk_create(
            (
                Move(game=game, number=number, seat=row.roller, data=_entry(row.turn, row=number))
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
            game = lock_game(game_id, version)
            if game.rolling_from is not None:
                raise TurnInProgressError
            position = known if known is not None and version is not None else load_position(game)
            if seat is not None and (not game.seats_play or position.next_roller != seat):
                raise NotYourTurnError
            row, after = _write_row(game, position, turn)
            _log_moves(game, [(row.roller, _entry(turn, row=game.turn_count))])
            dice = partial(request_chance, game, seat, part, version, required=False)
            after = _computers_roll(game, after, dice=dice) or after
            game = bump(game, "last_roller", "finished", "turn_count")
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
    *,
    by_computer: bool = False,
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
        seed_index=_seed_index(game) if rolled is not None else None,
        by_computer=by_computer,
    )
    seat_ids = Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
    written = list(zip(seat_ids, row.cells, strict=True))
    Cell.objects.bulk_create(
        Cell(turn=stored, seat_id=seat_id, value=value) for seat_id, value in written
    )
    add_to_sums(written)
    after = position.after(row)
    game.last_roller = row.roller
    game.finished, game.turn_count = after.finished, number
    return row, after


def _seed_index(game: Game) -> int:
    """The seed the app rolls with now: the one after every seed shown earlier (`fresh_seed`)."""
    return len(game.earlier_seeds)


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
            game = lock_game(game_id, version)
            position = load_position(game)
            if seat is not None and (not game.seats_play or position.next_roller != seat):
                raise NotYourTurnError
            turn = rolling_turn(game, position) or rolled_dice.RolledTurn(position)
            dice = request_chance(game, seat, part, version, required=True)
            turn, step = log.take_step(turn, action, dice.roller(game.turn_count + 1))
            if turn.ask() is not None:
                number = _log_moves(game, [(turn.roller, _entry(step))])
                if game.rolling_from is None:
                    game.rolling_from = number  # the turn's first step
                game = bump(game, "rolling_from")
                _remember_rolling(game, position, turn)
                return game
            game.rolling_from = None
            row, after = _write_row(game, position, turn.turn(), turn)
            _log_moves(game, [(row.roller, _entry(step, row=game.turn_count))])
            after = _computers_roll(game, after, dice=lambda: dice) or after
            game = bump(game, "rolling_from", "last_roller", "finished", "turn_count")
        remember(("position", game.pk, game.version), after)
        return Recorded(game, row, after)
    except IntegrityError as error:
        raise StaleVersionError from error


def rolling_turn(game: Game, position: dice_rules.Position) -> rolled_dice.RolledTurn | None:
    """The turn in progress with app-rolled dice at the game's version, if there is one: its
    steps in the log, after the last move that closed a row, replayed from `position` with
    the dice that fell for them.

    The game row every page has already read says whether there is such a turn and where it
    starts (`Game.rolling_from`), so the usual page, with no turn under way, reads nothing
    more; while a turn is rolling, its steps are one query of a few rows, remembered by
    version like the position. That query reads the version beside the steps: if the game
    has moved on since `game` was read, the steps up to the one that completed the turn are
    still a turn on the same position, and nothing is remembered under the older version.
    """
    if game.rolling_from is None:
        return None
    key = ("rolling", game.pk, game.version)
    known: rolled_dice.RolledTurn | None = recall(key)
    if known is not None:
        return known
    found = list(
        Move.objects.filter(game=game, number__gte=game.rolling_from)
        .order_by("number")
        .values_list("data", "game__version")
    )
    turn = rolled_dice.RolledTurn(position)
    for data, _ in found:
        if log.closes_row(data) is not None:
            break  # completed since `game` was read
        step = log.read_move(data)
        assert isinstance(step, log.RolledStep), "a turn in progress is made of rolled steps"
        turn = log.replay_step(turn, step)
    if found and found[0][1] == game.version:
        remember(key, turn)
    return turn


def _remember_rolling(
    game: Game, position: dice_rules.Position, turn: rolled_dice.RolledTurn
) -> None:
    """Once a step that left its turn under way is committed, this process knows the game at
    the new version: the position, which a step does not change, and the turn."""
    version = game.version

    def committed() -> None:
        remember(("position", game.pk, version), position)
        remember(("rolling", game.pk, version), turn)

    transaction.on_commit(committed)


def undone_turns(game: Game) -> list[dict[str, Any]]:
    """The app-rolled turns the host took back, oldest first, seats from 0: each a whole
    rolled move marked undone in the log (`"row"` the number it had). Only games from before
    the undo policy have any (the policy never takes a rolled turn back), and the game row
    counts them (`Game.undone_rolled`), so every other game reads nothing more."""
    if not game.undone_rolled:
        return []
    found = Move.objects.filter(game=game, undone_at__isnull=False).values_list(
        "number", "seat", "data", "undone_at"
    )
    # Oldest undo first; one undo takes back the last row first.
    taken_back = sorted(
        ((undone_at, -data["row"], number), seat, data)
        for number, seat, data, undone_at in found
        if "rolls" in data and undone_at is not None
    )
    return [
        {
            "number": data["row"],
            "roller": seat,
            "total": data["total"],
            "hunt": data["hunt"],
            "target": data["target"],
            "heal": data["heal"],
            "rolls": data["rolls"],
            "hunt_rolls": data["hunt_rolls"],
            "seed_index": data["seed_index"],
            "undone_at": undone_at.astimezone(UTC).isoformat(timespec="seconds"),
        }
        for (undone_at, _, _), seat, data in taken_back
    ]


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
    logged: list[tuple[int, dict[str, Any]]] = []
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
        _, position = _write_row(game, position, turn.turn(), turn, by_computer=True)
        # Played within this request, so no step of it is ever seen alone: one move, whole,
        # with every roll, as its row keeps them.
        logged.append(
            (roller, _entry(log.WholeTurn.of(turn), row=number, seed_index=_seed_index(game)))
        )
        played = position
    _log_moves(game, logged)
    return played


def _entry(
    move: log.DiceMove, *, row: int | None = None, seed_index: int | None = None
) -> dict[str, Any]:
    """A dice move as the log keeps it: `log.write_move`, with the sheet row it closed, and
    for a whole rolled turn the seed that rolled it, as its row names it (`Turn.seed_index`),
    so that one taken back can still be checked."""
    data = log.write_move(move)
    if row is not None:
        data["row"] = row
    if isinstance(move, log.WholeTurn):
        data["seed_index"] = seed_index
    return data


def _log_moves(game: Game, entries: Sequence[tuple[int, dict[str, Any]]]) -> int:
    """Append (seat, data) moves to the game's log, numbered on from its last move, under
    the caller's lock; the number of the last one."""
    number = last_move_number(game)
    if entries:
        Move.objects.bulk_create(
            Move(game=game, number=number + index, seat=seat, data=data)
            for index, (seat, data) in enumerate(entries, start=1)
        )
    return number + len(entries)


def play_computer_turns(game: Game) -> Game:
    """Let the computer seats roll whose turn it is (one was just handed a seat), under the
    caller's lock; the game at its new version."""
    position = load_position(game)
    dice = partial(request_chance, game, None, None, None, required=False)
    after = _computers_roll(game, position, dice=dice)
    game = bump(game, "last_roller", "finished", "turn_count")
    if after is not None:
        remember(("position", game.pk, game.version), after)
    return game


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
    host's undo takes back what a person did. The moves taken back stay in the game's log,
    marked undone. Raises `rules.IllegalTurnError` when there is nothing to undo (or the
    turn was rolled by the app, which stays: the undo policy), `TurnInProgressError` while
    a turn with app-rolled dice is under way."""
    with transaction.atomic():
        game = lock_game(game_id, version)
        if game.rolling_from is not None:
            raise TurnInProgressError
        if game.finished and game.table_dice:
            # Every phone's secret is shown at the end: reopened, the parts to come could be
            # foreseen by anyone.
            raise rules.IllegalTurnError(TABLE_DICE_SHOWN)
        if game.finished:
            fresh_seed(game)
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
            _remove(last)
            removed = last
            if last.roller not in computers:
                break
        if removed is None:
            raise rules.IllegalTurnError(gettext_noop("There is no turn to undo."))
        _mark_undone(game, removed.number)
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
        game = bump(game, "last_roller", "finished", "turn_count", "earlier_seeds", "seed_sha256")
        if removed.roller not in computers:
            tell_taken_back(game, removed.roller, str(removed.total))
        return game


def _mark_undone(game: Game, first_row: int) -> None:
    """Mark undone, in the log, the moves of the rows numbered from `first_row` on, which the
    undo has just removed: every move after the one that closed the row before them. They
    stay in the log."""
    live = Move.objects.filter(game=game, undone_at__isnull=True)
    closed_before = (
        live.filter(data__row=first_row - 1).values_list("number", flat=True).first()
        if first_row > 1
        else None
    )
    live.filter(number__gt=closed_before or 0).update(undone_at=timezone.now())


def _remove(last: Turn) -> None:
    add_to_sums(
        (seat_id, -value)
        for seat_id, value in Cell.objects.filter(turn=last).values_list("seat_id", "value")
    )
    last.delete()
