"""Who may change a game: the host, recognised by the key kept in their browser, and, where
the host allows it, each player on their own turn, recognised by their seat's key."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games import guesses
from games.models import Game, Seat, hash_key
from games.rules import dice as dice_rules

COOKIE_AGE = 60 * 60 * 24 * 365
# The games this browser created, joined or followed, newest first: its "Your games".
MY_GAMES_COOKIE = "thirty_games"
MY_GAMES_KEPT = 40


@dataclass(frozen=True)
class Access:
    host: bool = False
    seat: int | None = None  # the seat whose key this browser holds

    def may_play(self, game: Game, position: dice_rules.Position) -> bool:
        """Whether this browser may enter the turn that is due now."""
        if self.host:
            return True
        return game.seats_play and self.seat is not None and position.next_roller == self.seat


def host_cookie_name(game: Game) -> str:
    return f"thirty_host_{game.pk}"


def seat_cookie_name(game: Game) -> str:
    return f"thirty_seat_{game.pk}"


def is_host(request: HttpRequest, game: Game) -> bool:
    name = host_cookie_name(game)
    key = request.COOKIES.get(name)
    host = game.check_host_key(key)
    if key and not host:
        _wrong_cookie(request, name)
    return host


def access_for(request: HttpRequest, game: Game) -> Access:
    """The host, a seat, both (a host who plays the card game from their own seat), or a
    watcher."""
    name = seat_cookie_name(game)
    key = request.COOKIES.get(name)
    seat = seat_for_key(game, key)
    if key and seat is None:
        lost = Seat.objects.filter(game=game, lost_key_hash=hash_key(key))
        found = lost.values_list("lost_reason", "name").first()
        if found is not None:
            # The host took this phone's seat (a new link, or the computer): no guess, and the
            # phone is told (`seat_lost`) once, before its cookie goes.
            request.__dict__[SEAT_LOST] = found
            request.__dict__.setdefault(STALE_COOKIES, set()).add(name)
        else:
            _wrong_cookie(request, name)  # a made-up key
    return Access(host=is_host(request, game), seat=seat)


def seat_lost(request: HttpRequest) -> tuple[str, str] | None:
    """Why this request's phone lost its seat just now, and the seat's name (`access_for`)."""
    lost: tuple[str, str] | None = request.__dict__.get(SEAT_LOST)
    return lost


def _wrong_cookie(request: HttpRequest, name: str) -> None:
    """A key in a cookie that opens nothing counts as a wrong guess, like any other, once;
    the answer deletes the cookie (`StaleKeyCookieMiddleware`), so that a phone holding a
    link that was replaced counts once and then simply watches."""
    stale: set[str] = request.__dict__.setdefault(STALE_COOKIES, set())
    if name in stale:
        return
    stale.add(name)
    if guesses.blocked(request):
        raise guesses.TooManyGuessesError
    guesses.wrong_guess(request)


# Where a request notes the key cookies that opened nothing (see `_wrong_cookie`), and the
# seat the host took from this phone (see `seat_lost`).
STALE_COOKIES = "thirty_stale_cookies"
SEAT_LOST = "thirty_seat_lost"


def seat_for_key(game: Game, key: str | None) -> int | None:
    """The seat a key belongs to, compared in constant time; None for no key or a wrong one."""
    if not key:
        return None
    wanted = hash_key(key)
    found = None
    for position, key_hash in Seat.objects.filter(game=game).values_list("position", "key_hash"):
        if key_hash and hmac.compare_digest(wanted, key_hash):
            found = position
    return found


def remember_host(response: HttpResponse, game: Game, key: str) -> None:
    _set(response, host_cookie_name(game), key)


def remember_seat(response: HttpResponse, game: Game, key: str) -> None:
    _set(response, seat_cookie_name(game), key)


def _set(response: HttpResponse, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SITE_URL.startswith("https://"),
    )


def my_game_ids(request: HttpRequest) -> list[str]:
    raw = request.COOKIES.get(MY_GAMES_COOKIE, "")
    return [game_id for game_id in raw.split(".") if game_id.isascii() and game_id][:MY_GAMES_KEPT]


def remember_game(request: HttpRequest, response: HttpResponse, game_id: str) -> None:
    """Put a game first in this browser's own list (ids hold no '.': see `new_game_id`)."""
    known = my_game_ids(request)
    if known[:1] == [game_id]:
        return
    kept = [game_id, *(other for other in known if other != game_id)][:MY_GAMES_KEPT]
    _set(response, MY_GAMES_COOKIE, ".".join(kept))
