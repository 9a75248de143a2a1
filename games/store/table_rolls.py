"""A roll of the dice the whole table makes, from its asking to its dice.

The roller's phone asks for the roll with its choice (what to keep, whom to attack) and its
own part; the store keeps the roll waiting (`WaitingRoll`, `games.store.moves.play`) and the
game's new version shows every phone that it waits. Only then does each other phone make its
part of the roll and send it (`send_part`): nobody, the host and the server included, can know
every part while the roller's choice could still change. Once every awake phone's part has
come, the roll is made at once. A phone whose part has not come when the wait runs out
(`THIRTY_TABLE_ROLL_WAIT_SECONDS`) does not stop the game: any phone at the table then asks
for the roll to be made (`finish_waiting_roll`) with the parts that came, and the phone that
missed it counts as asleep, so that the next rolls do not wait for it until it is back and
joins again (`games.store.seats.join_table_dice`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import rules
from games.kinds import find_kind
from games.models import Game, RollPart, TablePart, TableRoll, WaitingRoll
from games.rules.errors import gettext_noop
from games.store.errors import TableDiceError
from games.store.locking import bump, lock_game
from games.store.moves import engine_of, load_state, locked_seats, play_and_follow
from games.store.seeds import OTHER_PART, RequestChance, next_roll_label

NOT_WAITING = gettext_noop("No roll waits for this phone's part now.")
ROLLED = gettext_noop("That roll has been rolled already: this phone sends its next part.")
TOO_LATE = gettext_noop(
    "That roll waited for this phone's part as long as it could, and was rolled without it."
)
OWN_PART = gettext_noop("This phone's part of its own roll came with the roll.")


def wait_seconds() -> float:
    return float(settings.THIRTY_TABLE_ROLL_WAIT_SECONDS)


def due_at(waiting: WaitingRoll) -> datetime:
    """When the roll stops waiting for parts that have not come."""
    return waiting.asked_at + timedelta(seconds=wait_seconds())


def waiting_for(game: Game, waiting: WaitingRoll) -> list[int | None]:
    """The phones (seats; None for the host's) the roll still waits for: every awake phone
    but the roller's whose part has not come."""
    sent = set(
        RollPart.objects.filter(game=game, label=waiting.label).values_list("seat", flat=True)
    )
    awake = TablePart.objects.filter(game=game, asleep=False).values_list("seat", flat=True)
    return [seat for seat in awake if seat != waiting.seat and seat not in sent]


def send_part(game_id: str, seat: int | None, label: str, part: str) -> Game:
    """A phone's part of the roll that waits for it (the host's phone when `seat` is None);
    sending the same again changes nothing. The roll is made as soon as the last awake
    phone's part has come. Raises `TableDiceError` with the sentence to show: a game not of
    the table's dice, a phone that has not joined, no roll waiting for that label, a part that
    came after the wait ran out, another part for the same roll."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        if not game.table_dice:
            raise TableDiceError(gettext_noop("This game's dice are not made by the table."))
        phone = TablePart.objects.filter(game=game, seat=seat).first()
        if phone is None:
            raise TableDiceError(gettext_noop("This phone did not join the table's dice."))
        waiting = WaitingRoll.objects.filter(game=game).first()
        if waiting is None or waiting.label != label:
            known = RollPart.objects.filter(game=game, seat=seat, label=label).first()
            if known is not None and known.part == part:
                return game  # sent before, and the roll has been made with it
            if not TableRoll.objects.filter(game=game, label=label).exists():
                raise TableDiceError(NOT_WAITING)
            raise TableDiceError(TOO_LATE if phone.asleep else ROLLED)
        if waiting.seat == seat:
            raise TableDiceError(OWN_PART)
        if timezone.now() > due_at(waiting):
            _roll(game, waiting)
            raise_after = TOO_LATE
        else:
            raise_after = ""
            try:
                with transaction.atomic():
                    RollPart.objects.create(game=game, seat=seat, label=label, part=part)
            except IntegrityError:
                known = RollPart.objects.filter(game=game, seat=seat, label=label).first()
                if known is None or known.part != part:
                    raise TableDiceError(OTHER_PART) from None
            if phone.asleep:
                TablePart.objects.filter(pk=phone.pk).update(asleep=False)
            if not waiting_for(game, waiting):
                game = _roll(game, waiting)
    if raise_after:
        # The roll made without it stays made: the refusal comes after the commit.
        raise TableDiceError(raise_after)
    return game


def finish_waiting_roll(game_id: str) -> Game:
    """Make the waiting roll with the parts that came, once its wait has run out; asked by any
    phone at the table when it sees the wait over. Before that, or with no roll waiting, it
    changes nothing."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        waiting = WaitingRoll.objects.filter(game=game).first()
        if waiting is None:
            return game
        if waiting_for(game, waiting) and timezone.now() <= due_at(waiting):
            return game
        return _roll(game, waiting)


def _roll(game: Game, waiting: WaitingRoll) -> Game:
    """Under the caller's lock: the waiting roll made, as it was chosen, with every part that
    came; each awake phone whose part did not come is asleep from now on. A roll the game no
    longer allows (the seat was handed to the computer meanwhile, which chose otherwise) is
    dropped: the game's page shows what is to do."""
    missed = waiting_for(game, waiting)
    TablePart.objects.filter(game=game, seat__in=[s for s in missed if s is not None]).update(
        asleep=True
    )
    if None in missed:
        TablePart.objects.filter(game=game, seat__isnull=True).update(asleep=True)
    waiting.delete()
    if next_roll_label(game) != waiting.label:
        return bump(game)  # the game moved on another way: the roll is for a game gone
    engine = engine_of(find_kind(game.kind))
    state = load_state(game)
    chance = RequestChance(game, waiting.seat, waiting.part, required=True, waited=True)
    try:
        with transaction.atomic():
            return play_and_follow(
                engine, game, state, engine.read_move(waiting.move), chance, locked_seats(game)
            ).game
    except rules.RuleError:
        return bump(game)
