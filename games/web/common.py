"""What every page view shares: the request type, the guard that finds a game and checks
who asks, numbers read from a form, the seat links the host hands out, and the page every
watcher shares."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import get_language
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games import claims, store
from games.access import Access, access_for, host_cookie_name
from games.cache import cached, cached_or_none, current_version, remembered
from games.kinds import kind_of
from games.links import public_url
from games.models import Game, Seat

CSRF_PLACEHOLDER = "csrf-token-placeholder-7f3a9c"

P = ParamSpec("P")
T = TypeVar("T")


def database_sync_to_async(function: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """`function` run for an async view in the shared pool of threads, with the database
    connection of its thread looked after as Django looks after a request's (Channels'
    `database_sync_to_async` does the same): one that failed or outlived `CONN_MAX_AGE` is
    closed before and after. Without it a connection the database dropped (PostgreSQL
    restarted) stays in its thread and fails every stream that thread serves."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(run, thread_sensitive=False)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


View = Callable[..., HttpResponse]


class Refused(Exception):
    """The one who asks may not do this: answered 403 with the sentence (`answer_refusal`)."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


# Who may use a view of a game (`game_for`).
ANYONE, PHONE, HOST = "anyone", "phone", "host"


def game_for(
    request: HtmxHttpRequest,
    game_id: str,
    *,
    who: str = ANYONE,
    refusal: str = "",
    kind: str | None = None,
) -> tuple[Game, Access]:
    """The game and who asks, for every view of one game: no game is a 404, and so is a
    game of another kind for a kind's own view (`kind`); when the view needs the host
    (`HOST`) or a seated phone or the host (`PHONE`) and the request is neither, `Refused`
    with the view's sentence (as healthchecks' `_get_check_for_user`)."""
    game = get_object_or_404(Game, pk=game_id, **({} if kind is None else {"kind": kind}))
    access = access_for(request, game)
    if (who == HOST and not access.host) or (
        who == PHONE and not access.host and access.seat is None
    ):
        raise Refused(refusal)
    return game, access


def refusals_answered(view: View) -> View:
    """A view that may raise `Refused` (through `game_for`): answered 403 with its sentence."""

    @wraps(view)
    def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Refused as refused:
            return HttpResponseForbidden(refused.sentence)

    return wrapped


def host_links(request: HttpRequest, game: Game) -> dict[str, Any]:
    """What the host's page adds for every kind: each seat's link and the host link."""
    return {
        "seat_links": seat_links(request, game),
        "host_link": host_link(request, game),
        # Every seat, for handing one to the computer or back (templates/games/hand_over.html).
        "hand_over": list(
            Seat.objects.filter(game=game)
            .order_by("position")
            .values("position", "name", "computer")
        ),
    }


def int_or_none(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    # Larger numbers are never a version or a turn, and some databases cannot compare them.
    return value if abs(value) < 2**31 else None


def poll_seconds(*, finished: bool) -> str:
    """How often a game's page polls when its stream does not get through (THIRTY_POLL_SECONDS),
    as htmx reads it: a finished game changes only by an undo, so it polls a fifth as often.
    Formatted here, since a template would write a decimal comma in Danish."""
    seconds = float(settings.THIRTY_POLL_SECONDS) * (5 if finished else 1)
    return f"{seconds:g}"


def go_to(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    url = reverse("game", args=[game_id])
    # A live update carries no per-person token, so its button posts through htmx.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def share_url(request: HttpRequest, game: Game) -> str:
    return public_url(request, reverse("game", args=[game.pk]))


@dataclass(frozen=True)
class SeatLink:
    """A seat's own link for the host to hand out, and whether a phone has opened it."""

    position: int
    name: str
    url: str
    joined: bool


def seat_links(request: HttpRequest, game: Game) -> list[SeatLink]:
    """Each seat's own link (not the computer's), marked once a phone has opened or claimed
    it: for the host's page and the seat's QR code alike."""
    key = request.COOKIES.get(host_cookie_name(game), "")
    claim_seat = public_url(request, reverse("claim_seat", args=[game.pk]))
    return [
        SeatLink(link.position, link.name, f"{claim_seat}#{link.key}", joined=link.joined)
        for link in claims.seat_link_keys(game, key)
    ]


def seat_link(request: HttpRequest, game: Game, position: int) -> SeatLink:
    """One seat's link (seats from 0); a computer's seat has none (404)."""
    link = next((link for link in seat_links(request, game) if link.position == position), None)
    if link is None:
        raise Http404
    return link


def host_link(request: HttpRequest, game: Game) -> str:
    key = request.COOKIES.get(host_cookie_name(game), "")
    return public_url(request, reverse("claim_host", args=[game.pk])) + f"#{key}"


@dataclass(frozen=True)
class ReplayNav:
    """The steps of a replay (templates/games/replay_shell.html): the query parameter that
    names a step, this step, the first and the last, and what the steps are called."""

    param: str
    number: int
    first: int
    last: int
    label: str


def chart_query(**marks: object) -> str:
    """The query of a chart picture's address, in the reader's language (a chart has words)."""
    return urlencode({**marks, "lang": get_language()} if "lang" not in marks else marks)


def watcher_page(request: HttpRequest, game: Game, build: Callable[[str], bytes]) -> HttpResponse:
    """The page as every watcher sees it, rendered once per version, language and address by
    `build(csrf_token)`; only the CSRF token differs between phones, so it goes in after."""
    key = _watcher_page_key(request, game.pk, game.version)
    page = cached(key, lambda: build(CSRF_PLACEHOLDER))
    return _with_token(request, page)


def ready_watcher_page(request: HttpRequest, game_id: str) -> HttpResponse | None:
    """The watcher's page of the game as it stands, if it is rendered already: without
    loading the game, for any kind. An unknown or deleted game is a 404."""
    version = current_version(game_id)
    if version is None:
        raise Http404
    page: bytes | None = cached_or_none(_watcher_page_key(request, game_id, version))
    return None if page is None else _with_token(request, page)


def _watcher_page_key(request: HttpRequest, game_id: str, version: int) -> tuple[str, ...]:
    return ("watcher-page", game_id, str(version), request.get_host())


def _with_token(request: HttpRequest, page: bytes) -> HttpResponse:
    return HttpResponse(page.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode()))


@dataclass(frozen=True)
class TurnSignal:
    """Whose move it is, as every page of a game carries it (templates/games/turn_signal.html,
    the same for every viewer): static/thirty.js tells the phone whose turn it is (a
    vibration, the tab's title and icon, a sound where switched on) and announces everyone
    else's turn to screen readers."""

    seat: int | None  # from 0; None once the game is over
    name: str


def turn_signal(game: Game) -> TurnSignal:
    """The signal at the game's version, asked of the game's kind once per version."""

    def build() -> TurnSignal:
        seat = kind_of(game).to_move(game)
        if seat is None:
            return TurnSignal(None, "")
        seats = store.seats_at_version(game)
        return TurnSignal(seat, seats[seat].name if seat < len(seats) else "")

    signal: TurnSignal = remembered(("turn-signal", game.pk, game.version), build)
    return signal
