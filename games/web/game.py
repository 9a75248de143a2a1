"""A game's page for every kind: the page shell, what a following phone asks for (`/live`
and the event stream), and the one view every kind's moves are posted to. What differs
between kinds comes from the kind's pages (`games.kinds.Pages`)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseForbidden,
    JsonResponse,
    QueryDict,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import page_stream, presence, store
from games.access import (
    Access,
    access_for,
    holds_no_key,
    remember_game,
    remember_seat,
    seat_cookie_name,
    seat_lost,
    seat_taken_back,
)
from games.cache import current_version, hear_other_processes
from games.kinds import kind_of
from games.models import Game
from games.page_stream import Mark, Update
from games.push import hub
from games.web.common import (
    HtmxHttpRequest,
    database_sync_to_async,
    int_or_none,
    ready_watcher_page,
)

# Where the page shell (templates/games/page.html) leaves room for `seat_notice.html`.
SEAT_NOTICE = '<div id="seat-notice"></div>'

# The longest chart-key mark a page sends back (`k`): the marks are 8 characters.
KEY_MARK_CHARS = 16

# Under a WSGI server (Django's development server, the tests' live server) a stream holds a
# thread, so it ends after this long and the browser opens it again by itself.
THREADED_STREAM_SECONDS = 55


@require_GET
def game_page(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    # A watcher's page is the same for every watcher: once rendered for this version, it
    # needs neither the game nor its kind (the phones' offline copies, a QR code's crowd).
    if holds_no_key(request, game_id) and (
        (page := ready_watcher_page(request, game_id)) is not None
    ):
        remember_game(request, page, game_id)
        return page
    game = get_object_or_404(Game, pk=game_id)
    response = kind_of(game).pages.page(request, game, access_for(request, game))
    if (lost := seat_lost(request)) is not None:
        # Into this phone's copy only: a watcher's page is the same for every phone.
        notice = render_to_string("games/seat_notice.html", {"lost": lost}, request)
        response.content = response.content.replace(SEAT_NOTICE.encode(), notice.encode(), 1)
    remember_game(request, response, game.pk)
    return response


@require_GET
def seats_present(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Who is at the table now (`games.presence`): every phone's page asks now and then."""
    game = get_object_or_404(Game, pk=game_id)
    context = {"present": presence.table_presence(game)}
    return render(request, "games/presence.html", context)


