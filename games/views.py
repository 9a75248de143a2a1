"""The pages: home and history, a game's sheet, the turn form, undo, rematch, seat and host
links, export and import, and the QR code.

Each view parses, checks access, calls `games.store` (which calls the rules) and renders.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any, cast

import segno
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signing
from django.core.handlers.wsgi import WSGIRequest
from django.core.paginator import Paginator
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    HttpResponseForbidden,
    JsonResponse,
    QueryDict,
    StreamingHttpResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games import chances, claims, guesses, kinds, page_stream, rules, store, transfer
from games.access import (
    Access,
    access_for,
    host_cookie_name,
    is_host,
    my_game_ids,
    remember_game,
    remember_host,
    remember_seat,
    seat_for_key,
)
from games.cache import cached, current_version, hear_other_processes
from games.card_replay import replay_step
from games.charts import render_card_chart, render_chart, render_results
from games.describe import card_rules_summary, rules_summary
from games.explain import turn_summary
from games.forms import CreateGameForm
from games.history import GAMES, HistoryFilter, history_entries, played_games
from games.kinds import kind_of, offers
from games.lineups import read_lineup, recent_lineups
from games.links import public_url
from games.models import Game, Seat
from games.page_stream import Mark, Update
from games.players import MergeRefused, merge_plan, player_stats
from games.push import hub
from games.rules import chance
from games.rules import dice as dice_rules
from games.rules.dice import rolled
from games.sheet import Sheet, full_sheet, sheet_of, sheet_since
from games.table import Table, build_table, parse_move
from games.table_dice import phone_parts, table_dice_check
from games.translate import rule_error_message
from games.tray import before_roll_chance, recap_of, tray_of, undone_turns
from games.uploads import too_large, upload_limit

HISTORY_PAGE_SIZE = 20
MAX_GAME_NAME = 80
MY_GAMES_SHOWN = 8
# Under a WSGI server (Django's development server, the tests' live server) a stream holds a
# thread, so it ends after this long and the browser opens it again by itself.
THREADED_STREAM_SECONDS = 55
CSRF_PLACEHOLDER = "csrf-token-placeholder-7f3a9c"


def poll_seconds(*, finished: bool) -> str:
    """How often a game's page polls when its stream does not get through (THIRTY_POLL_SECONDS),
    as htmx reads it: a finished game changes only by an undo, so it polls a fifth as often.
    Formatted here, since a template would write a decimal comma in Danish."""
    seconds = float(settings.THIRTY_POLL_SECONDS) * (5 if finished else 1)
    return f"{seconds:g}"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_http_methods(["GET", "POST"])
def home(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        players = request.POST.getlist("player")
        # One "seat_kind" per row, so the computer seats move with their rows.
        kinds = request.POST.getlist("seat_kind")
        computers = [kind == "computer" for kind in kinds[: len(players)]]
        computers += [False] * (len(players) - len(computers))
        players, computers = _edit_player_list(players, computers, request.POST)
        form = CreateGameForm(request.POST, players=players, computers=computers)
        if "create" in request.POST and form.is_valid():
            if form.card_rules is not None:
                game, host_key = store.create_card_game(
                    form.game_name(), form.seats(), form.card_rules
                )
            else:
                assert form.ruleset is not None
                game, host_key = store.create_game(
                    form.game_name(),
                    form.cleaned_players,
                    form.ruleset,
                    computers=[seat for seat, c in enumerate(form.cleaned_computers) if c],
                    table_dice=bool(form.cleaned_data.get("table_dice")),
                )
            response = redirect(reverse("game", args=[game.pk]) + "?new=1")
            remember_host(response, game, host_key)
            remember_game(request, response, game.pk)
            return response
        if "create" not in request.POST:
            form = CreateGameForm(
                initial=_initial(request.POST), players=players, computers=computers
            )
    else:
        form = CreateGameForm(players=None)
    # The estimate of the game's length under the rules, drawn with the form (htmx then
    # refreshes it whenever an option changes).
    query = request.POST if request.method == "POST" else QueryDict()
    form.estimate = chances.estimate_context(chances.read_query(query, len(form.players)))
    form.lineups = recent_lineups()
    if request.htmx and request.method == "POST":
        return render(request, "games/create_form.html", {"form": form})
    mine = my_game_ids(request)
    my_games = sorted(Game.objects.filter(pk__in=mine), key=lambda game: mine.index(game.pk))[
        :MY_GAMES_SHOWN
    ]
    page = Paginator(played_games().order_by("-created_at", "pk"), HISTORY_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    deleted = None
    if (gone := request.GET.get("deleted")) and is_host_of_deleted(request, gone):
        deleted = Game.everything.filter(pk=gone).first()
    return render(
        request,
        "home.html",
        {
            "form": form,
            "page": page,
            "history": history_entries(list(page.object_list)),
            "my_history": history_entries(my_games),
            "deleted": deleted,
            "restore_minutes": store.RESTORE_MINUTES,
        },
    )


@require_GET
def history(request: HtmxHttpRequest) -> HttpResponse:
    """Every game played, searched by player, kind, status and date, a page at a time."""
    search = HistoryFilter(request.GET or None)
    page = Paginator(search.games(), HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/history.html",
        {
            "search": search,
            "page": page,
            "history": history_entries(list(page.object_list)),
            "query": query.urlencode(),
        },
    )


def is_host_of_deleted(request: HtmxHttpRequest, game_id: str) -> bool:
    game = Game.everything.filter(pk=game_id, deleted_at__isnull=False).first()
    return game is not None and is_host(request, game)


@require_http_methods(["GET", "POST"])
def rename(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can rename this game."))
    error = None
    if request.method == "POST":
        name = " ".join(request.POST.get("name", "").split())
        if 1 <= len(name) <= MAX_GAME_NAME:
            store.rename_game(game.pk, name)
            return redirect("game", game.pk)
        error = _("A game’s name is 1 to %(most)s characters.") % {"most": MAX_GAME_NAME}
    return render(request, "games/rename.html", {"game": game, "error": error})


@require_http_methods(["GET", "POST"])
def delete(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can delete this game."))
    if request.method == "GET":
        return render(
            request,
            "games/delete_confirm.html",
            {"game": game, "restore_minutes": store.RESTORE_MINUTES},
        )
    store.delete_game(game.pk)
    return redirect(reverse("home") + f"?deleted={game.pk}")


@require_POST
def restore(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game.everything, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can restore this game."))
    try:
        store.restore_game(game.pk)
    except Game.DoesNotExist:
        return render(request, "games/restore_late.html", {"game": game}, status=410)
    return redirect("game", game.pk)


def _initial(post: Any) -> dict[str, Any]:
    skip = ("player", "seat_kind", "csrfmiddlewaretoken")
    return {key: post.get(key) for key in post if key not in skip}


def _edit_player_list(
    players: list[str], computers: list[bool], post: Any
) -> tuple[list[str], list[bool]]:
    """Add, remove and reorder rows of the player list, or fill it with a recent line-up, so
    the form works without scripts."""
    rows = list(zip(players, computers, strict=True))
    if (lineup := read_lineup(post.get("lineup"))) is not None:
        rows = lineup
    if "add" in post and len(rows) < dice_rules.MAX_PLAYERS:
        rows.append(("", False))
    # Not "remove": a form's field of that name hides the form's own remove(), which htmx
    # calls to swap the form out.
    index = _row_index(post.get("drop"))
    if index is not None and 0 <= index < len(rows):
        rows.pop(index)
    index = _row_index(post.get("up"))
    if index is not None and 0 < index < len(rows):
        rows[index - 1], rows[index] = rows[index], rows[index - 1]
    return [name for name, _ in rows], [computer for _, computer in rows]


def _row_index(raw: str | None) -> int | None:
    """A row of the player list: a few ASCII digits ("²" and a 5,000-digit number pass
    `isdigit()` and fail `int()`)."""
    if raw is None or not (raw.isascii() and raw.isdigit() and len(raw) <= 2):
        return None
    return int(raw)


@require_GET
def game_page(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    access = access_for(request, game)
    if game.is_cards:
        response = _card_page(request, game, access)
        remember_game(request, response, game.pk)
        return response
    if not access.host and access.seat is None:
        response = _watcher_page(request, game)
        remember_game(request, response, game.pk)
        return response
    sheet, table = _page_sheet(game)
    context = _game_context(request, sheet, access) | {"sheet_table": table}
    if access.host:
        context["seat_links"], context["host_link"] = _host_links(request, game)
        # Until the table has joined, sharing the game is the host's first job.
        context["share_first"] = sheet.turn_count == 0 and not any(
            link.joined for link in context["seat_links"]
        )
    response = render(request, "games/game.html", context)
    remember_game(request, response, game.pk)
    if access.host:
        # The host's page shows the seat links and the host link: keys no cache may keep.
        add_never_cache_headers(response)
    return response


def _host_links(request: HtmxHttpRequest, game: Game) -> tuple[list[SeatLink], str]:
    """What the host hands out, for every kind of game: each seat's own link (not the
    computer's), marked once a phone has opened or claimed it, and the host link."""
    key = request.COOKIES.get(host_cookie_name(game), "")
    claim_seat = public_url(request, reverse("claim_seat", args=[game.pk]))
    links = [
        SeatLink(link.position, link.name, f"{claim_seat}#{link.key}", joined=link.joined)
        for link in claims.seat_link_keys(game, key)
    ]
    claim_host = public_url(request, reverse("claim_host", args=[game.pk]))
    return links, f"{claim_host}#{key}"


