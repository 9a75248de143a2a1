"""Seat links: the key in each seat's link, for every kind of game, and the card game's claim
links.

A card seat's link is a claim link: a random token that can do one thing, claim the seat. The
phone that claims it receives a key of its own (random, stored hashed), and only that key shows
the seat's hand. The host must be able to show a link again (a player arrives late), so the
token is also kept sealed (Fernet, from the `cryptography` library) under a key derived from
the host key: the host's browser can open it, the database alone cannot, and nothing the host
key opens shows a hand.

A dice seat hides nothing, so its link's key is derived from the host key (`seat_key`) and acts
as the seat directly.

At a rematch, each seat a phone holds gets the link of the same player's seat in the rematch,
sealed for that phone alone (`seal_for_seat`): the phone follows the table in its own seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

from games.models import Game, Seat, hash_key, new_key, seat_key


@dataclass(frozen=True)
class Claim:
    """A new claim link: the token for the host, its hash and its sealed form for the row."""

    token: str
    claim_hash: str
    sealed: str


def new_claim(host_key: str, game_id: str) -> Claim:
    token = new_key()
    sealed = _sealer(host_key, game_id).encrypt(token.encode()).decode()
    return Claim(token, hash_key(token), sealed)


def matches(token: str, claim_hash: str) -> bool:
    return bool(token and claim_hash) and hmac.compare_digest(hash_key(token), claim_hash)


@dataclass(frozen=True)
class SeatLinkKey:
    position: int
    name: str
    key: str  # what follows the '#' of the seat's link
    joined: bool


def seat_link_keys(game: Game, host_key: str) -> list[SeatLinkKey]:
    """Every person's seat (not the computer's) with the key of its link, in seat order, in
    one query. For a card game that key is the claim token, which shows no hand."""
    seats = Seat.objects.filter(game=game, computer=False).only(
        "position", "name", "key_issue", "joined_at", "claim_sealed"
    )
    return [
        SeatLinkKey(
            seat.position, seat.name, link_key(game, host_key, seat), seat.joined_at is not None
        )
        for seat in seats
    ]


def link_key(game: Game, host_key: str, seat: Seat) -> str:
    if not seat.claim_sealed:
        # A dice seat; or a card seat of a game made before links were random, whose link
        # was moved to claiming only (migration 0012).
        return seat_key(host_key, game.pk, seat.position, seat.key_issue)
    try:
        return _sealer(host_key, game.pk).decrypt(seat.claim_sealed.encode()).decode()
    except InvalidToken:
        return ""  # not this game's host key: the caller checked it, so this never shows


def _sealer(host_key: str, game_id: str) -> Fernet:
    secret = hmac.new(host_key.encode(), f"claim-links:{game_id}".encode(), hashlib.sha256)
    return Fernet(base64.urlsafe_b64encode(secret.digest()))


def seal_for_seat(seat: Seat, link_key: str) -> str:
    """`link_key` (a seat's link in a rematch) sealed for the phone that holds `seat`: opened
    only by `open_for_seat` with that seat's own key. The sealing key comes from the server's
    secret and the seat's key hash, so neither the database alone nor the host opens it."""
    return _seat_sealer(seat).encrypt(link_key.encode()).decode()


def open_for_seat(seat: Seat, key: str) -> str | None:
    """The link sealed for `seat`, if `key` is the seat's own key; else None."""
    if not seat.rematch_link or not matches(key, seat.key_hash):
        return None
    try:
        return _seat_sealer(seat).decrypt(seat.rematch_link.encode()).decode()
    except InvalidToken:
        return None


def _seat_sealer(seat: Seat) -> Fernet:
    label = f"rematch-link:{seat.game_id}:{seat.position}:{seat.key_hash}"
    secret = hmac.new(settings.SECRET_KEY.encode(), label.encode(), hashlib.sha256)
    return Fernet(base64.urlsafe_b64encode(secret.digest()))
