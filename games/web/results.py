"""What a game and a player leave behind: a game's chart and its replay, and a player's
page across every game they sat in (with merging two spellings of a name)."""

from __future__ import annotations

from contextlib import suppress

from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games import store
from games.cache import cached, current_version
from games.charts import render_results
from games.history import game_choices
from games.kinds import KINDS, kind_of
from games.models import Game
from games.players import MergeRefused, merge_plan, player_stats
from games.web.common import HtmxHttpRequest, int_or_none


@require_GET
def chart(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The sheet's chart as an SVG picture, drawn once per version and language.

    The page links it with the version in the address, so a browser may keep that answer
    for good; an address without the current version is answered fresh."""
    version = current_version(game_id)
    if version is None:
        raise Http404

    size = "narrow" if request.GET.get("size") == "narrow" else "wide"
    upto = int_or_none(request.GET.get("turn"))

    def build() -> str:
        game = get_object_or_404(Game, pk=game_id)
        return kind_of(game).pages.chart(game, upto, size)

    response = HttpResponse(cached(("chart", game_id, version, size, upto), build), "image/svg+xml")
    if request.GET.get("v") == str(version):
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response["Cache-Control"] = "no-cache"
    # A picture: no scripts, and only the styles it carries.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_GET
def replay(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A finished game step by step (a card game deal by deal): the sheet and the chart as
    they stood after each step."""
    game = get_object_or_404(Game, pk=game_id)
    return kind_of(game).pages.replay(request, game)


@require_GET
def player(request: HtmxHttpRequest, name: str) -> HttpResponse:
    """One player across every game they sat in, matched by name ignoring case."""
    stats = player_stats(name)
    if stats is None:
        raise Http404
    sections = [kind.player_template for kind in KINDS.values() if kind.player_template]
    kinds = dict(game_choices())
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
            "sections": sections,
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
        "skipped": [{"pk": game.pk, "name": game.title} for game in merged.skipped][
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
