"""Reading the API's requests and answering them, for every endpoint: JSON in, JSON out,
every refusal as `{"error": sentence}` in the language of `Accept-Language`, with its
status: 400 for a body that is not the right shape, 413 for one too large, 403 for a missing
or wrong key, 404 for an unknown game, 409 for a finished game or a stale version, 422 for a
turn or game the rules refuse."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

import pydantic
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import guesses, kinds, rules, store
from games.access import seat_for_key
from games.models import Game
from games.translate import rule_error_message
from games.uploads import upload_limit

Model = TypeVar("Model", bound=pydantic.BaseModel)
Judge = Callable[[], object]


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class WrongKeyError(ApiError):
    """A host or seat key that opens nothing here: a wrong guess (games/guesses.py)."""

    def __init__(self, message: str) -> None:
        super().__init__(403, message)


View = Callable[..., HttpResponse]


def api_view(methods: list[str]) -> Callable[[View], View]:
    """JSON in, JSON out, every refusal as `{"error": ...}` with its status."""

    def decorate(view: View) -> View:
        @csrf_exempt
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                refused = JsonResponse(
                    {
                        "error": _("This address does not accept %(method)s.")
                        % {"method": request.method}
                    },
                    status=405,
                )
                refused["Allow"] = ", ".join(methods)
                return refused
            response = answer_or_refuse(view, request, *args, **kwargs)
            carries_key = "X-Host-Key" in request.headers or "X-Seat-Key" in request.headers
            # What a key may read differs by key: no cache keeps it, and none mixes keys.
            patch_vary_headers(response, ["X-Host-Key", "X-Seat-Key"])
            if carries_key or response.status_code == 201:
                add_never_cache_headers(response)
            return response

        return wrapped

    return decorate


def answer_or_refuse(view: View, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    try:
        return view(request, *args, **kwargs)
    except WrongKeyError as error:
        # Only a wrong key counts, and only a wrong one is refused once the client
        # has used up its guesses: a right key always works.
        if guesses.blocked(request):
            return guesses.too_many(request)
        guesses.wrong_guess(request)
        return JsonResponse({"error": error.message}, status=error.status)
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
    except store.TurnInProgressError:
        return JsonResponse(
            {
                "error": _(
                    "A turn with dice the app rolls is under way: finish it first."
                    " Nothing was recorded."
                )
            },
            status=409,
        )
    except store.StaleVersionError:
        return JsonResponse(
            {"error": _("The game changed since you last looked. Nothing was recorded.")},
            status=409,
        )
    except rules.GameOverError as error:
        return JsonResponse({"error": rule_error_message(error)}, status=409)
    except rules.NotYourTurnError as error:
        return JsonResponse({"error": rule_error_message(error)}, status=403)
    except rules.RuleError as error:
        return JsonResponse({"error": rule_error_message(error)}, status=422)


def offered(game: Game, operation: str) -> None:
    """Refuse, in the kind's words, an operation this game's kind does not have."""
    refused = kinds.refusal(game, operation)
    if refused is not None:
        raise ApiError(refused.status, _(refused.sentence))


def game_for_host(request: HttpRequest, game_id: str) -> Game:
    game = Game.objects.get(pk=game_id)
    if not game.check_host_key(request.headers.get("X-Host-Key")):
        raise WrongKeyError(_("This needs the game's host key in the X-Host-Key header."))
    return game


def json_object(request: HttpRequest) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise ApiError(
            415, _("Send the request body as JSON, with the header Content-Type: application/json.")
        )
    try:
        body = json.loads(request.body or b"{}")
    except RequestDataTooBig:
        raise ApiError(
            413,
            _("The request body is larger than %(most)s kilobytes.")
            % {"most": upload_limit() // 1024},
        ) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, _("The request body is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ApiError(400, _("The request body must be a JSON object."))
    return body


def parse(
    model: type[Model], data: Mapping[str, Any], judge: Judge | None = None, **judges: Judge | None
) -> Model:
    """`data` as `model`, or the refusal of its first fault, as one sentence naming the field.

    A field with a judge in `judges` (or `judge` for any other) has its fault explained by
    that judge, which raises the refusal of the authority on it (the rules' 422, say); a
    judge named None, or no judge, or a judge that finds nothing, leaves a 400.
    """
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as error:
        faults = error.errors()
    # Unknown fields first, as a typo is the likeliest reason for everything else.
    first = min(faults, key=lambda fault: fault["type"] != "extra_forbidden")
    field = str(first["loc"][0]) if first["loc"] else ""
    explain = judges.get(field, judge)
    if explain is not None:
        explain()
    kind = first["type"]
    if first["input"] is None and field in model.model_fields:
        kind = "missing" if model.model_fields[field].is_required() else kind
    raise ApiError(400, fault_sentence(field, kind))


def fault_sentence(field: str, kind: str) -> str:
    if kind == "extra_forbidden":
        return _("Unknown field: %(field)s.") % {"field": field}
    if kind == "missing":
        return _("“%(field)s” is required.") % {"field": field}
    if kind.startswith("int_"):
        return _("“%(field)s” must be a whole number.") % {"field": field}
    if kind.startswith("bool_"):
        return _("“%(field)s” must be true or false.") % {"field": field}
    return _("“%(field)s” is not of the right kind.") % {"field": field}


def seat_of(request: HttpRequest, game: Game) -> int:
    seat = seat_for_key(game, request.headers.get("X-Seat-Key"))
    if seat is None:
        raise WrongKeyError(_("This needs the seat's own key in the X-Seat-Key header."))
    return seat


def host_or_seat(request: HttpRequest, game: Game) -> int | None:
    """None for the host; else the seat whose key came, which may act on its own turn only."""
    if game.check_host_key(request.headers.get("X-Host-Key")):
        return None
    seat = seat_for_key(game, request.headers.get("X-Seat-Key"))
    if seat is None:
        raise WrongKeyError(
            _("This needs the game's host key in the X-Host-Key header (or a seat's key).")
        )
    return seat


def answer(
    model: type[pydantic.BaseModel], data: dict[str, Any], status: int = 200
) -> HttpResponse:
    """`data` in the shape of `model`, the shape the OpenAPI document promises."""
    shaped = model.model_validate(data).model_dump(mode="json", exclude_unset=True)
    return JsonResponse(shaped, status=status)
