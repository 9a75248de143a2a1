"""Short codes for joining a game by typing (`/join`): five letters from an alphabet without
look-alikes, for a laptop without a camera or a phone whose camera fails.

A code opens what the game's link opens, the watcher's page, and nothing a seat or the host
holds. It is short enough to be guessed, so it lives a day (a game played longer gets a new
one) and every wrong code counts against the guess limit (`games.guesses`), like a wrong key.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.models import Game, JoinCode

# No I or L (1), O or Q (0), S (5), Z (2), B (8), G (6): what is read off a screen is typed right.
ALPHABET = "ACDEFHJKMNPRTUVWXY"
LENGTH = 5
LIFETIME = timedelta(days=1)


def join_code(game: Game) -> str:
    """The game's code: the one it was given within the last day, or a new one. A code last
    given over a day ago is free to be given again."""
    fresh = _fresh().filter(game=game).order_by("-created_at").values_list("code", flat=True)
    found = fresh.first()
    if found is not None:
        return found
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        try:
            with transaction.atomic():
                JoinCode.objects.filter(code=code, created_at__lt=_cutoff()).delete()
                JoinCode.objects.create(code=code, game=game)
            return code
        except IntegrityError:
            continue  # in use by another game today: draw again


def game_for_code(typed: str) -> str | None:
    """The id of the game a typed code opens, or None. Case, spaces and dashes do not count."""
    code = "".join(typed.split()).replace("-", "").upper()
    if len(code) != LENGTH or not set(code) <= set(ALPHABET):
        return None
    found = _fresh().filter(code=code, game__deleted_at__isnull=True)
    return found.values_list("game_id", flat=True).first()


def _cutoff() -> datetime:
    return timezone.now() - LIFETIME


def _fresh() -> QuerySet[JoinCode]:
    return JoinCode.objects.filter(created_at__gte=_cutoff())
