"""The one store path of a kind whose game is its rules, its secret seed and its move log
(`games.rules.engine.Engine`): create a game, play a move, resume the state at a version, and
read the whole log back once the game is over.

Every move, a seat's or a computer's, is appended to the log (`Move`); a move that closes a
row of the sheet (a deal lost, a toss won) also writes that row and its cells, so that the
history, exports and charts read cells for every kind. The secret row keeps the state at the
game's latest version as a cache (`Secret.state`), read only here and only under its version,
so a page need not replay the log; the seed and the log rebuild it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games import claims, rules
from games.cache import recall, remember
from games.join_codes import join_code
from games.kinds import Kind, find_kind
from games.models import Cell, Game, Move, Seat, Secret, Turn, hash_key, new_key
from games.names import name_key
from games.rules import chance
from games.rules.engine import Engine, SheetRow
from games.rules.errors import gettext_noop
from games.store.errors import NotYourTurnError, StaleVersionError
from games.store.locking import bump, lock_game
from games.store.sheet import add_to_sums

# A game's log is capped, so that no game grows without bound: a five-token card tournament
# of ten players is a few thousand cards.
MAX_MOVES = 20_000
TOO_MANY_MOVES = gettext_noop("A game has at most %(most)s moves.")
SHOWN_AT_THE_END = gettext_noop("The whole game is shown once it is over.")
NOT_LOGGED = gettext_noop("This game's moves are not played this way.")


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


def _engine(kind: Kind) -> Engine[Any, Any, Any]:
    if kind.engine is None:
        raise rules.IllegalMoveError(NOT_LOGGED)
    return kind.engine


def start_game(
    kind_name: str,
    name: str,
    players: Sequence[Player],
    rules_data: dict[str, Any],
    *,
    rematch_of: Game | None = None,
) -> tuple[Game, str]:
    """Create a game of this kind with a fresh secret seed; computer seats play at once if
    it is their turn. Returns the game with its host key, which is never stored in clear.
    Every other seat gets a claim link (`games.claims`): only the phone that claims the seat
    holds its key."""
    engine = _engine(find_kind(kind_name))
    game_rules = engine.read_rules(rules_data)
    seed = chance.new_seed()
    state = engine.start(game_rules, len(players), seed)  # refuses a wrong count
    host_key = new_key()
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            kind=kind_name,
            rules_data=engine.write_rules(game_rules),
            host_key_hash=hash_key(host_key),
            seed_sha256=chance.seed_sha256(seed),
            rematch_of=rematch_of,
        )
        Secret.objects.create(game=game, seed=seed)
        join_code(game)  # the code to type instead of scanning, ready for the first page
        Seat.objects.bulk_create(
            _seat(game, host_key, position, player) for position, player in enumerate(players)
        )
        computers = frozenset(seat for seat, player in enumerate(players) if player.computer)
        state, played = _computers_play(engine, game, state, seed, computers, 0)
        game.finished = state.outcome() is not None
        if played:
            # Computers alone may play rows, or the whole game, before anyone looks.
            game = bump(game, "finished", "turn_count")
        _keep_state(engine, game, state)
    return game, host_key


def play(game_id: str, seat: int, move: Any, *, version: int | None = None) -> Played:
    """Check a seat's move with the rules and store it; then every computer seat whose turn
    it becomes moves at once. Raises `rules.RuleError`, `StaleVersionError`,
    `NotYourTurnError` or `Game.DoesNotExist`; on any of them nothing changes."""
    try:
        with transaction.atomic():
            game = lock_game(game_id, version)
            engine = _engine(find_kind(game.kind))
            state = load_state(game)
            number = last_move_number(game)
            if number >= MAX_MOVES:
                raise rules.IllegalMoveError(TOO_MANY_MOVES, most=MAX_MOVES)
            computers = _computer_seats(game)
            if seat in computers:
                raise NotYourTurnError
            state, public = state.play(move, seat)
            _store_moves(engine, game, number, [(seat, move, public)])
            state, more = _computers_play(engine, game, state, _seed(game), computers, number + 1)
            game = _settle(engine, game, state)
        return Played(game, state, (*public, *(p for _, _, done in more for p in done)))
    except IntegrityError as error:
        # Another request stored this move's number first.
        raise StaleVersionError from error


def play_computer_moves(game: Game) -> Game:
    """Let the computer seats move whose turn it is (one was just handed a seat), under the
    caller's lock; the game at its new version."""
    engine = _engine(find_kind(game.kind))
    state, _ = _computers_play(
        engine, game, load_state(game), _seed(game), _computer_seats(game), last_move_number(game)
    )
    return _settle(engine, game, state)


