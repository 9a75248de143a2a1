"""The public JSON API (see DESIGN.md): the same store and rules as the pages.

Request bodies are read with the models of `games/api_models.py`, which also make the OpenAPI
document, and answers are given in their shapes. Errors are `{"error": sentence}` in the
language of `Accept-Language`: 400 for a body that is not the right shape, 413 for one too
large, 403 for a missing or wrong key, 404 for an unknown game, 409 for a finished game or
a stale version, 422 for a turn or game the rules refuse.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

import pydantic
from django.core.exceptions import RequestDataTooBig, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games import api_models, claims, guesses, kinds, rules, store
from games.access import seat_for_key
from games.kinds import kind_of
from games.models import Game, Seat
from games.names import clean_game_name, clean_player_names, default_game_name
from games.openapi import openapi_schema
from games.rules import cards
from games.rules import dice as dice_rules
from games.rules.dice import rolled
from games.rules.dice.odds import keep_choices, turn_odds
from games.state import State, current_state
from games.state import game_state as state_of
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
            response = _answer_or_refuse(view, request, *args, **kwargs)
            carries_key = "X-Host-Key" in request.headers or "X-Seat-Key" in request.headers
            # What a key may read differs by key: no cache keeps it, and none mixes keys.
            patch_vary_headers(response, ["X-Host-Key", "X-Seat-Key"])
            if carries_key or response.status_code == 201:
                add_never_cache_headers(response)
            return response

        return wrapped

    return decorate


def _answer_or_refuse(view: View, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
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


@api_view(["POST"])
def create_game(request: HttpRequest) -> HttpResponse:
    body = _json_object(request)
    new = _parse(
        api_models.NewGame,
        body,
        players=lambda: _judge_players(body.get("players")),
        name=lambda: _judge_name(body.get("name")),
        rules=lambda: _judge_rules(body.get("rules")),
    )
    players = [
        p if isinstance(p, api_models.Player) else api_models.Player(name=p) for p in new.players
    ]
    computers = [p.computer for p in players]
    try:
        names = clean_player_names([p.name for p in players])
    except ValidationError as error:
        raise ApiError(422, error.messages[0]) from None
    try:
        name = clean_game_name(new.name)
    except ValidationError as error:
        raise ApiError(400, error.messages[0]) from None
    if isinstance(new.rules, api_models.CardRules):
        if new.table_dice:
            raise ApiError(422, _("“table_dice” belongs to the dice games."))
        card_rules = cards.CardRules.from_dict(new.rules.model_dump())
        seats = [store.Player(n, c) for n, c in zip(names, computers, strict=True)]
        game, host_key = store.create_card_game(name or default_game_name(names), seats, card_rules)
    else:
        ruleset = dice_rules.RuleSet.from_dict(new.rules.model_dump())
        game, host_key = store.create_game(
            name or default_game_name(names),
            names,
            ruleset,
            computers=[seat for seat, computer in enumerate(computers) if computer],
            table_dice=new.table_dice,
        )
    # Each seat's link key, for the host to hand out (none for a computer): a card game's
    # can only claim its seat.
    links = {link.position: link.key for link in claims.seat_link_keys(game, host_key)}
    seat_keys = [links.get(seat) for seat in range(len(computers))]
    keys = {"host_key": host_key, "seat_keys": seat_keys}
    return _answer(kind_of(game).new_state_model, game_state(game) | keys, status=201)


def _judge_players(raw: object) -> None:
    """Why a list of players is refused: a player of the wrong shape (400), else the names
    as `games/names.py` reads them (422)."""
    if not isinstance(raw, list):
        raise ApiError(400, _("“players” must be a list of names in seat order."))
    for player in raw:
        if isinstance(player, dict) and (
            set(player) - {"name", "computer"}
            or not isinstance(player.get("computer", False), bool)
        ):
            raise ApiError(400, _("A player is a name, or an object with “name” and “computer”."))
    try:
        clean_player_names([p.get("name") if isinstance(p, dict) else p for p in raw])
    except ValidationError as error:
        raise ApiError(422, error.messages[0]) from None
    raise ApiError(400, _("A player is a name, or an object with “name” and “computer”."))


def _judge_name(raw: object) -> None:
    try:
        clean_game_name(raw)
    except ValidationError as error:
        raise ApiError(400, error.messages[0]) from None


def _judge_rules(raw: object) -> None:
    """The rules module says why it refuses a set of rules (422)."""
    if not isinstance(raw, dict):
        raise ApiError(400, _("“rules” must be an object of named options."))
    if raw.get("preset") == "cards":
        cards.CardRules.from_dict(raw)
    else:
        dice_rules.RuleSet.from_dict(raw)


@api_view(["GET"])
def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The state; a dice game's comes from this process's copy for the current version when it
    has one, and with `?since=N` holds only the turns numbered above N."""
    since = request.GET.get("since")
    if since is not None and not (since.isascii() and since.isdigit() and len(since) <= 6):
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": "since"})
    state = current_state(game_id)
    if state is not None:
        return _state_response(state, int(since or 0))
    game = Game.objects.get(pk=game_id)  # a card game: what this viewer's seat may see
    seat = _seat(request, game) if "X-Seat-Key" in request.headers else None
    return _answer(kind_of(game).state_model, kind_of(game).api_state(game, seat))


