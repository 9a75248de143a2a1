"""The home page's create form, the history of every game played, and a game's name and
deletion (undone within a few minutes)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseForbidden, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import store
from games.access import is_host, my_game_ids, remember_game, remember_host
from games.forms import CreateGameForm
from games.history import HistoryFilter, history_entries, played_games
from games.kinds import KINDS, seat_bounds
from games.lineups import read_lineup, recent_lineups
from games.models import Game
from games.web.common import HtmxHttpRequest

HISTORY_PAGE_SIZE = 20
MAX_GAME_NAME = 80
MY_GAMES_SHOWN = 8


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
            assert form.kind is not None
            game, host_key = form.kind.create(
                form.game_name(),
                form.seats(),
                form.rules_data,
                **{option: bool(form.cleaned_data.get(option)) for option in form.kind.options},
            )
            if not form.cleaned_data.get("name", "").strip():
                store.name_by_day(game, form.cleaned_players)
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
    for kind in KINDS.values():
        form.extras |= kind.form_extras(query, len(form.players))
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
    if "add" in post and len(rows) < seat_bounds()[1]:
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