def _settle(engine: Engine[Any, Any, Any], game: Game, state: Any) -> Game:
    """After moves, under the caller's lock: whether the game is over, the new version, and
    the state kept at it."""
    game.finished = state.outcome() is not None
    game = bump(game, "finished", "turn_count")
    _keep_state(engine, game, state)
    return game


def last_move_number(game: Game) -> int:
    """The number of the game's last move in the log (0 before the first), under the
    caller's lock: every kind's writer numbers its moves on from it."""
    last = Move.objects.filter(game=game).order_by("-number").values_list("number", flat=True)
    return last.first() or 0


def _computer_seats(game: Game) -> frozenset[int]:
    return frozenset(
        Seat.objects.filter(game=game, computer=True).values_list("position", flat=True)
    )


def _seed(game: Game) -> str:
    seed: str = Secret.objects.filter(game=game).values_list("seed", flat=True).get()
    return seed


def load_state(game: Game) -> Any:
    """The game's state at its version: remembered by the process that wrote it, or resumed
    from the state kept in the secret row, or (for a game stored before that) replayed from
    the secret seed and the move log."""
    known = recall(("state", game.pk, game.version))
    if known is not None:
        return known
    engine = _engine(find_kind(game.kind))
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
            state = _replay(engine, game, seed, _logged_moves(game))
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
    return list(Move.objects.filter(game=game).order_by("number").values_list("seat", "data"))


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
    transaction.on_commit(lambda: remember(("state", game.pk, game.version), state))


Logged = tuple[int, Any, Any]  # a seat, its move and what the move made public


def _computers_play(
    engine: Engine[Any, Any, Any],
    game: Game,
    state: Any,
    seed: str,
    computers: frozenset[int],
    number: int,
) -> tuple[Any, list[Logged]]:
    """Play every computer seat whose turn it is, one after another, and store the moves.

    Each computer sees only its own seat's view. Its tie-breaks come from the seed and the
    move's number, so a replay of the log is the same game."""
    played: list[Logged] = []
    while (seat := state.to_move()) is not None and seat in computers:
        if number + len(played) >= MAX_MOVES:
            break  # a game of computers alone stops at the cap, like any other
        rng = random.Random(f"{seed}:{number + len(played) + 1}")
        move = engine.computer_move(state, seat, rng)
        state, public = state.play(move, seat)
        played.append((seat, move, public))
    _store_moves(engine, game, number, played)
    return state, played


def _store_moves(
    engine: Engine[Any, Any, Any], game: Game, number: int, played: Sequence[Logged]
) -> None:
    """Append moves to the log, and a sheet row for each row they closed (which keeps
    `Game.turn_count`, the game's own count of its rows)."""
    if not played:
        return
    Move.objects.bulk_create(
        Move(game=game, number=number + index, seat=seat, data=engine.write_move(move))
        for index, (seat, move, _) in enumerate(played, start=1)
    )
    rows = [row for _, _, public in played for row in engine.rows(public)]
    if rows:
        _write_rows(game, rows)


def _write_rows(game: Game, rows: Sequence[SheetRow]) -> None:
    seat_ids = list(
        Seat.objects.filter(game=game).order_by("position").values_list("id", flat=True)
    )
    for row in rows:
        stored = Turn.objects.create(
            game=game, number=row.number, roller=row.seat, total=0, effect=row.label
        )
        written = list(zip(seat_ids, row.cells, strict=True))
        Cell.objects.bulk_create(
            Cell(turn=stored, seat_id=seat_id, value=value) for seat_id, value in written
        )
        add_to_sums(written)
    game.turn_count = rows[-1].number


def _seat(game: Game, host_key: str, position: int, player: Player) -> Seat:
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