def _state_response(state: State, since: int = 0, status: int = 200) -> HttpResponse:
    """A dice game's state as JSON, built once per version (games/state.py)."""
    return HttpResponse(state.body(since), content_type="application/json", status=status)


@api_view(["POST"])
def play_card(request: HttpRequest, game_id: str) -> HttpResponse:
    """A seat plays a card: `{"card": "AH", "value": 11, "version": 7}` with its X-Seat-Key."""
    game = Game.objects.get(pk=game_id)
    _offered(game, kinds.CARD)
    seat = _seat(request, game)
    body = _json_object(request)
    # The move's own keys are the rules' to judge, in their words (422); `version` is ours.
    move_keys = {k: v for k, v in body.items() if k != "version"}
    new = _parse(
        api_models.NewMove, body, judge=lambda: cards.Move.from_dict(move_keys), version=None
    )
    move = cards.Move.from_dict(new.model_dump(exclude={"version"}, exclude_unset=True))
    played = store.play_card(game.pk, seat, move, version=new.version)
    kind = kind_of(played.game)
    return _answer(kind.state_model, kind.api_state(played.game, seat), status=201)


@api_view(["POST"])
def claim_seat(request: HttpRequest, game_id: str, seat: int) -> HttpResponse:
    """A card game's seat key is used once: this answers a fresh key of the seat's own."""
    game = Game.objects.get(pk=game_id)
    _offered(game, kinds.CLAIM)
    try:
        _seat_claimed, fresh = store.claim_seat(
            game.pk, seat - 1, request.headers.get("X-Seat-Key", "")
        )
    except store.BadKeyError:
        raise WrongKeyError(_("That seat key does not open this seat.")) from None
    except store.SeatTakenError:
        # A race lost to another phone is no guess: the key was right a moment ago.
        raise ApiError(
            403, _("That seat was claimed on another phone. Ask the host for a new link.")
        ) from None
    return _answer(api_models.SeatKey, {"seat_key": fresh})


@api_view(["POST"])
def reissue_seat(request: HttpRequest, game_id: str, seat: int) -> HttpResponse:
    """The host gives a card game's seat a new key (a lost phone); the old one stops working."""
    game = _game_for_host(request, game_id)
    _offered(game, kinds.CLAIM)
    try:
        key = store.reissue_seat(game, seat - 1, request.headers.get("X-Host-Key", ""))
    except Seat.DoesNotExist:
        raise ApiError(404, _("There is no such seat, or the computer plays it.")) from None
    return _answer(api_models.SeatKey, {"seat_key": key})


def _seat(request: HttpRequest, game: Game) -> int:
    seat = seat_for_key(game, request.headers.get("X-Seat-Key"))
    if seat is None:
        raise WrongKeyError(_("This needs the seat's own key in the X-Seat-Key header."))
    return seat


@api_view(["POST"])
def add_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = Game.objects.get(pk=game_id)
    _offered(game, kinds.TYPED_TURN)
    seat = _host_or_seat(request, game)
    new = _parse(api_models.NewTurn, _json_object(request))
    seat_count = game.seats.count()
    if new.target is not None and not 1 <= new.target <= seat_count:
        raise ApiError(
            422, _("“target” is a seat number from 1 to %(seats)s.") % {"seats": seat_count}
        )
    target = None if new.target is None else new.target - 1
    turn = dice_rules.Turn(new.total, new.hunt, target, new.heal)
    recorded = store.record_turn(game.pk, turn, version=new.version, seat=seat)
    return _state_response(state_of(recorded.game), status=201)


