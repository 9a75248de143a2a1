"""A game as a file: the sheet as CSV for a spreadsheet, the whole game as JSON for another
instance of Thirty, and importing that file again."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import kinds, transfer
from games.access import is_host, remember_host
from games.kinds import offers
from games.models import Game
from games.uploads import too_large, upload_limit
from games.web.common import HtmxHttpRequest


@require_GET
def export_json(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can export this game."))
    if not offers(game, kinds.EXPORT):
        # A card game's moves replay only with the secret seed, which no file may carry: the
        # sheet (CSV) is its export.
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