@require_GET
def table_screen(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The table screen, for a laptop or a TV in the middle of the table: the watcher's page
    of any kind (the same for everyone, and live), which static/thirty.js and thirty.css show
    in large type, without controls, with the QR code and the short code beside it. Whoever
    opens it, the host too, sees only what every watcher sees."""
    game = get_object_or_404(Game, pk=game_id)
    return kind_of(game).pages.page(request, game, Access())


@require_POST
def move(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Every kind's move from the page: the host's or a seat's phone posts it, the kind reads
    it from the form, plays it through the store and answers with what changed."""
    game = get_object_or_404(Game, pk=game_id)
    access = access_for(request, game)
    pages = kind_of(game).pages
    if not access.host and access.seat is None:
        return HttpResponseForbidden(_(pages.not_yours))
    return pages.move(request, game, access)


@require_GET
def live(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """What a following phone asks every second. Unchanged: an empty answer, and at most
    one query (none on PostgreSQL, which pushes versions)."""
    version = int_or_none(request.GET.get("v"))
    if unchanged(request, game_id, version):
        return HttpResponse(status=204)
    found = store.game_and_rematch(game_id)
    if found is None:
        raise Http404
    game, rematch = found
    access = access_for(request, game)
    if rematch is not None:
        # The host started a rematch: every phone following this game goes along, and the
        # phone that holds a seat takes the same player's seat there.
        return _follow_rematch(request, game, access, rematch)
    update = _update(request, game, access, _mark_of(request.GET, version))
    response = HttpResponse(update.body)
    # The page ignores an update older than what it already shows (a poll that crossed a turn).
    response["X-Thirty-Version"] = str(update.version)
    if access.host or access.seat is not None:
        # A seat's update holds its hand or its turn form, the host's its controls.
        add_never_cache_headers(response)
    return response


# The game's version as this request read it (`unchanged`), for the request's own later look.
CURRENT_VERSION = "thirty_current_version"


def unchanged(request: HttpRequest, game_id: str, version: int | None) -> bool:
    """Whether the game is still at the version a poll says it shows (`?v=`). An unknown or
    deleted game is a 404. Read once per request: a changed game's poll passes through
    `UnchangedLiveMiddleware` and then the view, which both ask."""
    known: tuple[str, int] | None = request.__dict__.get(CURRENT_VERSION)
    if known is not None and known[0] == game_id:
        current: int | None = known[1]
    else:
        current = current_version(game_id)
        if current is None:
            raise Http404
        request.__dict__[CURRENT_VERSION] = (game_id, current)
    return version == current


def _follow_rematch(
    request: HtmxHttpRequest, game: Game, access: Access, rematch_id: str
) -> HttpResponse:
    response = HttpResponseClientRedirect(reverse("game", args=[rematch_id]))
    if access.seat is None:
        return response
    new = Game.objects.get(pk=rematch_id)
    key = request.COOKIES.get(seat_cookie_name(game), "")
    taken = store.take_rematch_seat(game, access.seat, key, new)
    if taken is not None:
        remember_seat(response, new, taken[1])
    return response


def _mark_of(query: QueryDict, version: int | None) -> Mark:
    """What the page says it shows, from the marks of its poll (`?v=..&n=..&t=..&k=..`)."""
    count = int_or_none(query.get("n")) or 0
    key = query.get("k", "")[:KEY_MARK_CHARS]
    return Mark(-1 if version is None else version, count, int_or_none(query.get("t")), key)


def _update(request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
    """What is new for this follower since `mark`: for `/live` and for the page's stream. A
    phone whose seat the host just took, or whose turn the host took back, is told so with
    it."""
    update = kind_of(game).pages.update(request, game, access, mark)
    context: dict[str, object] = {"oob": True}
    if (lost := seat_lost(request)) is not None:
        context["lost"] = lost
    elif not access.host and (taken_back := seat_taken_back(request, mark.version)) is not None:
        context["taken_back"] = taken_back
    if len(context) > 1:
        notice = render_to_string("games/seat_notice.html", context, request)
        update = dataclasses.replace(update, body=update.body + notice)
    return update


@require_GET
async def events(request: HttpRequest, game_id: str) -> HttpResponseBase:
    """The game's version as server-sent events: the current one at once, then one event per
    change, and a comment line as a heartbeat when nothing happens, so proxies keep the
    stream open. Every event is `id: N`, `event: version`, `data: {"version": N}`; the page
    then asks `live` for what is new, and a program `GET /api/games/{id}`. A game page that
    says what it shows (`/g/<id>/events?v=..&n=..&t=..&k=..`) is sent the updates themselves
    instead (games/page_stream.py).

    Under ASGI an open stream is a coroutine waiting on the process's hub (games/push.py):
    no thread and no query while nothing happens."""
    hear_other_processes()
    threaded = isinstance(request, WSGIRequest)
    # Not in the thread Django makes for this request (its database connection would stay
    # open there after the thread is gone), but in the shared pool.
    read_async = partial(database_sync_to_async(current_version), game_id)
    read = partial(_version_then_let_go, game_id)
    # Read here to answer a game that is not there; the stream reads it again once it
    # waits for changes (games/push.py).
    version = await (sync_to_async(read)() if threaded else read_async())
    if version is None:
        if request.path.startswith("/api/"):
            return JsonResponse({"error": _("There is no such game.")}, status=404)
        raise Http404
    # Only the page's stream, and only when asked: the API's events stay versions.
    page = request.resolver_match is not None and request.resolver_match.url_name == "events"
    shown = int_or_none(request.GET.get("v")) if page else None
    stream: Iterator[bytes] | AsyncIterator[bytes]
    if shown is not None:
        follower = await sync_to_async(_Follower.of, thread_sensitive=not threaded)(
            request, game_id
        )
        mark = _mark_of(request.GET, shown)
        if threaded:
            versions = hub.versions_sync(game_id, read, seconds=THREADED_STREAM_SECONDS)
            stream = page_stream.stream_sync(mark, versions, follower.make_here)
            if follower.seat is not None:  # a seat's phone: the table sees it is here
                stream = presence.beating_sync(stream, game_id, follower.seat)
        else:
            stream = page_stream.stream(mark, hub.versions(game_id, read_async), follower.make)
            if follower.seat is not None:
                stream = presence.beating(stream, game_id, follower.seat)
    elif threaded:
        stream = _threaded_stream(game_id, read)
    else:
        stream = _stream(game_id, read_async)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _version_then_let_go(game_id: str) -> int | None:
    """The version, read in the request's own thread, which then streams for a while and
    needs no database connection meanwhile."""
    try:
        return current_version(game_id)
    finally:
        connection.close()


async def _stream(game_id: str, read: Callable[[], Awaitable[int | None]]) -> AsyncIterator[bytes]:
    yield page_stream.RETRY
    async for new in hub.versions(game_id, read):
        yield page_stream.HEARTBEAT if new is None else page_stream.version_event(new)


def _threaded_stream(game_id: str, read: Callable[[], int | None]) -> Iterator[bytes]:
    yield page_stream.RETRY
    for new in hub.versions_sync(game_id, read, seconds=THREADED_STREAM_SECONDS):
        yield page_stream.HEARTBEAT if new is None else page_stream.version_event(new)


@dataclass(frozen=True)
class _Follower:
    """Whoever holds a page's stream open, and how their updates are made."""

    request: HtmxHttpRequest
    game_id: str
    language: str
    # Who the page was opened as. A watcher stays one (claiming a seat reloads the page); a
    # seat or the host is checked again at every change, so that a seat link the host has
    # replaced stops showing that hand at once.
    watcher: bool
    seat: int | None  # the seat this phone held when it opened the stream

    @classmethod
    def of(cls, request: HttpRequest, game_id: str) -> _Follower:
        try:
            game = Game.objects.filter(pk=game_id).first()
            access = Access() if game is None else access_for(request, game)
        finally:
            connection.close()
        watcher = not access.host and access.seat is None
        language = translation.get_language() or settings.LANGUAGE_CODE
        return cls(cast(HtmxHttpRequest, request), game_id, language, watcher, access.seat)

    async def make(self, mark: Mark) -> page_stream.Pushed | None:
        build = database_sync_to_async(self._build)
        if not self.watcher:
            return await build(mark)
        # Every watcher's stream at the same mark wants the same update: made once per event
        # loop, and a stream that goes away meanwhile does not cancel it for the others.
        key = (self.game_id, hub.latest(self.game_id), mark, self.language)
        return await asyncio.shield(page_stream.flights().get(key, lambda: build(mark)))

    def make_here(self, mark: Mark) -> page_stream.Pushed | None:
        try:
            return self._build(mark)
        finally:
            connection.close()  # the stream's thread holds no connection while it waits

    def _build(self, mark: Mark) -> page_stream.Pushed | None:
        with translation.override(self.language):
            found = store.game_and_rematch(self.game_id)
            if found is None or found[1] is not None:
                return None  # the page's poll says so (a rematch takes the phone along)
            game = found[0]
            access = Access() if self.watcher else access_for(self.request, game)
            return page_stream.pushed(_update(self.request, game, access, mark), mark)