@api_view(["POST"])
def roll(request: HttpRequest, game_id: str) -> HttpResponse:
    """One step of a turn with dice the app rolls (DESIGN.md, "App-rolled dice"), by the host
    or the roller's own seat. 200 with the state."""
    game = Game.objects.get(pk=game_id)
    _offered(game, kinds.ROLL)
    seat = _host_or_seat(request, game)
    new = _parse(api_models.NewRoll, _json_object(request))
    seat_count = game.seats.count()
    if new.target is not None and not 1 <= new.target <= seat_count:
        raise ApiError(
            422, _("“target” is a seat number from 1 to %(seats)s.") % {"seats": seat_count}
        )
    action = rolled.Action(
        keep=None if new.keep is None else tuple(new.keep),
        heal=new.heal,
        target=None if new.target is None else new.target - 1,
        hunt=new.hunt,
        stop=new.stop,
    )
    done = store.roll(game.pk, action, version=new.version, seat=seat, part=new.part)
    return _state_response(state_of(done.game if isinstance(done, store.Recorded) else done))


def _host_or_seat(request: HttpRequest, game: Game) -> int | None:
    """None for the host; else the seat whose key came, which may act on its own turn only."""
    if game.check_host_key(request.headers.get("X-Host-Key")):
        return None
    seat = seat_for_key(game, request.headers.get("X-Seat-Key"))
    if seat is None:
        raise WrongKeyError(
            _("This needs the game's host key in the X-Host-Key header (or a seat's key).")
        )
    return seat


@api_view(["DELETE"])
def undo_last_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = _game_for_host(request, game_id)
    _offered(game, kinds.UNDO)
    raw_version = request.GET.get("version")
    version = None
    if raw_version is not None:
        try:
            version = int(raw_version)
        except ValueError:
            raise ApiError(400, _("“version” must be a whole number.")) from None
    return _state_response(state_of(store.undo_last_turn(game.pk, version=version)))


@require_GET
def schema(request: HttpRequest) -> HttpResponse:
    return JsonResponse(openapi_schema())


def game_state(game: Game) -> dict[str, Any]:
    """The game as the API shows it: seats and turns numbered from 1, everything derived."""
    return kind_of(game).api_state(game, None)


def _offered(game: Game, operation: str) -> None:
    """Refuse, in the kind's words, an operation this game's kind does not have."""
    refused = kinds.refusal(game, operation)
    if refused is not None:
        raise ApiError(refused.status, _(refused.sentence))


def _game_for_host(request: HttpRequest, game_id: str) -> Game:
    game = Game.objects.get(pk=game_id)
    if not game.check_host_key(request.headers.get("X-Host-Key")):
        raise WrongKeyError(_("This needs the game's host key in the X-Host-Key header."))
    return game


def _json_object(request: HttpRequest) -> dict[str, Any]:
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


def _parse(
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
    raise ApiError(400, _fault_sentence(field, kind))


def _fault_sentence(field: str, kind: str) -> str:
    if kind == "extra_forbidden":
        return _("Unknown field: %(field)s.") % {"field": field}
    if kind == "missing":
        return _("“%(field)s” is required.") % {"field": field}
    if kind.startswith("int_"):
        return _("“%(field)s” must be a whole number.") % {"field": field}
    if kind.startswith("bool_"):
        return _("“%(field)s” must be true or false.") % {"field": field}
    return _("“%(field)s” is not of the right kind.") % {"field": field}


@api_view(["GET"])
def odds(request: HttpRequest) -> HttpResponse:
    """Exact odds of one turn under best play (DESIGN.md: GET /api/odds)."""
    ruleset = _odds_rules(request)
    result = turn_odds(ruleset.target, ruleset.set_aside)
    return _answer(
        api_models.Odds,
        {
            "p_beat": round(float(result.p_beat), 6),
            "p_beat_exact": f"{result.p_beat.numerator}/{result.p_beat.denominator}",
            "totals": {str(total): float(p) for total, p in result.totals.items()},
        },
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
    return _answer(
        api_models.OddsChoices,
        {"choices": [{"keep": list(c.keep), "p_beat": round(float(c.p_beat), 6)} for c in choices]},
    )


def _odds_rules(request: HttpRequest) -> dice_rules.RuleSet:
    query = {key: request.GET[key] for key in ("set_aside", "target") if key in request.GET}
    # A number the rules refuse is theirs to explain (422); text that is no number is a 400.
    asked = _parse(api_models.OddsQuery, query, judge=lambda: _judge_odds(query))
    return dice_rules.RuleSet.from_dict(asked.model_dump())


def _judge_odds(query: dict[str, str]) -> None:
    try:
        target = int(query.get("target", "30"))
    except ValueError:
        return
    dice_rules.RuleSet.from_dict({"target": target, "set_aside": query.get("set_aside", "any")})


def _answer(
    model: type[pydantic.BaseModel], data: dict[str, Any], status: int = 200
) -> HttpResponse:
    """`data` in the shape of `model`, the shape the OpenAPI document promises."""
    shaped = model.model_validate(data).model_dump(mode="json", exclude_unset=True)
    return JsonResponse(shaped, status=status)
