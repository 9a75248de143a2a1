"""Who may change a game: the host, recognised by the key kept in their browser, and, where
the host allows it, each player on their own turn, recognised by their seat's key."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games import guesses
from games.models import Game, Seat, hash_key

COOKIE_AGE = 60 * 60 * 24 * 365
# The games this browser created, joined or followed, newest first: its "Your games".
MY_GAMES_COOKIE = "thirty_games"
MY_GAMES_KEPT = 40


@dataclass(frozen=True)
class Access:
    host: bool = False
    seat: int | None = None  # the seat whose key this browser holds

    def may_act(self, game: Game, to_move: int | None) -> bool:
        """Whether this browser may make the move of the seat `to_move` (whose move it is
        now): the host, or that seat's own phone where the host lets players play."""
        if self.host:
            return True
        return game.seats_play and self.seat is not None and to_move == self.seat


def host_cookie_name(game: Game | str) -> str:
    """The cookie that holds the host's key to a game (or to a game's id)."""
    return f"thirty_host_{game if isinstance(game, str) else game.pk}"


def seat_cookie_name(game: Game | str) -> str:
    """The cookie that holds a seat's key to a game (or to a game's id)."""
    return f"thirty_seat_{game if isinstance(game, str) else game.pk}"


def holds_no_key(request: HttpRequest, game_id: str) -> bool:
    """Whether this phone holds no key to the game at all, right or wrong: then it watches,
    whatever the game holds, and `access_for` would neither load nor count anything."""
    cookies = request.COOKIES
    return host_cookie_name(game_id) not in cookies and seat_cookie_name(game_id) not in cookies


def is_host(request: HttpRequest, game: Game) -> bool:
    host, wrong = _host_key_in_cookie(request, game)
    if wrong:
        _wrong_cookie(request, wrong)
    return host


def _host_key_in_cookie(request: HttpRequest, game: Game) -> tuple[bool, str | None]:
    """Whether the host's cookie holds the host key, and the cookie's name if it holds a
    wrong one."""
    name = host_cookie_name(game)
    key = request.COOKIES.get(name)
    host = game.check_host_key(key)
    return host, name if key and not host else None


def access_for(request: HttpRequest, game: Game) -> Access:
    """The host, a seat, both (a host who plays the card game from their own seat), or a
    watcher."""
    name = seat_cookie_name(game)
    key = request.COOKIES.get(name)
    seat, taken_back = _seat_and_notice(game, key)
    if taken_back is not None:
        request.__dict__[TAKEN_BACK] = taken_back
    host, wrong_host_cookie = _host_key_in_cookie(request, game)
    wrong = [wrong_host_cookie] if wrong_host_cookie else []
    if key and seat is None:
        lost = Seat.objects.filter(game=game, lost_key_hash=hash_key(key))
        found = lost.values_list("lost_reason", "name").first()
        if found is not None:
            # The host took this phone's seat (a new link, or the computer): no guess, and the
            # phone is told (`seat_lost`) once, before its cookie goes.
            request.__dict__[SEAT_LOST] = found
            request.__dict__.setdefault(STALE_COOKIES, set()).add(name)
        else:
            wrong.append(name)  # a made-up key
    for cookie in wrong:
        # Counted like any wrong key; but beside a right key (a host's phone that still
        # holds a stale seat cookie, say) never a reason to refuse the right one.
        _wrong_cookie(request, cookie, refuse=not host and seat is None)
    return Access(host=host, seat=seat)


def seat_lost(request: HttpRequest) -> tuple[str, str] | None:
    """Why this request's phone lost its seat just now, and the seat's name (`access_for`)."""
    lost: tuple[str, str] | None = request.__dict__.get(SEAT_LOST)
    return lost


def _wrong_cookie(request: HttpRequest, name: str, *, refuse: bool = True) -> None:
    """A key in a cookie that opens nothing counts as a wrong guess, like any other, once;
    the answer deletes the cookie (`StaleKeyCookieMiddleware`), so that a phone holding a
    link that was replaced counts once and then simply watches. A client that has used up
    its guesses is refused, unless (`refuse=False`) the request holds a right key too."""
    stale: set[str] = request.__dict__.setdefault(STALE_COOKIES, set())
    if name in stale:
        return
    stale.add(name)
    if refuse and guesses.blocked(request):
        raise guesses.TooManyGuessesError
    guesses.wrong_guess(request)


# Where a request notes the key cookies that opened nothing (see `_wrong_cookie`), the seat
# the host took from this phone (see `seat_lost`), and the seat's turn the host last took
# back (see `seat_taken_back`).
STALE_COOKIES = "thirty_stale_cookies"
SEAT_LOST = "thirty_seat_lost"
TAKEN_BACK = "thirty_taken_back"


def seat_for_key(game: Game, key: str | None) -> int | None:
    """The seat a key belongs to, compared in constant time; None for no key or a wrong one."""
    return _seat_and_notice(game, key)[0]


def _seat_and_notice(game: Game, key: str | None) -> tuple[int | None, tuple[int, str] | None]:
    """The seat a key belongs to, and the turn of it the host last took back (the version,
    and the turn as the sheet showed it), in the one query every request of a phone makes."""
    if not key:
        return None, None
    wanted = hash_key(key)
    found: tuple[int | None, tuple[int, str] | None] = (None, None)
    rows = Seat.objects.filter(game=game).values_list(
        "position", "key_hash", "taken_back_version", "taken_back_label"
    )
    for position, key_hash, version, label in rows:
        if key_hash and hmac.compare_digest(wanted, key_hash):
            found = position, None if version is None else (version, label)
    return found


def seat_taken_back(request: HttpRequest, since: int) -> str | None:
    """The turn of this phone's seat that the host took back after version `since`, as the
    sheet showed it (`access_for`), if any."""
    taken_back: tuple[int, str] | None = request.__dict__.get(TAKEN_BACK)
    if taken_back is None or taken_back[0] <= since:
        return None
    return taken_back[1]


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
