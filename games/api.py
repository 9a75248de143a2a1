"""The public JSON API (see DESIGN.md): the same store and rules as the pages.

Errors are `{"error": sentence}` in the language of `Accept-Language`: 400 for a body that
is not the right shape, 403 for a missing or wrong key, 404 for an unknown game, 409 for a
finished game or a stale version, 422 for a turn or game the rules refuse.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games import rules, store
from games.access import seat_for_key
from games.models import Game
from games.names import clean_player_names, default_game_name
from games.openapi import openapi_schema
from games.rules.odds import keep_choices, turn_odds
from games.state import State, current_state, game_state
from games.translate import rule_error_message

MAX_GAME_NAME = 80


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


View = Callable[..., HttpResponse]


def api_view(methods: list[str]) -> Callable[[View], View]:
    """JSON in, JSON out, every refusal as `{"error": ...}` with its status."""

    def decorate(view: View) -> View:
        @csrf_exempt
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                response = JsonResponse(
                    {
                        "error": _("This address does not accept %(method)s.")
                        % {"method": request.method}
                    },
                    status=405,
                )
                response["Allow"] = ", ".join(methods)
                return response
            try:
                return view(request, *args, **kwargs)
            except ApiError as error:
                return JsonResponse({"error": error.message}, status=error.status)
            except Game.DoesNotExist:
                return JsonResponse({"error": _("There is no such game.")}, status=404)
            except store.NotYourTurnError:
                return JsonResponse(
                    {
                        "error": _(
                            "It is not this seat's turn, or the host does not let players"
                            " enter their own turns."
                        )
                    },
                    status=403,
                )
            except store.StaleVersionError:
                return JsonResponse(
                    {"error": _("The game changed since you last looked. Nothing was recorded.")},
                    status=409,
                )
            except rules.GameOverError as error:
                return JsonResponse({"error": rule_error_message(error)}, status=409)
            except rules.RuleError as error:
                return JsonResponse({"error": rule_error_message(error)}, status=422)

        return wrapped

    return decorate


@api_view(["POST"])
def create_game(request: HttpRequest) -> HttpResponse:
    body = _json_object(request)
    unknown = set(body) - {"name", "players", "rules"}
    if unknown:
        raise ApiError(400, _("Unknown field: %(field)s.") % {"field": sorted(unknown)[0]})
    players = body.get("players")
    if not isinstance(players, list):
        raise ApiError(400, _("“players” must be a list of names in seat order."))
    try:
        names = clean_player_names(players)
    except ValidationError as error:
        raise ApiError(422, error.messages[0]) from None
    name = body.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > MAX_GAME_NAME:
        raise ApiError(
            400, _("“name” must be text of at most %(most)s characters.") % {"most": MAX_GAME_NAME}
        )
    raw_rules = body.get("rules", {})
    if not isinstance(raw_rules, dict):
        raise ApiError(400, _("“rules” must be an object of named options."))
    ruleset = rules.RuleSet.from_dict(raw_rules)
    game, host_key = store.create_game(name.strip() or default_game_name(names), names, ruleset)
    return JsonResponse(game_state(game).as_dict() | {"host_key": host_key}, status=201)


@api_view(["GET"])
def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The state, from this process's copy for the current version when it has one; with
    `?since=N`, only the turns numbered above N."""
    since = request.GET.get("since")
    if since is not None and not since.isdigit():
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": "since"})
    return _state_response(current_state(game_id), int(since or 0))


def _state_response(state: State, since: int = 0, status: int = 200) -> HttpResponse:
    return HttpResponse(state.body(since), content_type="application/json", status=status)


@api_view(["POST"])
def add_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = Game.objects.get(pk=game_id)
    seat = None
    if not game.check_host_key(request.headers.get("X-Host-Key")):
        seat = seat_for_key(game, request.headers.get("X-Seat-Key"))
        if seat is None:
            raise ApiError(
                403, _("This needs the game's host key in the X-Host-Key header (or a seat's key).")
            )
    body = _json_object(request)
    unknown = set(body) - {"total", "hunt", "target", "heal", "version"}
    if unknown:
        raise ApiError(400, _("Unknown field: %(field)s.") % {"field": sorted(unknown)[0]})
    total = _int_field(body, "total", required=True)
    assert total is not None
    hunt = _int_field(body, "hunt")
    target = _int_field(body, "target")
    heal = body.get("heal", False)
    if not isinstance(heal, bool):
        raise ApiError(400, _("“heal” must be true or false."))
    seat_count = game.seats.count()
    if target is not None and not 1 <= target <= seat_count:
        raise ApiError(
            422, _("“target” is a seat number from 1 to %(seats)s.") % {"seats": seat_count}
        )
    turn = rules.Turn(total, hunt, None if target is None else target - 1, heal)
    recorded = store.record_turn(game.pk, turn, version=_int_field(body, "version"), seat=seat)
    return _state_response(game_state(recorded.game), status=201)


@api_view(["DELETE"])
def undo_last_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = _game_for_host(request, game_id)
    raw_version = request.GET.get("version")
    version = None
    if raw_version is not None:
        try:
            version = int(raw_version)
        except ValueError:
            raise ApiError(400, _("“version” must be a whole number.")) from None
    return _state_response(game_state(store.undo_last_turn(game.pk, version=version)))


@require_GET
def schema(request: HttpRequest) -> HttpResponse:
    return JsonResponse(openapi_schema())


def _game_for_host(request: HttpRequest, game_id: str) -> Game:
    game = Game.objects.get(pk=game_id)
    if not game.check_host_key(request.headers.get("X-Host-Key")):
        raise ApiError(403, _("This needs the game's host key in the X-Host-Key header."))
    return game


def _json_object(request: HttpRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, _("The request body is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ApiError(400, _("The request body must be a JSON object."))
    return body


def _int_field(body: dict[str, Any], key: str, *, required: bool = False) -> int | None:
    value = body.get(key)
    if value is None:
        if required:
            raise ApiError(400, _("“%(field)s” is required.") % {"field": key})
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": key})
    return value


@api_view(["GET"])
def odds(request: HttpRequest) -> HttpResponse:
    """Exact odds of one turn under best play (DESIGN.md: GET /api/odds)."""
    ruleset = _odds_rules(request)
    result = turn_odds(ruleset.target, ruleset.set_aside)
    return JsonResponse(
        {
            "p_beat": round(float(result.p_beat), 6),
            "p_beat_exact": f"{result.p_beat.numerator}/{result.p_beat.denominator}",
            "totals": {str(total): float(p) for total, p in result.totals.items()},
        }
    )


@api_view(["GET"])
def odds_choices(request: HttpRequest) -> HttpResponse:
    """Every legal choice of dice to set aside from a roll, best first."""
    ruleset = _odds_rules(request)
    try:
        roll = [int(face) for face in request.GET.get("roll", "").split(",")]
        kept = int(request.GET.get("kept", "0"))
    except ValueError:
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": "roll"}) from None
    choices = keep_choices(roll, kept, ruleset.target, ruleset.set_aside)
    return JsonResponse(
        {"choices": [{"keep": list(c.keep), "p_beat": round(float(c.p_beat), 6)} for c in choices]}
    )


def _odds_rules(request: HttpRequest) -> rules.RuleSet:
    raw = request.GET.get("target", "30")
    try:
        target = int(raw)
    except ValueError:
        raise ApiError(
            400, _("“%(field)s” must be a whole number.") % {"field": "target"}
        ) from None
    return rules.RuleSet.from_dict(
        {"target": target, "set_aside": request.GET.get("set_aside", "any")}
    )
