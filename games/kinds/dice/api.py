"""The dice games in the JSON API: a typed-in turn and a step of a rolled turn read from
JSON (for `/moves`, and for `/turns` and `/roll`, which stay as aliases of it), and the odds
of a turn (`/api/odds`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from games import kinds, store
from games.api.base import (
    ApiError,
    answer,
    api_view,
    host_or_seat,
    json_object,
    offered,
    parse,
)
from games.kinds.dice import api_models, moves
from games.kinds.dice.state import game_state as state_of
from games.kinds.dice.stored import rolling_turn
from games.models import Game
from games.rules import dice as dice_rules
from games.rules.dice import rolled
from games.rules.dice.engine import APP_ROLLS
from games.rules.dice.odds import keep_choices, turn_odds


def play_move(game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
    """A dice move on `/moves`: a typed-in turn when it has a total, else a step of a turn
    the app rolls. 201 with the state."""
    if "card" in body:
        offered(game, kinds.CARD)  # a card for a dice game: refused as the kind says
    if "total" in body:
        return typed_turn(game, seat, body)
    return roll_step(game, seat, body, status=201)


def typed_turn(game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
    offered(game, kinds.TYPED_TURN)
    new = parse(api_models.NewTurn, body)
    turn = dice_rules.Turn(new.total, new.hunt, _target(game, new.target), new.heal)
    played = moves.record_turn(game.pk, turn, version=new.version, seat=seat)
    return state_of(played.game).response(status=201)


def roll_step(game: Game, seat: int | None, body: dict[str, Any], status: int) -> HttpResponse:
    """One step of a rolled turn (DESIGN.md, "App-rolled dice" and "Dice thrown at the
    table, refereed"), answered with the state and `status`; at the table's dice, 202 with
    the roll waiting for the other phones' parts (`table_waiting`)."""
    offered(game, kinds.ROLL)
    new = parse(api_models.NewRoll, body)
    if new.dice is not None and not new.table:
        turn = rolling_turn(game)
        if turn is None or not turn.table:
            raise ApiError(400, _(APP_ROLLS))
    action = rolled.Action(
        keep=None if new.keep is None else tuple(new.keep),
        heal=new.heal,
        target=_target(game, new.target),
        hunt=new.hunt,
        stop=new.stop,
    )
    try:
        played = moves.roll(
            game.pk,
            action,
            version=new.version,
            seat=seat,
            part=new.part,
            dice=tuple(new.dice or ()),
            table=new.table,
        )
    except store.RollWaitsError as waits:
        return state_of(waits.game).response(status=202)
    return state_of(played.game).response(status=status)


def _target(game: Game, target: int | None) -> int | None:
    """The seat attacked, from 1 in the API, from 0 in the rules."""
    if target is None:
        return None
    seat_count = game.seats.count()
    if not 1 <= target <= seat_count:
        raise ApiError(
            422, _("“target” is a seat number from 1 to %(seats)s.") % {"seats": seat_count}
        )
    return target - 1


@api_view(["POST"])
def add_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    """`/turns`: a typed-in turn, as `/moves` takes it (the host's key or the roller's)."""
    game = Game.objects.get(pk=game_id)
    offered(game, kinds.TYPED_TURN)
    return typed_turn(game, host_or_seat(request, game), json_object(request))


@api_view(["POST"])
def roll(request: HttpRequest, game_id: str) -> HttpResponse:
    """`/roll`: one step of a rolled turn, as `/moves` takes it. 200 with the state."""
    game = Game.objects.get(pk=game_id)
    offered(game, kinds.ROLL)
    return roll_step(game, host_or_seat(request, game), json_object(request), status=200)


@api_view(["GET"])
def odds(request: HttpRequest) -> HttpResponse:
    """Exact odds of one turn under best play (DESIGN.md: GET /api/odds)."""
    ruleset = _odds_rules(request)
    result = turn_odds(ruleset.target, ruleset.set_aside)
    return answer(
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
        dice = [int(face) for face in request.GET.get("roll", "").split(",")]
        kept = int(request.GET.get("kept", "0"))
    except ValueError:
        raise ApiError(400, _("“%(field)s” must be a whole number.") % {"field": "roll"}) from None
    choices = keep_choices(dice, kept, ruleset.target, ruleset.set_aside)
    return answer(
        api_models.OddsChoices,
        {"choices": [{"keep": list(c.keep), "p_beat": round(float(c.p_beat), 6)} for c in choices]},
    )


def _odds_rules(request: HttpRequest) -> dice_rules.RuleSet:
    query = {key: request.GET[key] for key in ("set_aside", "target") if key in request.GET}
    # A number the rules refuse is theirs to explain (422); text that is no number is a 400.
    asked = parse(api_models.OddsQuery, query, judge=lambda: _judge_odds(query))
    return dice_rules.RuleSet.from_dict(asked.model_dump())


def _judge_odds(query: dict[str, str]) -> None:
    try:
        target = int(query.get("target", "30"))
    except ValueError:
        return
    dice_rules.RuleSet.from_dict({"target": target, "set_aside": query.get("set_aside", "any")})
