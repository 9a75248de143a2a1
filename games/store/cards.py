"""The card game's writes and reads: creating a game, a seat's card and the computer seats'
cards after it, the tournament at a version, and the hands dealt once it is over.

The move log and the secret seed are the game: hands and the stock follow from them
(DESIGN.md, "Game kinds"). The secret row also keeps the state at the game's latest version,
so that a page need not replay the log; only the store reads it. A finished deal also writes
one row of the score sheet, the tokens each seat gave up, so that history, exports and charts
read cells for every kind.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from django.db import IntegrityError, transaction

from games import claims, rules
from games.cache import recall, remember
from games.models import Cell, Game, Move, Seat, Secret, Turn, hash_key, new_key
from games.names import name_key
from games.rules import cards, chance
from games.rules.errors import gettext_noop
from games.store.errors import NotYourTurnError, StaleVersionError
from games.store.locking import bump, lock_game
from games.store.sheet import add_to_sums

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
            kind=cards.KIND,
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
            game = bump(game, "finished", "turn_count")
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
            game = lock_game(game_id, version)
            if game.kind != cards.KIND:
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
            game = bump(game, "finished", "turn_count")
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
        add_to_sums(written)


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
