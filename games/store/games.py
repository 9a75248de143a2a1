"""Changes to a game that no kind's rules see: a rematch, the host's switches, a new name,
two spellings of a player merged into one, and deleting (and restoring) a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from games import claims
from games.models import Game, Seat, Secret
from games.names import name_key
from games.store.errors import BadKeyError, SeatTakenError
from games.store.locking import bump, lock_game
from games.store.seats import open_seat_link


def take_rematch_seat(old: Game, position: int, key: str, new: Game) -> tuple[int, str] | None:
    """The seat and key in the rematch `new` for the phone holding seat `position` of `old`
    with `key`: the link sealed for it opens the seat as the link itself would (claimed, in
    a kind with seats to claim). None when there is no such seat or it is taken already."""
    seat = Seat.objects.filter(game=old, position=position).first()
    link = None if seat is None else claims.open_for_seat(seat, key)
    if link is None:
        return None
    try:
        return open_seat_link(new, link)
    except (BadKeyError, SeatTakenError):
        return None


def start_rematch(
    game: Game, create: Callable[[Game, Sequence[tuple[str, bool]]], tuple[Game, str]]
) -> tuple[Game, str]:
    """A new game with the same players (and computer seats) and rules, made by `create` (the
    kind's). The old game's version goes up, so that every phone following it hears of the
    new one and moves there."""
    with transaction.atomic():
        old = lock_game(game.pk, None)
        seats = Seat.objects.filter(game=old).order_by("position").values_list("name", "computer")
        new_game, host_key = create(old, list(seats))
        if old.name_default:  # nobody named it: nor the rematch, which is of its own day
            name_by_day(new_game, [name for name, _computer in seats])
        _pass_seats_on(old, new_game, host_key)
        bump(old)
    return new_game, host_key


def _pass_seats_on(old: Game, new: Game, host_key: str) -> None:
    """Seal each new seat's link for the phone that holds the same player's seat in the old
    game, so that phone follows into the rematch in its own seat (`take_rematch_seat`)."""
    links = {link.position: link.key for link in claims.seat_link_keys(new, host_key)}
    people = Seat.objects.filter(game=new, computer=False)
    new_seats = dict(people.values_list("name_key", "position"))
    held = Seat.objects.filter(game=old, computer=False).exclude(key_hash="")
    for seat in held:
        position = new_seats.get(seat.name_key)
        if position is not None and position in links:
            seat.rematch_link = claims.seal_for_seat(seat, links[position])
            seat.save(update_fields=["rematch_link"])


def name_by_day(game: Game, players: Sequence[str]) -> None:
    """Mark a game nobody named as named by its day and players, so that each reader sees
    that name in their own language (`Game.title`)."""
    game.name_default = {"day": timezone.localdate().isoformat(), "players": list(players)}
    Game.objects.filter(pk=game.pk).update(name_default=game.name_default)


def rematch_of(game: Game) -> str | None:
    """The id of the rematch started from this game, if there is one."""
    found: str | None = _newest_rematch(game.pk).first()
    return found


def game_and_rematch(game_id: str) -> tuple[Game, str | None] | None:
    """The game (None if there is none) and `rematch_of` it, in one query: a following
    page's update asks both at every change, and on PostgreSQL each query is a round trip."""
    newest = _newest_rematch(OuterRef("pk"))
    game = Game.objects.filter(pk=game_id).annotate(rematch_id=Subquery(newest)).first()
    return None if game is None else (game, game.rematch_id)


def _newest_rematch(game_id: str | OuterRef) -> QuerySet[Game, str]:
    # A game started again twice (by two taps at once) has two: the newest is followed.
    games = Game.objects.filter(rematch_of=game_id).order_by("-created_at")
    return games.values_list("pk", flat=True)[:1]


def allow_seats_to_play(game_id: str, *, allowed: bool) -> Game:
    """Let players enter their own turns with their seat links, or stop them."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        game.seats_play = allowed
        game.save(update_fields=["seats_play"])
        return bump(game)


def show_hints(game_id: str, *, shown: bool) -> Game:
    """Show the roller the odds of each choice in turns the app rolls, or stop."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        game.hints = shown
        return bump(game, "hints")


def rename_game(game_id: str, name: str) -> Game:
    with transaction.atomic():
        game = lock_game(game_id, None)
        game.name, game.name_default = name, None
        return bump(game, "name", "name_default")


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
    bump(game)
    Secret.objects.filter(game=game, state_version=before).update(state_version=game.version)


# How long the host has to take back a deletion.
RESTORE_MINUTES = 10


def delete_game(game_id: str) -> Game:
    """Take the game out of every list and page; `restore_game` brings it back for a while."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        game.deleted_at = timezone.now()
        return bump(game, "deleted_at")


def restore_game(game_id: str) -> Game:
    """Bring back a game deleted less than RESTORE_MINUTES ago. Raises `Game.DoesNotExist`."""
    since = timezone.now() - timedelta(minutes=RESTORE_MINUTES)
    with transaction.atomic():
        game = Game.everything.select_for_update().get(pk=game_id, deleted_at__gte=since)
        game.deleted_at = None
        return bump(game, "deleted_at")
