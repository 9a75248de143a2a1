"""What a seat's phone holds: a card game's seat link, claimed once for a key of the phone's
own (and reissued when a phone is lost), the first time a phone opened a seat, and, in a game
whose dice the whole table makes, the phone's part (joined before the first roll, its secret
shown after the last).
"""

from __future__ import annotations

import hmac

from django.db import transaction
from django.utils import timezone

from games import claims, rules
from games.access import seat_for_key
from games.kinds import CLAIM, offers
from games.models import Game, Seat, TablePart, TableRoll, hash_key, new_key, seat_key
from games.rules import chance
from games.rules.errors import gettext_noop
from games.store.errors import BadKeyError, SeatTakenError, TableDiceError
from games.store.locking import bump, lock_game
from games.store.moves import play_computer_moves


def seat_joined(game: Game, position: int) -> None:
    """Note the first time a phone opened a seat's link (the host's page shows it)."""
    Seat.objects.filter(game=game, position=position, joined_at__isnull=True).update(
        joined_at=timezone.now()
    )


# Why a phone lost its seat (`Seat.lost_reason`).
RELINKED, TO_COMPUTER = "relinked", "computer"


def open_seat_link(game: Game, link_key: str) -> tuple[int, str]:
    """What opening a seat's link does, for every kind: where seats are claimed (hidden
    hands), the link claims its seat once and the phone gets a key of its own; elsewhere the
    link's key is the seat's key. Returns the seat and the key the phone keeps. Raises
    `BadKeyError` or `SeatTakenError` (see `claim_seat`)."""
    if offers(game, CLAIM):
        return claim_seat(game.pk, None, link_key)
    position = seat_for_key(game, link_key)
    if position is None:
        raise BadKeyError
    seat_joined(game, position)
    return position, link_key


def hand_seat_over(game_id: str, position: int, *, to_computer: bool, host_key: str) -> Game:
    """The host hands a seat to the computer (its player left, or fell asleep), or back to a
    person. Handed to the computer, the seat's phone loses it (its key and its link stop
    working) and the computer plays at once if it is the seat's turn. Handed back, the seat
    gets a new link, which the host's page shows as it shows every seat's. Raises
    `TurnInProgressError` when the seat is in the middle of a move of several steps (a turn
    with app-rolled dice); nothing changes then."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        seat = Seat.objects.select_for_update().get(game=game, position=position)
        if seat.computer == to_computer:
            return game
        seat.computer = to_computer
        if to_computer:
            seat.lost_key_hash, seat.lost_reason = seat.key_hash, TO_COMPUTER
        _new_link(game, seat, host_key)
        if to_computer:  # a computer's seat has no link: it keeps none of the person's
            seat.key_hash = seat.claim_hash = seat.claim_sealed = ""
        seat.save()
        if not to_computer:
            return bump(game)
        return play_computer_moves(game)


def claim_seat(game_id: str, seat: int | None, token: str) -> tuple[int, str]:
    """A card game's seat link is used once: the phone that opens it gets a key of its own,
    the only key that shows the seat's hand. `seat` is the seat the link names (the API), or
    None to find it by the token (the page). Returns the seat and its new key. Raises
    `BadKeyError` for a token that opens no seat, `SeatTakenError` for one whose seat another
    phone claimed first."""
    with transaction.atomic():
        game = lock_game(game_id, None)
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
        bump(game)
    return row.position, fresh


def reissue_seat(game: Game, seat: int, host_key: str) -> str:
    """Give a card game's seat a new link (its phone was lost): the phone's key and the old
    link stop working and the seat can be claimed again. Returns the new link's token."""
    with transaction.atomic():
        locked = lock_game(game.pk, None)
        row = Seat.objects.select_for_update().get(game=locked, position=seat, computer=False)
        if row.key_hash:
            # A link reissued again before anyone claimed it: the phone that held the seat
            # last is still the one to tell.
            row.lost_key_hash, row.lost_reason = row.key_hash, RELINKED
        token = _new_link(locked, row, host_key)
        row.save()
        bump(locked)
    return token


def _new_link(game: Game, seat: Seat, host_key: str) -> str:
    """Give `seat` a new link, under the caller's lock: the phone that held the seat loses
    it, and its rematch link with it. Where seats are claimed, the link is a fresh claim
    token; elsewhere the next key derived from the host key. Returns the link's key; the
    caller saves the seat."""
    seat.key_issue += 1
    seat.joined_at, seat.rematch_link = None, ""
    if offers(game, CLAIM):
        claim = claims.new_claim(host_key, game.pk)
        seat.key_hash, seat.claim_hash, seat.claim_sealed = "", claim.claim_hash, claim.sealed
        return claim.token
    key = seat_key(host_key, game.pk, seat.position, seat.key_issue)
    seat.key_hash = hash_key(key)
    return key


# -- dice made by the whole table (`Game.table_dice`) ---------------------------------------


def join_table_dice(game_id: str, seat: int | None, commitment: str) -> Game:
    """A phone (the host's when `seat` is None) joins the table's dice with the SHA-256 of its
    secret, before the first roll; joining again with the same one changes nothing, but for a
    phone back after it missed a roll (`TablePart.asleep`), whose part is waited for again. Raises
    `TableDiceError` with the sentence to show."""
    with transaction.atomic():
        game = lock_game(game_id, None)
        if not game.table_dice:
            raise TableDiceError(gettext_noop("This game's dice are not made by the table."))
        known = TablePart.objects.filter(game=game, seat=seat).first()
        if known is not None and hmac.compare_digest(known.commitment, commitment):
            if not known.asleep:
                return game  # the same phone again (a reload)
            # Back after it missed a roll: the next rolls wait for its part again.
            TablePart.objects.filter(pk=known.pk).update(asleep=False)
            return bump(game)
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
        return bump(game)


def reveal_table_secret(game_id: str, seat: int | None, secret: str) -> Game:
    """Once the game is over, a phone shows its secret, which must match what it showed before
    the first roll. Raises `TableDiceError`."""
    with transaction.atomic():
        game = lock_game(game_id, None)
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
        return bump(game)