@dataclass(frozen=True)
class SeatLink:
    """A seat's own link for the host to hand out, and whether a phone has opened it."""

    position: int
    name: str
    url: str
    joined: bool


@require_GET
def live(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """What a following phone asks every second. Unchanged: an empty answer, and at most
    one query (none on PostgreSQL, which pushes versions)."""
    version = _int_or_none(request.GET.get("v"))
    current = current_version(game_id)
    if current is None:
        raise Http404
    if version == current:
        return HttpResponse(status=204)
    game = get_object_or_404(Game, pk=game_id)
    if (rematch := store.rematch_of(game)) is not None:
        # The host started a rematch: every phone following this game goes along.
        return HttpResponseClientRedirect(reverse("game", args=[rematch]))
    access = access_for(request, game)
    update = _update(request, game, access, _mark_of(request.GET, version))
    response = HttpResponse(update.body)
    # The page ignores an update older than what it already shows (a poll that crossed a turn).
    response["X-Thirty-Version"] = str(update.version)
    if access.host or access.seat is not None:
        # A seat's update holds its hand or its turn form, the host's its controls.
        add_never_cache_headers(response)
    return response


def _mark_of(query: QueryDict, version: int | None) -> Mark:
    """What the page says it shows, from the marks of its poll (`?v=..&n=..&t=..`)."""
    count = _int_or_none(query.get("n")) or 0
    return Mark(-1 if version is None else version, count, _int_or_none(query.get("t")))


def _update(request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
    """What is new for this follower since `mark`: for `/live` and for the page's stream."""
    if game.is_cards:
        return _card_update(request, game, access)
    count, last = mark.count, mark.last
    if access.host or access.seat is not None:
        sheet, replace = sheet_since(game, count, last)
        extra = {}
        if access.seat is not None and not replace:
            # A seat's phone only enters its own turns, so a new row of this seat's that the
            # phone did not send was entered by the host: say so rather than reset silently.
            own = [row for row in sheet.rows if row.cells[access.seat].rolled]
            if own:
                extra["entered_for_you"] = own[-1].total
        response = _render_update(request, sheet, replace=replace, access=access, extra=extra)
        return _sheet_update(response, sheet, replace)

    # Every watcher asks for the same change at about the same moment: build it once.
    def build() -> Update:
        sheet, replace = sheet_since(game, count, last)
        response = _render_update(request, sheet, replace=replace, access=Access())
        return _sheet_update(response, sheet, replace)

    return cached(("update", game.pk, game.version, mark.version, count, last), build)


def _sheet_update(response: HttpResponse, sheet: Sheet, replace: bool) -> Update:
    return Update(
        response.content.decode(),
        sheet.game.version,
        sheet.turn_count,
        sheet.last_turn_id,
        whole=replace,
    )


@require_GET
async def events(request: HttpRequest, game_id: str) -> HttpResponseBase:
    """The game's version as server-sent events: the current one at once, then one event per
    change, and a comment line as a heartbeat when nothing happens, so proxies keep the
    stream open. Every event is `id: N`, `event: version`, `data: {"version": N}`; the page
    then asks `live` for what is new, and a program `GET /api/games/{id}`. A game page that
    says what it shows (`/g/<id>/events?v=..&n=..&t=..`) is sent the updates themselves
    instead (games/page_stream.py).

    Under ASGI an open stream is a coroutine waiting on the process's hub (games/push.py):
    no thread and no query while nothing happens."""
    hear_other_processes()
    threaded = isinstance(request, WSGIRequest)
    if threaded:
        version = await sync_to_async(_version_then_let_go)(game_id)
    else:
        # Not in the thread Django makes for this request (its database connection would
        # stay open there after the thread is gone), but in the shared pool.
        version = await sync_to_async(current_version, thread_sensitive=False)(game_id)
    if version is None:
        if request.path.startswith("/api/"):
            return JsonResponse({"error": _("There is no such game.")}, status=404)
        raise Http404
    # Only the page's stream, and only when asked: the API's events stay versions.
    page = request.resolver_match is not None and request.resolver_match.url_name == "events"
    shown = _int_or_none(request.GET.get("v")) if page else None
    stream: Iterator[bytes] | AsyncIterator[bytes]
    if shown is not None:
        follower = await sync_to_async(_Follower.of, thread_sensitive=not threaded)(
            request, game_id
        )
        mark = _mark_of(request.GET, shown)
        if threaded:
            versions = hub.versions_sync(game_id, version, seconds=THREADED_STREAM_SECONDS)
            stream = page_stream.stream_sync(mark, versions, follower.make_here)
        else:
            stream = page_stream.stream(mark, hub.versions(game_id, version), follower.make)
    elif threaded:
        stream = _threaded_stream(game_id, version)
    else:
        stream = _stream(game_id, version)
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


async def _stream(game_id: str, version: int) -> AsyncIterator[bytes]:
    yield page_stream.RETRY
    async for new in hub.versions(game_id, version):
        yield page_stream.HEARTBEAT if new is None else page_stream.version_event(new)


def _threaded_stream(game_id: str, version: int) -> Iterator[bytes]:
    yield page_stream.RETRY
    for new in hub.versions_sync(game_id, version, seconds=THREADED_STREAM_SECONDS):
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

    @classmethod
    def of(cls, request: HttpRequest, game_id: str) -> _Follower:
        try:
            game = Game.objects.filter(pk=game_id).first()
            access = Access() if game is None else access_for(request, game)
        finally:
            connection.close()
        watcher = not access.host and access.seat is None
        language = translation.get_language() or settings.LANGUAGE_CODE
        return cls(cast(HtmxHttpRequest, request), game_id, language, watcher)

    async def make(self, mark: Mark) -> page_stream.Pushed | None:
        build = sync_to_async(self._build, thread_sensitive=False)
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
            game = Game.objects.filter(pk=self.game_id).first()
            if game is None or store.rematch_of(game) is not None:
                return None  # the page's poll says so (a rematch takes the phone along)
            access = Access() if self.watcher else access_for(self.request, game)
            return page_stream.pushed(_update(self.request, game, access, mark), mark)


@require_POST
def turn(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    access = access_for(request, game)
    if not access.host and access.seat is None:
        return HttpResponseForbidden(_("Only the host can enter turns in this game."))
    answers, error = _parse_turn(request.POST)
    version = _int_or_none(request.POST.get("v"))
    question: dice_rules.Question | None = None
    if error is None:
        try:
            position = store.load_position(game)
            if not access.may_play(game, position):
                raise store.NotYourTurnError
            question = position.ask(answers["total"], answers["heal"], answers["target"])
            if question is None or (
                question.step is dice_rules.Step.HUNT and answers["hunt"] is not None
            ):
                recorded = store.record_turn(
                    game.pk,
                    dice_rules.Turn(
                        answers["total"], answers["hunt"], answers["target"], bool(answers["heal"])
                    ),
                    version=version,
                    # Loaded after the game was read at this version: still good if it holds.
                    known=position if version == game.version else None,
                    seat=None if access.host else access.seat,
                    part=request.POST.get("part"),
                )
                if not request.htmx:
                    return redirect("game", game.pk)
                sheet, replace = sheet_since(
                    recorded.game,
                    _int_or_none(request.POST.get("n")) or 0,
                    _int_or_none(request.POST.get("t")),
                    recorded.position,
                )
                names = [seat.name for seat in sheet.seats]
                confirmation = turn_summary(recorded.row, names, sheet.ruleset)
                return _render_update(
                    request,
                    sheet,
                    replace=replace,
                    access=access,
                    extra={"confirmation": confirmation},
                )
        except rules.RuleError as rule_error:
            error = rule_error_message(rule_error)
            answers = dict.fromkeys(answers)  # start the turn again
            question = None
        except store.StaleVersionError:
            error = _(
                "Someone else changed the game first. Check the sheet and enter the turn again."
            )
            answers = dict.fromkeys(answers)
            question = None
        except store.NotYourTurnError:
            error = _("It is not your turn. Your turn form appears here when it is.")
            answers = dict.fromkeys(answers)
            question = None
        except store.TurnInProgressError:
            error = _("The app is rolling this turn: finish it with the dice shown.")
            answers = dict.fromkeys(answers)
            question = None
    game.refresh_from_db()
    sheet, table = _page_sheet(game)
    context = _game_context(request, sheet, access, question, answers) | {
        "turn_error": error,
        "sheet_table": table,
    }
    if request.htmx:
        # htmx swaps only successful answers; the panel carries the error sentence itself.
        return render(request, "games/turn_panel.html", context | {"oob": True})
    return render(request, "games/game.html", context, status=422 if error else 200)


def _parse_turn(post: Any) -> tuple[dict[str, Any], str | None]:
    answers: dict[str, Any] = {"total": None, "heal": None, "target": None, "hunt": None}
    for key in ("total", "hunt", "target"):
        raw = post.get(key)
        if raw in (None, ""):
            continue
        value = _int_or_none(raw)
        if value is None:
            return dict.fromkeys(answers), _("“%(value)s” is not a number.") % {"value": raw[:10]}
        answers[key] = value
    if answers["target"] is not None:
        answers["target"] -= 1  # seats are numbered from 1 on the page
    action = post.get("action")
    if action in (dice_rules.ATTACK, dice_rules.HEAL):
        answers["heal"] = action == dice_rules.HEAL
    return answers, None


@require_POST
def roll(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """One step of a turn with dice the app rolls, from the roller's phone or the host's."""
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    access = access_for(request, game)
    if not access.host and access.seat is None:
        return HttpResponseForbidden(_("Only the host can enter turns in this game."))
    action, error = _parse_roll(request.POST, game)
    if action is not None:
        try:
            done = store.roll(
                game.pk,
                action,
                version=_int_or_none(request.POST.get("v")),
                seat=None if access.host else access.seat,
                part=request.POST.get("part"),
            )
        except rules.RuleError as rule_error:
            error = rule_error_message(rule_error)
        except store.StaleVersionError:
            error = _("Someone else changed the game first. Look at the dice and choose again.")
        except store.NotYourTurnError:
            error = _("It is not your turn. Your turn form appears here when it is.")
        else:
            if not request.htmx:
                return redirect("game", game.pk)
            recorded = done if isinstance(done, store.Recorded) else None
            sheet, replace = sheet_since(
                recorded.game if recorded else cast(Game, done),
                _int_or_none(request.POST.get("n")) or 0,
                _int_or_none(request.POST.get("t")),
                recorded.position if recorded else None,
            )
            extra: dict[str, Any] = {"cooldown": True}
            if recorded is not None:
                names = [seat.name for seat in sheet.seats]
                extra["confirmation"] = turn_summary(recorded.row, names, sheet.ruleset)
            return _render_update(request, sheet, replace=replace, access=access, extra=extra)
    game.refresh_from_db()
    sheet, table = _page_sheet(game)
    context = _game_context(request, sheet, access) | {"turn_error": error, "sheet_table": table}
    if request.htmx:
        return render(request, "games/turn_panel.html", context | {"oob": True})
    return render(request, "games/game.html", context, status=422)


def _parse_roll(post: Any, game: Game) -> tuple[rolled.Action | None, str | None]:
    """The step a roll form sent. The dice to set aside come as their places in the last
    roll (checkboxes), or as faces from a hint ("6,6"); the server never takes a die's face
    from the form in any other way."""
    act = post.get("act")
    if act == "roll":
        return rolled.Action(), None
    if act == "hunt":
        return rolled.Action(hunt=True), None
    if act == "stop":
        return rolled.Action(stop=True), None
    if act in ("heal", "attack"):
        return rolled.Action(heal=act == "heal"), None
    if (target := _int_or_none(post.get("target"))) is not None:
        return rolled.Action(target=target - 1, hunt=True), None
    if faces := post.get("faces"):
        keep = [_int_or_none(face) for face in faces.split(",")[:6]]
        if None in keep:
            return None, _("Set aside only dice from the last roll.")
        return rolled.Action(keep=tuple(cast(list[int], keep))), None
    if act == "keep":
        last = (game.rolling or {}).get("rolls", [{}])[-1].get("dice", [])
        places = {_int_or_none(raw) for raw in post.getlist("keep")}
        if not places:
            return None, _("Set aside at least one die.")
        if not places <= set(range(len(last))):
            return None, _("Set aside only dice from the last roll.")
        chosen = sorted(place for place in places if place is not None)
        return rolled.Action(keep=tuple(last[place] for place in chosen)), None
    return None, _("That is not a choice in this turn now.")


@require_http_methods(["GET", "POST"])
def undo(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can undo turns in this game."))
    if request.method == "GET":
        # Without scripts the confirmation is a page of its own.
        return render(request, "games/undo_confirm.html", {"sheet": full_sheet(game)})
    try:
        store.undo_last_turn(game.pk, version=_int_or_none(request.POST.get("v")))
    except rules.RuleError as error:
        # Nothing to undo, or a turn the app rolled, which stays (the undo policy).
        sheet = full_sheet(game)
        refused = rule_error_message(error) if sheet.turn_count else None
        context = {"sheet": sheet, "refused": refused}
        return render(request, "games/undo_confirm.html", context, status=422)
    except (store.StaleVersionError, store.TurnInProgressError):
        pass  # someone else changed the game first: the fresh sheet shows what
    if not request.htmx:
        return redirect("game", game.pk)
    game.refresh_from_db()
    return _render_update(request, full_sheet(game), replace=True, access=Access(host=True))


@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can start a rematch."))
    if (existing := store.rematch_of(game)) is not None:
        # A second tap, or a second browser of the host's: one rematch, and everyone in it.
        return _go_to(request, existing)
    new_game, host_key = store.start_rematch(game, kind_of(game).rematch)
    response = _go_to(request, new_game.pk)
    remember_host(response, new_game, host_key)
    return response


def _go_to(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    url = reverse("game", args=[game_id])
    # A live update carries no per-person token, so its button posts through htmx.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@never_cache
@require_http_methods(["GET", "POST"])
def claim_host(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host link: the key travels in the address's #fragment, which browsers never send,
    so it appears in no server log; the page posts it back once."""
    game = get_object_or_404(Game, pk=game_id)
    if request.method == "POST":
        key = request.POST.get("key", "").strip()
        if game.check_host_key(key):
            response = redirect("game", game.pk)
            remember_host(response, game, key)
            return response
        if guesses.blocked(request):
            return guesses.too_many(request)
        guesses.wrong_guess(request)
        return render(
            request,
            "games/claim_host.html",
            {"game": game, "error": _("That host key does not belong to this game.")},
            status=403,
        )
    return render(request, "games/claim_host.html", {"game": game})


@never_cache
@require_http_methods(["GET", "POST"])
def claim_seat(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A player's seat link: like the host link, its key travels after the '#'. A card
    game's link claims the seat once, and this phone gets a key of its own."""
    game = get_object_or_404(Game, pk=game_id)
    context: dict[str, Any] = {"game": game, "seat_claim": True}
    if request.method == "POST":
        key = request.POST.get("key", "").strip()
        if offers(game, kinds.CLAIM):
            try:
                _position, key = store.claim_seat(game.pk, None, key)
            except store.SeatTakenError:
                # A race lost to another phone, or a link opened again: no guess.
                context["taken"] = True
                return render(request, "games/claim_host.html", context, status=403)
            except store.BadKeyError:
                pass
            else:
                response = redirect("game", game.pk)
                remember_seat(response, game, key)
                return response
        elif (position := seat_for_key(game, key)) is not None:
            store.seat_joined(game, position)
            response = redirect("game", game.pk)
            remember_seat(response, game, key)
            return response
        if guesses.blocked(request):
            return guesses.too_many(request)
        guesses.wrong_guess(request)
        context["error"] = _("That seat link does not belong to this game.")
        return render(request, "games/claim_host.html", context, status=403)
    return render(request, "games/claim_host.html", context)


@require_POST
def seats_play(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host lets players enter their own turns from their phones, or stops them."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can change who enters turns."))
    store.allow_seats_to_play(game.pk, allowed=request.POST.get("allowed") == "on")
    return redirect("game", game.pk)


@require_POST
def hints(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host shows the odds of each choice to the roller, or hides them."""
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can switch the hints on or off."))
    store.show_hints(game.pk, shown=request.POST.get("shown") == "on")
    return redirect("game", game.pk)


@require_GET
def qr_code(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The game's QR code; with `?seat=N` (seats from 1), that seat's own link, for the host."""
    game = get_object_or_404(Game, pk=game_id)
    url = public_url(request, reverse("game", args=[game.pk]))
    private = False
    if (seat := _int_or_none(request.GET.get("seat"))) is not None:
        if not is_host(request, game) or not 1 <= seat <= game.seats.count():
            return HttpResponseForbidden(_("Only the host can show a seat's link."))
        key = request.COOKIES.get(host_cookie_name(game), "")
        links = claims.seat_link_keys(game, key)
        link = next((link for link in links if link.position == seat - 1), None)
        if link is None:
            raise Http404  # the computer's seat has no link
        url = public_url(request, reverse("claim_seat", args=[game.pk])) + "#" + link.key
        private = True
    svg = io.BytesIO()
    # A standalone file with its XML namespace (segno's inline form has none), so <img> shows it.
    segno.make(url, error="m").save(
        svg, kind="svg", scale=6, dark="#1d2b36", light="#ffffff", border=2, xmldecl=False
    )
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    if private:
        response["Cache-Control"] = "no-store"
    return response


@require_GET
def chart(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The sheet's chart as an SVG picture, drawn once per version and language.

    The page links it with the version in the address, so a browser may keep that answer
    for good; an address without the current version is answered fresh."""
    version = current_version(game_id)
    if version is None:
        raise Http404

    size = "narrow" if request.GET.get("size") == "narrow" else "wide"
    upto = _int_or_none(request.GET.get("turn"))

    def build() -> str:
        game = get_object_or_404(Game, pk=game_id)
        if game.is_cards:
            return _card_chart(game, upto, size)
        snapshot = store.load_snapshot(game)
        if upto is not None:
            snapshot = store.up_to(snapshot, max(0, upto))
        return render_chart(snapshot, size)

    response = HttpResponse(cached(("chart", game_id, version, size, upto), build), "image/svg+xml")
    if request.GET.get("v") == str(version):
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response["Cache-Control"] = "no-cache"
    # A picture: no scripts, and only the styles it carries.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


def _card_chart(game: Game, upto: int | None, size: str) -> str:
    """A card game's tokens after each deal (the first `upto` deals, for a replay's step);
    the winner's line is marked once the last deal is drawn."""
    names, rows = store.load_cells(game)
    cell_rows = [cells for _, cells in rows]
    drawn = cell_rows if upto is None else cell_rows[: max(0, upto)]
    winners: tuple[int, ...] = ()
    if len(drawn) == len(cell_rows):
        sums = [sum(column) for column in zip(*cell_rows, strict=True)] or [0] * len(names)
        standing = kind_of(game).standing(game, sums)
        winners = standing.winners if standing.finished else ()
    return render_card_chart(names, game.card_rules.tokens, drawn, winners, size)


@require_GET
def replay(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A finished game turn by turn (a card game deal by deal): the sheet and the chart as
    they stood after a turn."""
    game = get_object_or_404(Game, pk=game_id)
    if game.is_cards:
        return _card_replay(request, game)
    snapshot = store.load_snapshot(game)
    total = len(snapshot.rows)
    if not snapshot.position.finished:
        return redirect("game", game.pk)
    step = _int_or_none(request.GET.get("turn"))
    step = total if step is None else min(max(step, 0), total)
    sheet = sheet_of(store.up_to(snapshot, step))
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "sheet": sheet,
            "step": step,
            "total": total,
            "row": sheet.rows[-1] if sheet.rows else None,
        },
    )


def _card_replay(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A finished card game deal by deal, every hand shown: the seed is public by then."""
    if not game.finished:
        return redirect("game", game.pk)
    stories = cached(("card-deals", game.pk, game.version), lambda: store.card_deals(game))
    if not stories:
        return redirect("game", game.pk)
    names = list(Seat.objects.filter(game=game).order_by("position").values_list("name", flat=True))
    sums = [sum(story.record.cells[seat] for story in stories) for seat in range(len(names))]
    winners = kind_of(game).standing(game, sums).winners
    wanted = _int_or_none(request.GET.get("deal"))
    number = 1 if wanted is None else min(max(wanted, 1), len(stories))
    step = replay_step(stories, names, game.card_rules.tokens, number, winners)
    return render(request, "games/card_replay.html", {"game": game, "step": step})


@require_GET
def player(request: HtmxHttpRequest, name: str) -> HttpResponse:
    """One player across every game they sat in, matched by name ignoring case."""
    stats = player_stats(name)
    if stats is None:
        raise Http404
    kinds = dict(GAMES)
    merged = None
    with suppress(signing.BadSignature):
        merged = signing.loads(request.GET.get("merged", ""), salt=MERGED_SALT, max_age=600)
    return render(
        request,
        "games/player.html",
        {
            "stats": stats,
            "total": stats.all,
            "kinds": [(kinds.get(kind.kind, kind.kind), kind) for kind in stats.kinds.values()],
            "recent": list(reversed(stats.results[-10:])),
            "chart_key": sum(result.game.version for result in stats.results),
            "merged": merged,
        },
    )


# The player's page says what a merge did from a signed note in its address, so that a
# reload neither merges again nor lets a made-up address claim a merge that never happened.
MERGED_SALT = "thirty-merged"
MERGED_GAMES_NAMED = 5


@require_http_methods(["GET", "POST"])
def merge_player(request: HtmxHttpRequest, name: str) -> HttpResponse:
    """Merge another spelling of a player's name into this one, after a confirmation page
    that says which games change and which keep both names."""
    stats = player_stats(name)
    if stats is None:
        raise Http404
    other = (request.POST if request.method == "POST" else request.GET).get("other", "")
    try:
        plan = merge_plan(stats.name, other)
    except MergeRefused as refused:
        context = {"stats": stats, "other": other[:40], "error": str(refused)}
        return render(request, "games/merge_confirm.html", context, status=422)
    if request.method == "GET":
        return render(request, "games/merge_confirm.html", {"stats": stats, "plan": plan})
    merged = store.merge_names(plan.name, plan.other)
    note = {
        "other": plan.other,
        "changed": merged.changed,
        "skipped": [{"pk": game.pk, "name": game.name} for game in merged.skipped][
            :MERGED_GAMES_NAMED
        ],
        "more": max(0, len(merged.skipped) - MERGED_GAMES_NAMED),
    }
    token = signing.dumps(note, salt=MERGED_SALT)
    return redirect(reverse("player", args=[plan.name]) + f"?merged={token}")


@require_GET
def player_chart(request: HtmxHttpRequest, name: str) -> HttpResponse:
    stats = player_stats(name)
    if stats is None:
        raise Http404
    size = "narrow" if request.GET.get("size") == "narrow" else "wide"
    response = HttpResponse(render_results(stats.win_rate_over_time(), size), "image/svg+xml")
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


def _watcher_page(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The page as everyone but the host sees it, rendered once per version, language and
    address; only the CSRF token differs between phones, so it is put in afterwards."""

    def build() -> bytes:
        sheet, table = _page_sheet(game)
        context = _game_context(request, sheet, Access()) | {
            "sheet_table": table,
            "csrf_token": CSRF_PLACEHOLDER,
        }
        return render(request, "games/game.html", context).content

    page = cached(("watcher-page", game.pk, game.version, request.get_host()), build)
    return HttpResponse(page.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode()))


def _page_sheet(game: Game) -> tuple[Sheet, str]:
    """The sheet's summary and its rendered table. Rows never change once written, so the
    table is rendered once per version and process, however many phones open the page."""

    def build() -> tuple[Sheet, str]:
        sheet = sheet_of(store.load_snapshot(game))
        table = render_to_string("games/sheet_table.html", {"sheet": sheet})
        return replace(sheet, rows=()), table

    return cached(("page", game.pk, game.version), build)


def _render_update(
    request: HtmxHttpRequest,
    sheet: Sheet,
    *,
    replace: bool,
    access: Access,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    if sheet.finished and sheet.summary is None:
        # The game just ended: the highlights and the BG Stats link need every row, once.
        game = sheet.game
        whole = cached(("ended", game.pk, game.version), lambda: full_sheet(game))
        sheet = dataclasses.replace(sheet, summary=whole.summary, bgstats_url=whole.bgstats_url)
    context = _game_context(request, sheet, access) | {"replace": replace} | (extra or {})
    response = render(request, "games/sheet_update.html", context)
    # The page ignores an update older than what it already shows (a poll that crossed a turn).
    response["X-Thirty-Version"] = str(sheet.game.version)
    return response


def _game_context(
    request: HtmxHttpRequest,
    sheet: Sheet,
    access: Access,
    question: dice_rules.Question | None = None,
    answers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    can_play = access.may_play(sheet.game, sheet.position) and not sheet.finished
    if question is None and can_play:
        question = sheet.position.ask()
    answers = answers or {}
    total = answers.get("total")
    game = sheet.game
    rolling = store.rolling_turn(game, sheet.position)
    names = [seat.name for seat in sheet.seats]
    return {
        # A turn with dice the app rolls: every phone sees it, the roller (or host) acts on it.
        "tray": tray_of(rolling, names, hints=game.hints),
        "recap": recap_of(game, names) if rolling is None else None,
        "undone": undone_turns(game, names),
        "tray_controls": can_play and rolling is not None,
        "roll_chance": before_roll_chance(sheet.position)
        if game.hints and can_play and rolling is None and not sheet.finished
        else None,
        "sheet": sheet,
        "game": sheet.game,
        "host": access.host,
        "seat": None if access.seat is None else sheet.seats[access.seat],
        # The turn panel: the host always has one, a player with a seat link too.
        "panel": access.host or access.seat is not None,
        "question": question if can_play else None,
        "answers": answers,
        "margin": None if total is None else total - sheet.ruleset.beat_above,
        "target_choices": [
            sheet.seats[seat]
            for seat in (
                question.options if question and question.step is dice_rules.Step.TARGET else ()
            )
            if isinstance(seat, int)
        ],
        "rules_summary": rules_summary(sheet.ruleset),
        "chances_query": chances.rules_query(sheet.ruleset),
        "share_url": public_url(request, reverse("game", args=[sheet.game.pk])),
        "rematch_id": store.rematch_of(sheet.game) if sheet.finished else None,
        "dice_seed": store.revealed_seed(game) if sheet.finished else None,
        "poll_seconds": poll_seconds(finished=sheet.finished),
    } | _table_dice_context(game, access)


def _table_dice_context(game: Game, access: Access) -> dict[str, Any]:
    """The phones that make this game's dice, and whether this phone is one of them: the host's
    and every seat's phone join by themselves (static/table-dice.js)."""
    if not game.table_dice:
        return {}
    parts = phone_parts(game)
    phone = access.host or access.seat is not None
    mine = None if access.host else access.seat  # the host's phone joins as the host
    own = next((part for part in parts if part.seat == mine), None) if phone else None
    return {
        "table_parts": parts,
        "table_phone": phone,
        "table_joined": own is not None,
        "table_revealed": own is not None and bool(own.secret),
    }


def _int_or_none(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    # Larger numbers are never a version or a turn, and some databases cannot compare them.
    return value if abs(value) < 2**31 else None


@require_GET
def export_json(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can export this game."))
    if game.is_cards:
        # Its moves replay only with the secret seed, which no file may carry: the sheet
        # (CSV) is the card game's export.
        raise Http404
    response = JsonResponse(transfer.export_game(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="thirty-{game.pk}.json"'
    return response


@require_GET
def export_csv(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    response = HttpResponse(transfer.export_csv(game), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="thirty-{game.pk}.csv"'
    return response


@require_POST
def import_game(request: HtmxHttpRequest) -> HttpResponse:
    # Refused on its announced size before the body is read, or as soon as it passes the limit.
    upload = None if too_large(request) else request.FILES.get("file")
    if too_large(request):
        return _import_error(
            request,
            _("This file is larger than %(most)s kilobytes: it cannot be a game from Thirty.")
            % {"most": upload_limit() // 1024},
            status=413,
        )
    if upload is None:
        return _import_error(request, _("Choose a game file exported from Thirty."))
    try:
        game, host_key = transfer.import_game(json.loads(upload.read()))
    except transfer.GameFileError as failure:
        return _import_error(request, str(failure))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _import_error(request, _("This file is not a game exported from Thirty."))
    response = redirect("game", game.pk)
    remember_host(response, game, host_key)
    return response


def _import_error(request: HtmxHttpRequest, error: str, status: int = 422) -> HttpResponse:
    return render(request, "games/import_error.html", {"error": error}, status=status)


# -- the card game's pages ---------------------------------------------------------------------


def _card_table(game: Game, seat: int | None) -> Table:
    """The table as `seat` may see it (None: any watcher), from the engine's view only."""
    state = store.load_tournament(game)
    seats = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("name", "computer", "joined_at")
    )
    return build_table(
        state.view(seat),
        [name for name, _, _ in seats],
        [computer for _, computer, _ in seats],
        [joined is not None or computer for _, computer, joined in seats],
    )


def _card_context(
    request: HtmxHttpRequest, game: Game, table: Table, access: Access
) -> dict[str, Any]:
    return {
        "game": game,
        "table": table,
        "host": access.host,
        "rules_summary": card_rules_summary(game.card_rules),
        "share_url": public_url(request, reverse("game", args=[game.pk])),
        "rematch_id": store.rematch_of(game) if table.view.finished else None,
        "poll_seconds": poll_seconds(finished=table.view.finished),
    }


def _card_page(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    seat = access.seat
    if not access.host and seat is None:
        # Every watcher sees the same page: built once per version from `view(None)`.
        def build() -> bytes:
            table = _card_table(game, None)
            context = _card_context(request, game, table, Access()) | {
                "csrf_token": CSRF_PLACEHOLDER
            }
            return render(request, "games/card_game.html", context).content

        page = cached(("card-watcher-page", game.pk, game.version, request.get_host()), build)
        return HttpResponse(page.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode()))
    # The host sees what a watcher sees, plus the seat links; a seat sees its own hand too.
    table = _card_table(game, seat)
    context = _card_context(request, game, table, access)
    if access.host:
        context["seat_links"], context["host_link"] = _host_links(request, game)
        context["share_first"] = not table.view.log[1:] and not any(
            row.claimed for row in table.seats if not row.computer
        )
    response = render(request, "games/card_game.html", context)
    # A seat's page holds its hand, and the host's the seat links: no cache may keep them.
    add_never_cache_headers(response)
    return response


def _card_update(request: HtmxHttpRequest, game: Game, access: Access) -> Update:
    """A live update of the card table: the whole table, which is small. Watchers share one
    copy per version; a seat's copy, with its hand, is made for that phone alone."""

    def render_update(seat: int | None, viewer: Access) -> Update:
        table = _card_table(game, seat)
        context = _card_context(request, game, table, viewer) | {"oob": True}
        body = render(request, "games/card_update.html", context).content.decode()
        return Update(body, game.version, whole=True)

    if access.seat is not None or access.host:
        return render_update(access.seat, access)
    return cached(("card-update", game.pk, game.version), lambda: render_update(None, Access()))


@require_POST
def move(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A seat plays a card from its phone."""
    game = get_object_or_404(Game, pk=game_id)
    access = access_for(request, game)
    if access.seat is None or not offers(game, kinds.CARD):
        return HttpResponseForbidden(_("Only a player's own phone can play that seat's cards."))
    error = None
    try:
        store.play_card(
            game.pk,
            access.seat,
            parse_move(request.POST.get("move", "")),
            version=_int_or_none(request.POST.get("v")),
        )
    except rules.RuleError as rule_error:
        error = rule_error_message(rule_error)
    except store.StaleVersionError:
        error = _("The table changed before your card arrived. Look again and play.")
    except store.NotYourTurnError:
        error = _("It is not your turn.")
    game.refresh_from_db()
    if not request.htmx:
        if error is None:
            return redirect("game", game.pk)
        table = _card_table(game, access.seat)
        context = _card_context(request, game, table, access) | {"move_error": error}
        return render(request, "games/card_game.html", context, status=422)
    table = _card_table(game, access.seat)
    context = _card_context(request, game, table, access) | {
        "oob": True,
        "move_error": error,
        "cooldown": error is None,
    }
    response = render(request, "games/card_update.html", context)
    response["X-Thirty-Version"] = str(game.version)
    add_never_cache_headers(response)
    return response


@require_POST
def reissue(request: HtmxHttpRequest, game_id: str, seat: int) -> HttpResponse:
    """The host gives a seat a new link, for a lost phone: the old one stops working."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game) or not offers(game, kinds.CLAIM):
        return HttpResponseForbidden(_("Only the host can give a seat a new link."))
    try:
        store.reissue_seat(game, seat - 1, request.COOKIES.get(host_cookie_name(game), ""))
    except Seat.DoesNotExist:
        raise Http404 from None
    return redirect(reverse("game", args=[game.pk]) + "#seat-links")


@require_POST
def table_dice(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A phone joins the table's dice (`commitment`) or, at the end, shows its secret
    (`secret`); the page's script does both by itself (static/table-dice.js)."""
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    access = access_for(request, game)
    if not access.host and access.seat is None:
        return HttpResponseForbidden(_("Only the host's and the players' phones make the dice."))
    seat = None if access.host else access.seat
    try:
        if "secret" in request.POST:
            store.reveal_table_secret(game.pk, seat, request.POST["secret"].strip().lower())
        else:
            commitment = request.POST.get("commitment", "").strip().lower()
            if not chance.is_digest(commitment):
                return HttpResponseBadRequest(_("A phone's part is the SHA-256 of its secret."))
            store.join_table_dice(game.pk, seat, commitment)
    except store.TableDiceError as refused:
        return HttpResponse(_(refused.message), status=409, content_type="text/plain")
    return HttpResponse(status=204)


@require_GET
def check_dice(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Every roll of a game whose dice the table made, with every part shown at the end, for
    the browser to roll again (static/table-dice.js) and say whether all match."""
    game = get_object_or_404(Game, pk=game_id, kind="dice")
    return render(request, "games/check_dice.html", table_dice_check(game))
