"""The one store path, for every kind of game (`games.rules.engine.Engine`): create a game
(or import one already played), play a move, take moves back, resume the state at a version,
and read the whole log back once the game is over.

A game is its rules, its secret seed and its move log: every move, a seat's or a computer's,
is appended to the log (`Move`) as its kind writes it, with the chance it needed drawn into
it (the dice a roll throws); a move that closes a row of the sheet (a dice turn, a deal lost)
also writes that row and its cells, so that the history, exports and charts read cells for
every kind. The secret row keeps the state at the game's latest version as a cache
(`Secret.state`), read only here and only under its version, so that no page replays the log;
the seed and the log rebuild it.

Every change runs in one transaction with the game's row locked, checks the version the
client last saw (`games.store.locking`), and bumps it, so two phones can never record one
move twice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import claims, rules
from games.cache import announce, recall, remember
from games.join_codes import join_code
from games.kinds import CLAIM, Kind, find_kind
from games.models import (
    Cell,
    Game,
    Move,
    Seat,
    Secret,
    Turn,
    WaitingRoll,
    hash_key,
    new_key,
    seat_key,
)
from games.names import name_key
from games.rules import chance
from games.rules.engine import Engine, SheetRow
from games.rules.errors import gettext_noop
from games.store.errors import (
    NotYourTurnError,
    RollWaitsError,
    StaleVersionError,
    TurnInProgressError,
)
from games.store.locking import bump, lock_game
from games.store.notices import tell_taken_back
from games.store.seeds import MustWait, RequestChance, fresh_seed
from games.store.sheet import add_to_sums

# A game's log and its sheet are capped, so that no game (played or imported) grows without
# bound: a long evening is a few hundred turns; a five-token card tournament of ten players
# is a few thousand cards.
MAX_MOVES = 20_000
MAX_TURNS = 5_000
TOO_MANY_MOVES = gettext_noop("A game has at most %(most)s moves.")
TOO_MANY_TURNS = gettext_noop("A game has at most %(most)s turns. Start a rematch to play on.")
SHOWN_AT_THE_END = gettext_noop("The whole game is shown once it is over.")
NOTHING_TO_UNDO = gettext_noop("There is no turn to undo.")
TABLE_DICE_SHOWN = gettext_noop(
    "The table made this game's dice, and every phone's secret was shown at the end: the game"
    " cannot be reopened. Start a rematch to play on."
)

# Rows written per INSERT when many are stored at once (an import).
BATCH = 500


@dataclass(frozen=True)
class Player:
    """A seat as the host set it up: a name, and whether the computer plays it."""

    name: str
    computer: bool = False


@dataclass(frozen=True)
class Played:
    """A stored move: the game at its new version, the state after it, and what every move
    since the last version made public (the computers' moves that followed included)."""

    game: Game
    state: Any
    public: tuple[Any, ...]


@dataclass(frozen=True)
class Logged:
    """A move played in this request, as the log keeps it: who made it, the move with its
    chance, what it made public, and whether the computer made it."""

    seat: int
    move: Any
    public: Any
    by_computer: bool = False


@dataclass(frozen=True)
class Seats:
    """The seats as the writers of moves need them, read once under the game's lock: each
    seat's id in seat order (the cells a row writes) and the computers' seats (who moves at
    once). Read again after anything that hands a seat over, which changes them before the
    game's version moves on."""

    ids: tuple[int, ...]
    computers: frozenset[int]


NO_SEATS = Seats((), frozenset())


def locked_seats(game: Game) -> Seats:
    rows = list(Seat.objects.filter(game=game).order_by("position").values_list("id", "computer"))
    ids = tuple(seat_id for seat_id, _ in rows)
    return Seats(ids, frozenset(seat for seat, (_, computer) in enumerate(rows) if computer))


def engine_of(kind: Kind) -> Engine[Any, Any, Any]:
    return kind.engine


def start_game(
    kind_name: str,
    name: str,
    players: Sequence[Player],
    rules_data: dict[str, Any],
    *,
    rematch_of: Game | None = None,
    table_dice: bool = False,
) -> tuple[Game, str]:
    """Create a game of this kind with a fresh secret seed; computer seats play at once if
    it is their turn. Returns the game with its host key, which is never stored in clear.
    Where a kind hides something from other seats (its seats are claimed), every person's
    seat gets a claim link (`games.claims`) and only the phone that claims it holds its key;
    elsewhere a seat's key is derived from the host key, so the host can always show it."""
    with transaction.atomic():
        game, host_key, state = _create(
            kind_name, name, players, rules_data, rematch_of, table_dice
        )
        engine = engine_of(find_kind(kind_name))
        # Without a computer nothing is played here, and no row needs the seats' ids.
        seats = locked_seats(game) if any(p.computer for p in players) else NO_SEATS
        state, played = _computers_play(engine, game, state, seats, 0, RequestChance(game))
        if played:
            # Computers alone may play rows, or the whole game, before anyone looks.
            game = _settle(engine, game, state)
        else:
            _keep_state(engine, game, state)
    return game, host_key


def import_game(
    kind_name: str,
    name: str,
    players: Sequence[Player],
    rules_data: dict[str, Any],
    moves: Sequence[Any],
) -> tuple[Game, str]:
    """Create a game already played: each move (by whoever is to move) judged by the rules,
    then stored in a few queries per thousand rows, however long the game, in one
    transaction. Raises `RuleError` for a move the rules refuse; nothing is then stored."""
    with transaction.atomic():
        game, host_key, state = _create(kind_name, name, players, rules_data, None, False)
        engine = engine_of(find_kind(kind_name))
        played: list[Logged] = []
        for move in moves:
            seat = state.to_move()
            if seat is None:
                raise rules.GameOverError(
                    gettext_noop("This game is over. Undo the last turn to change it.")
                )
            state, public = state.play(move, seat)
            played.append(Logged(seat, move, public))
        rows = _store_moves(engine, game, 0, played, locked_seats(game).ids)
        # As if each row had been recorded one by one.
        Game.objects.filter(pk=game.pk).update(
            version=F("version") + len(rows),
            finished=state.outcome() is not None,
            turn_count=game.turn_count,
        )
        game.refresh_from_db()
        announce(game)
        _keep_state(engine, game, state)
    return game, host_key


def _create(
    kind_name: str,
    name: str,
    players: Sequence[Player],
    rules_data: dict[str, Any],
    rematch_of: Game | None,
    table_dice: bool,
) -> tuple[Game, str, Any]:
    kind = find_kind(kind_name)
    engine = engine_of(kind)
    game_rules = engine.read_rules(rules_data)
    seed = chance.new_seed()
    state = engine.start(game_rules, len(players), seed)  # refuses a wrong count
    host_key = new_key()
    game = Game.objects.create(
        name=name,
        kind=kind_name,
        rules_data=engine.write_rules(game_rules),
        host_key_hash=hash_key(host_key),
        seed_sha256=chance.seed_sha256(seed),
        rematch_of=rematch_of,
        table_dice=table_dice,
    )
    Secret.objects.create(game=game, seed=seed)
    join_code(game)  # the code to type instead of scanning, ready for the first page
    claimed = CLAIM not in kind.refuses
    Seat.objects.bulk_create(
        _seat(game, host_key, position, player, claimed=claimed)
        for position, player in enumerate(players)
    )
    return game, host_key, state


def play(
    game_id: str,
    seat: int | None,
    move: Any,
    *,
    version: int | None = None,
    part: str | None = None,
) -> Played:
    """Check a move with the rules and store it; then every computer seat whose turn it
    becomes moves at once. `seat` is the seat whose phone made the move, or None for the
    host moving for whoever is to move (where the kind lets the host, which the caller
    checks). `part` is the phone's part in the dice, where the table makes them: a roll
    there waits for the other phones' parts (`RollWaitsError`, `games.store.table_rolls`).
    Raises `rules.RuleError`, `StaleVersionError`, `NotYourTurnError`, `TurnInProgressError`
    or `Game.DoesNotExist`; on any of them nothing changes."""
    try:
        with transaction.atomic():
            game = lock_game(game_id, version)
            refuse_while_a_roll_waits(game)
            engine = engine_of(find_kind(game.kind))
            state = load_state(game)
            mover = state.to_move()
            seats = locked_seats(game)
            if (
                mover is not None
                and seat is not None
                and (not game.seats_play or seat in seats.computers or seat != mover)
            ):
                # (Once the game is over, the rules say so: `play` refuses any move.)
                raise NotYourTurnError
            person = RequestChance(game, seat, part, version, required=True)
            try:
                return play_and_follow(engine, game, state, move, person, seats)
            except MustWait as wait:
                # Nothing is written yet: the roll, as chosen, waits for the table.
                WaitingRoll.objects.create(
                    game=game,
                    label=wait.label,
                    seat=seat,
                    part=part or "",
                    move=engine.write_move(move),
                    asked_at=timezone.now(),
                )
                game = _settle(engine, game, state)
        raise RollWaitsError(game)
    except rules.MoveUnderWayError as error:
        raise TurnInProgressError from error
    except IntegrityError as error:
        # Another request stored this move's number first (or asked for this roll first).
        raise StaleVersionError from error


ROLL_WAITING = gettext_noop(
    "A roll is on its way: it waits a moment for the other phones' parts of the dice."
)


def refuse_while_a_roll_waits(game: Game) -> None:
    """Nothing changes the game while a roll of the table's dice waits for the other phones'
    parts, so that the roll is made for the game it was asked for (one query, only in a game
    of the table's dice)."""
    if game.table_dice and WaitingRoll.objects.filter(game=game).exists():
        raise rules.IllegalTurnError(ROLL_WAITING)


def play_and_follow(
    engine: Engine[Any, Any, Any],
    game: Game,
    state: Any,
    move: Any,
    chance: RequestChance,
    seats: Seats,
) -> Played:
    """Under the caller's lock: the move of the seat to move, with its chance, stored; then
    the computers' moves it leads to."""
    mover = state.to_move()
    number = last_move_number(game)
    if number >= MAX_MOVES:
        raise rules.IllegalMoveError(TOO_MANY_MOVES, most=MAX_MOVES)
    move = engine.with_chance(state, move, chance)
    state, public = state.play(move, mover)
    assert mover is not None  # the game is going: `play` refused the move otherwise
    done = [Logged(mover, move, public)]
    _store_moves(engine, game, number, done, seats.ids)
    followers = chance.for_followers()
    state, more = _computers_play(engine, game, state, seats, number + 1, followers)
    game = _settle(engine, game, state)
    return Played(game, state, tuple(logged.public for logged in (*done, *more)))


def play_computer_moves(game: Game) -> Game:
    """Let the computer seats move whose turn it is (one was just handed a seat), under the
    caller's lock; the game at its new version. Raises `TurnInProgressError` when the seat
    handed over is in the middle of a move of several steps. While a roll of the table's
    dice waits, the computers move once it is made."""
    if game.table_dice and WaitingRoll.objects.filter(game=game).exists():
        return bump(game)
    engine = engine_of(find_kind(game.kind))
    try:
        state, _ = _computers_play(
            engine,
            game,
            load_state(game),
            locked_seats(game),
            last_move_number(game),
            RequestChance(game),
        )
    except rules.MoveUnderWayError as error:
        raise TurnInProgressError from error
    return _settle(engine, game, state)


def undo(game_id: str, *, version: int | None = None) -> Game:
    """Take back the last row, and the computers' rows after the last person's, so that the
    host's undo takes back what a person did. The moves taken back stay in the log, marked
    undone. Board Game Arena's policy: an undo never crosses chance someone has seen, so a
    move that drew it (a roll of the app's dice, a computer's roll since) is never taken back
    and played again; the kind says which (`Engine.take_back_refusal`).

    Raises `rules.IllegalTurnError` with the sentence, `TurnInProgressError` while moves after
    the last row are under way, or `StaleVersionError`."""
    with transaction.atomic():
        game = lock_game(game_id, version)
        refuse_while_a_roll_waits(game)
        engine = engine_of(find_kind(game.kind))
        live = _live_moves(game)
        if live and live[-1][3] is None:
            # A move under way: its last step goes, where the kind lets it (a wrong entry).
            return _take_back_step(engine, game, live)
        start = _taken_back_from(engine, live)
        if start == len(live):
            raise rules.IllegalTurnError(NOTHING_TO_UNDO)
        if game.finished and game.table_dice:
            # Every phone's secret is shown at the end: reopened, the parts to come could be
            # foreseen by anyone.
            raise rules.IllegalTurnError(TABLE_DICE_SHOWN)
        if game.finished:
            fresh_seed(game)
        taken = live[start:]
        Move.objects.filter(game=game, number__gte=taken[0][0], undone_at__isnull=True).update(
            undone_at=timezone.now()
        )
        first_row = min(row for _, _, _, row, _ in taken if row is not None)
        person = (
            Turn.objects.filter(game=game, number=first_row)
            .values_list("roller", "data", "by_computer")
            .get()
        )
        _remove_rows(game, first_row)
        state = _replay(
            engine, game, _seed(game), [(seat, data) for _, seat, data, _, _ in live[:start]]
        )
        game.turn_count = first_row - 1
        game.undone_moves += len(taken)
        # Back at a computer's turn (the game's first seats are computers): it plays again.
        state, _ = _computers_play(
            engine,
            game,
            state,
            locked_seats(game),
            last_move_number(game),
            RequestChance(game),
        )
        game = _settle(engine, game, state, "undone_moves", "earlier_seeds", "seed_sha256")
        roller, data, by_computer = person
        if not by_computer:
            tell_taken_back(game, roller, engine.row_title(data))
        return game


NOTHING_UNDER_WAY = gettext_noop("There is no turn under way to correct.")


def take_back_step(game_id: str, seat: int | None, *, version: int | None = None) -> Game:
    """Take back the last step of a move under way, such as a roll of dice thrown at the table
    entered wrong, so that it can be entered again: by the host (`seat` None) or the phone of
    the seat whose move it is. A step that drew chance someone saw (the app's dice) is never
    taken back (`TurnInProgressError`). Raises `rules.IllegalTurnError` when no move is under
    way, `NotYourTurnError`, or `StaleVersionError`."""
    with transaction.atomic():
        game = lock_game(game_id, version)
        refuse_while_a_roll_waits(game)
        engine = engine_of(find_kind(game.kind))
        live = _live_moves(game)
        if not live or live[-1][3] is not None:
            raise rules.IllegalTurnError(NOTHING_UNDER_WAY)
        if seat is not None and (not game.seats_play or load_state(game).to_move() != seat):
            raise NotYourTurnError
        return _take_back_step(engine, game, live)


def _take_back_step(
    engine: Engine[Any, Any, Any], game: Game, live: Sequence[tuple[Any, ...]]
) -> Game:
    number, _seat, data, _row, by_computer = live[-1]
    if engine.take_back_refusal(engine.read_move(data), by_computer) is not None:
        raise TurnInProgressError
    Move.objects.filter(game=game, number=number).update(undone_at=timezone.now())
    state = _replay(engine, game, _seed(game), [(seat, data) for _, seat, data, _, _ in live[:-1]])
    game.undone_moves += 1
    return _settle(engine, game, state, "undone_moves")


def _live_moves(game: Game) -> list[tuple[Any, ...]]:
    """(number, seat, data, row, by_computer) of every move not taken back, in order."""
    return list(
        Move.objects.filter(game=game, undone_at__isnull=True)
        .order_by("number")
        .values_list("number", "seat", "data", "row", "by_computer")
    )


def _taken_back_from(engine: Engine[Any, Any, Any], live: Sequence[tuple[Any, ...]]) -> int:
    """Where the moves an undo takes back start in the live log: those of the last row, and
    of every row before it back to the last one a person played. Raises the kind's refusal
    for a move that may not be taken back."""
    end = len(live)
    while end > 0:
        start = end - 1
        while start > 0 and live[start - 1][3] is None:
            start -= 1
        row_moves = live[start:end]
        for _, _, data, _, by_computer in reversed(row_moves):
            refusal = engine.take_back_refusal(engine.read_move(data), by_computer)
            if refusal is not None:
                raise rules.IllegalTurnError(refusal)
        if not all(by_computer for *_, by_computer in row_moves):
            return start
        end = start
    return 0 if live else len(live)


def _remove_rows(game: Game, first: int) -> None:
    """Remove the rows numbered from `first` on, with their cells and what they added to the
    running sums."""
    removed = Cell.objects.filter(turn__game=game, turn__number__gte=first)
    totals: dict[int, int] = {}
    for seat_id, value in removed.values_list("seat_id", "value"):
        totals[seat_id] = totals.get(seat_id, 0) - value
    add_to_sums(totals.items())
    Turn.objects.filter(game=game, number__gte=first).delete()


def _settle(engine: Engine[Any, Any, Any], game: Game, state: Any, *changed: str) -> Game:
    """After moves, under the caller's lock: whether the game is over, the new version, and
    the state kept at it."""
    game.finished = state.outcome() is not None
    game = bump(game, "finished", "turn_count", *changed)
    _keep_state(engine, game, state)
    return game


def last_move_number(game: Game) -> int:
    """The number of the game's last move in the log (0 before the first), under the
    caller's lock."""
    last = Move.objects.filter(game=game).order_by("-number").values_list("number", flat=True)
    return last.first() or 0


def _seed(game: Game) -> str:
    seed: str = Secret.objects.filter(game=game).values_list("seed", flat=True).get()
    return seed


def load_state(game: Game) -> Any:
    """The game's state at its version: remembered by the process that wrote it, or resumed
    from the state kept in the secret row (one query, whatever the game's length), or (for
    a game stored before that) replayed from the secret seed and the move log."""
    known = recall(("state", game.pk, game.version))
    if known is not None:
        return known
    engine = engine_of(find_kind(game.kind))
    # The state kept with the version it belongs to: one row, whatever the game's length.
    version, saved, saved_version = (
        Game.objects.filter(pk=game.pk)
        .values_list("version", "secret__state", "secret__state_version")
        .get()
    )
    if saved is not None and saved_version == version:
        state = engine.from_snapshot(saved)
    else:
        with transaction.atomic():
            # The version and the moves in one snapshot: a move written in between would
            # otherwise be remembered under the older version.
            version, seed = (
                Game.objects.filter(pk=game.pk).values_list("version", "secret__seed").get()
            )
            state = _replay(engine, game, seed or "", _logged_moves(game))
    remember(("state", game.pk, version), state)
    return state


def finished_log(game: Game) -> tuple[str, list[tuple[int, dict[str, Any]]]]:
    """The secret seed and every move, (seat, move as logged), of a finished game, for its
    replay. Raises a `RuleError` while the game is still going: until it is over, nothing the
    seed would show leaves the server."""
    with transaction.atomic():
        finished, seed = (
            Game.objects.filter(pk=game.pk).values_list("finished", "secret__seed").get()
        )
        if not finished:
            raise rules.IllegalTurnError(SHOWN_AT_THE_END)
        return seed, _logged_moves(game)


def _logged_moves(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """The moves that make the game, in order: those taken back stay in the log, but not in
    the game."""
    live = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")
    return list(live.values_list("seat", "data"))


def _replay(
    engine: Engine[Any, Any, Any], game: Game, seed: str, moves: Sequence[tuple[int, Any]]
) -> Any:
    """The state after every logged move, from the start. The stored moves are all legal,
    so the replay cannot fail."""
    state = engine.start(engine.read_rules(game.rules_data), game.seats.count(), seed)
    for seat, data in moves:
        state, _ = state.play(engine.read_move(data), seat)
    return state


def _keep_state(engine: Engine[Any, Any, Any], game: Game, state: Any) -> None:
    """Keep the state at the game's new version, in the secret row and, once the write has
    committed, in this process's memory."""
    Secret.objects.filter(game=game).update(
        state=engine.snapshot(state), state_version=game.version
    )
    key = ("state", game.pk, game.version)
    transaction.on_commit(lambda: remember(key, state))


def _computers_play(
    engine: Engine[Any, Any, Any],
    game: Game,
    state: Any,
    seats: Seats,
    number: int,
    source: RequestChance,
) -> tuple[Any, list[Logged]]:
    """Play every computer seat whose turn it is, one after another, and store the moves.

    Each computer sees only its own seat's view. Its tie-breaks come from the seed and the
    move's number, so a replay of the log is the same game; its chance (dice) comes from
    `source`, as a person's would."""
    played: list[Logged] = []
    while (seat := state.to_move()) is not None and seat in seats.computers:
        if number + len(played) >= MAX_MOVES or game.turn_count + len(played) >= MAX_TURNS:
            break  # a game of computers alone stops at the cap, like any other
        rng = random.Random(f"{source.seed()}:{number + len(played) + 1}")
        move = engine.with_chance(state, engine.computer_move(state, seat, rng), source)
        state, public = state.play(move, seat)
        played.append(Logged(seat, move, public, by_computer=True))
    _store_moves(engine, game, number, played, seats.ids)
    return state, played


def _store_moves(
    engine: Engine[Any, Any, Any],
    game: Game,
    number: int,
    played: Sequence[Logged],
    seat_ids: Sequence[int],
) -> list[SheetRow]:
    """Append moves to the log, and a sheet row for each row they closed (which keeps
    `Game.turn_count`, the game's own count of its rows). Raises `RuleError` past the caps."""
    if not played:
        return []
    if number + len(played) > MAX_MOVES:
        raise rules.IllegalMoveError(TOO_MANY_MOVES, most=MAX_MOVES)
    closed = [(logged, list(engine.rows(logged.public))) for logged in played]
    rows = [row for _, found in closed for row in found]
    if rows and rows[-1].number > MAX_TURNS:
        raise rules.IllegalTurnError(TOO_MANY_TURNS, most=MAX_TURNS)
    Move.objects.bulk_create(
        (
            Move(
                game=game,
                number=number + index,
                seat=logged.seat,
                data=engine.write_move(logged.move),
                row=found[-1].number if found else None,
                by_computer=logged.by_computer,
            )
            for index, (logged, found) in enumerate(closed, start=1)
        ),
        batch_size=BATCH,
    )
    computers = {row.number for logged, found in closed for row in found if logged.by_computer}
    if rows:
        _write_rows(game, rows, computers, seat_ids)
    return rows


def _write_rows(
    game: Game, rows: Sequence[SheetRow], by_computer: set[int], seat_ids: Sequence[int]
) -> None:
    """Write rows with their cells and add them to the running sums, a few statements for
    any number of rows."""
    seed_index = len(game.earlier_seeds)
    stored = Turn.objects.bulk_create(
        (
            Turn(
                game=game,
                number=row.number,
                roller=row.seat,
                effect=row.label,
                data=dict(row.data),
                seed_index=seed_index,
                by_computer=row.number in by_computer,
            )
            for row in rows
        ),
        batch_size=BATCH,
    )
    if any(turn.pk is None for turn in stored):  # a database that does not say the new ids
        ids = dict(
            Turn.objects.filter(game=game, number__in=[row.number for row in rows]).values_list(
                "number", "id"
            )
        )
        for turn in stored:
            turn.pk = ids[turn.number]
    Cell.objects.bulk_create(
        (
            Cell(turn_id=turn.pk, seat_id=seat_id, value=value)
            for turn, row in zip(stored, rows, strict=True)
            for seat_id, value in zip(seat_ids, row.cells, strict=True)
        ),
        batch_size=BATCH,
    )
    totals = [sum(column) for column in zip(*(row.cells for row in rows), strict=True)]
    add_to_sums(zip(seat_ids, totals, strict=True))
    game.turn_count = rows[-1].number


def _seat(game: Game, host_key: str, position: int, player: Player, *, claimed: bool) -> Seat:
    seat = Seat(
        game=game,
        position=position,
        name=player.name,
        name_key=name_key(player.name),
        computer=player.computer,
    )
    if player.computer:
        return seat
    if claimed:
        claim = claims.new_claim(host_key, game.pk)
        seat.claim_hash, seat.claim_sealed = claim.claim_hash, claim.sealed
    else:
        seat.key_hash = hash_key(seat_key(host_key, game.pk, position))
    return seat
