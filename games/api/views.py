"""The API's endpoints that every kind shares: create a game, its state, a move of any
kind (`/moves`), seats, undo, and the OpenAPI document. The dice games' aliases `/turns`
and `/roll` and the odds are in `games.kinds.dice.api`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import claims, kinds, store
from games.api import models as api_models
from games.api.base import (
    ApiError,
    WrongKeyError,
    answer,
    api_view,
    game_for_host,
    host_or_seat,
    json_object,
    offered,
    parse,
    seat_of,
)
from games.api.openapi import openapi_schema
from games.kinds import kind_for_rules, kind_of, known_answer
from games.models import Game, Seat
from games.names import clean_game_name, clean_player_names, default_game_name


@api_view(["POST"])
def create_game(request: HttpRequest) -> HttpResponse:
    body = json_object(request)
    new: Any = parse(
        api_models.new_game_model(),
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
    kind = kind_for_rules(new.rules.model_dump())
    if new.table_dice and "table_dice" not in kind.options:
        raise ApiError(422, _("“table_dice” belongs to the dice games."))
    game, host_key = kind.create(
        name or default_game_name(names),
        list(zip(names, computers, strict=True)),
        new.rules.model_dump(),
        **({"table_dice": new.table_dice} if new.table_dice else {}),
    )
    if not name:
        store.name_by_day(game, names)
    # Each seat's link key, for the host to hand out (none for a computer): a card game's
    # can only claim its seat.
    links = {link.position: link.key for link in claims.seat_link_keys(game, host_key)}
    seat_keys = [links.get(seat) for seat in range(len(computers))]
    keys = {"host_key": host_key, "seat_keys": seat_keys}
    return answer(kind_of(game).new_state_model, game_state(game) | keys, status=201)


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
    kind_for_rules(raw).read_rules(raw)


@api_view(["GET"])
def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The state; a dice game's comes from this process's copy for the current version when it
    has one, and with `?since=N` holds only the turns numbered above N."""
    since = request.GET.get("since")
    if since is not None and not (since.isascii() and since.isdigit() and len(since) <= 6):
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": "since"})
    shared = known_answer(game_id)
    if shared is not None:
        return shared.response(int(since or 0))
    game = Game.objects.get(pk=game_id)
    kind = kind_of(game)
    # Where each seat sees its own, what this viewer's seat may see.
    looks = not kind.shared_state and "X-Seat-Key" in request.headers
    return kind.api_detail(game, seat_of(request, game) if looks else None, int(since or 0))


@api_view(["POST"])
def play_move(request: HttpRequest, game_id: str) -> HttpResponse:
    """A move of any kind: the kind reads it from the body and plays it. The host's key may
    move for any seat where nothing is hidden; else only the seat's own key. 201 with the
    state."""
    game = Game.objects.get(pk=game_id)
    kind = kind_of(game)
    seat = host_or_seat(request, game) if kind.host_moves else seat_of(request, game)
    return kind.api_move(game, seat, json_object(request))


@api_view(["POST"])
def claim_seat(request: HttpRequest, game_id: str, seat: int) -> HttpResponse:
    """A card game's seat key is used once: this answers a fresh key of the seat's own."""
    game = Game.objects.get(pk=game_id)
    offered(game, kinds.CLAIM)
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
    return answer(api_models.SeatKey, {"seat_key": fresh})


@api_view(["POST"])
def reissue_seat(request: HttpRequest, game_id: str, seat: int) -> HttpResponse:
    """The host gives a card game's seat a new key (a lost phone); the old one stops working."""
    game = game_for_host(request, game_id)
    offered(game, kinds.CLAIM)
    try:
        key = store.reissue_seat(game, seat - 1, request.headers.get("X-Host-Key", ""))
    except Seat.DoesNotExist:
        raise ApiError(404, _("There is no such seat, or the computer plays it.")) from None
    return answer(api_models.SeatKey, {"seat_key": key})


@api_view(["DELETE"])
def undo_last_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = game_for_host(request, game_id)
    offered(game, kinds.UNDO)
    raw_version = request.GET.get("version")
    version = None
    if raw_version is not None:
        try:
            version = int(raw_version)
        except ValueError:
            raise ApiError(400, _("“version” must be a whole number.")) from None
    undone = store.undo(game.pk, version=version)
    return kind_of(undone).api_detail(undone, None, 0)


@require_GET
def schema(request: HttpRequest) -> HttpResponse:
    return JsonResponse(openapi_schema())


def game_state(game: Game) -> dict[str, Any]:
    """The game as the API shows it: seats and turns numbered from 1, everything derived."""
    return kind_of(game).api_state(game, None)
