"""The coin toss on the web: what generic code asks of a kind (`games.kinds.Kind`), written
only with what the generic parts hand on (the store's one path, the page shell, the guard
and seat links of `games.web.common`, the API's reading and answering)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, cast

import pydantic
from django import forms
from django.http import HttpResponse, HttpResponseForbidden, QueryDict
from django.shortcuts import redirect
from django.template import engines
from django.urls import URLPattern
from django.utils.cache import add_never_cache_headers
from pydantic import Field

from games import kinds, store
from games.access import Access
from games.api.base import answer
from games.api.models import Answer, Request
from games.api.openapi import Operation
from games.kinds import Pages, Refusal, RulesSection, Standing
from games.models import Game, Seat
from games.page_stream import Mark, Update
from games.rules import RuleError
from games.rules.engine import Engine
from games.translate import rule_error_message
from games.web.common import HtmxHttpRequest, host_links, int_or_none, poll_seconds, share_url

from .rules import ENGINE, CoinRules, CoinState

_DJANGO = engines["django"]


def _inner(template: Any) -> Any:
    """The template itself, which `{% include %}` takes from the context."""
    return template.template


# The coin's region of the page shell, and the same region alone for a live update.
AREA = """<section id="coin-area"{% if oob %} hx-swap-oob="true"{% endif %}>
  <p id="to-move">{% if to_move is None %}Over: {{ winner }} won
    {% else %}{{ to_move }} calls{% endif %}</p>
  <ol id="tosses">{% for toss in tosses %}
    <li>{{ toss.name }} called {{ toss.call }}, it fell {{ toss.fell }}</li>{% endfor %}</ol>
  <p id="points">{% for name, points in scores %}{{ name }}: {{ points }} {% endfor %}</p>
  {% if mine %}<form method="post" action="{% url 'move' game.pk %}">{% csrf_token %}
    <input type="hidden" name="v" value="{{ game.version }}">
    <button name="call" value="heads">Heads</button><button name="call" value="tails">Tails</button>
  </form>{% endif %}
  {% if move_error %}<p class="error" role="alert">{{ move_error }}</p>{% endif %}
</section>"""
PAGE = _DJANGO.from_string(
    '{% extends "games/page.html" %}{% block play %}{% include area %}{% endblock %}'
)
UPDATE = _DJANGO.from_string('{% include area %}{% include "games/live_poller.html" %}')
# Its part of the create form and of the rules page.
FORM_FIELDSETS = _DJANGO.from_string(
    '<fieldset class="coin-only"><legend>Coin toss</legend>'
    "<label>{{ form.first_to.label }} {{ form.first_to }}</label></fieldset>"
)
RULES_SECTION = _DJANGO.from_string("<p>Call heads or tails; a right call scores a point.</p>")
SEAT_LINKS = _DJANGO.from_string(
    '<ul id="seat-links">{% for link in seat_links %}'
    '<li><a href="{{ link.url }}">{{ link.name }}</a></li>{% endfor %}</ul>'
)
_AREA = _DJANGO.from_string(AREA)


class CoinPages:
    not_yours = "Only a player's own phone calls that seat's toss."

    def page(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        context = _context(request, game, access)
        if access.host:
            context |= host_links(request, game)
        response = HttpResponse(PAGE.render(context, request))
        add_never_cache_headers(response)
        return response

    def update(self, request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
        context = _context(request, game, access) | {"oob": True}
        return Update(UPDATE.render(context, request), game.version, whole=True)

    def move(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        if access.seat is None:
            return HttpResponseForbidden(self.not_yours)
        error = None
        try:
            move = ENGINE.read_move({"call": request.POST.get("call")})
            store.play(game.pk, access.seat, move, version=int_or_none(request.POST.get("v")))
        except RuleError as refused:
            error = rule_error_message(refused)
        except store.StaleVersionError:
            error = "The game changed before your call arrived."
        except store.NotYourTurnError:
            error = "It is not your turn."
        if error is None and not request.htmx:
            return redirect("game", game.pk)
        game.refresh_from_db()
        context = _context(request, game, access) | {"move_error": error, "oob": True}
        return HttpResponse(UPDATE.render(context, request), status=200 if error is None else 422)

    def chart(self, game: Game, upto: int | None, size: str) -> str:
        _, rows = store.load_cells(game)
        return f'<svg xmlns="http://www.w3.org/2000/svg"><title>{len(rows)} tosses</title></svg>'

    def replay(self, request: HtmxHttpRequest, game: Game) -> HttpResponse:
        return redirect("game", game.pk)


def _state(game: Game) -> CoinState:
    return cast(CoinState, store.load_state(game))


def _context(request: HtmxHttpRequest, game: Game, access: Access) -> dict[str, Any]:
    view = _state(game).view(access.seat)
    names = list(Seat.objects.filter(game=game).values_list("name", flat=True))
    to_move = view["to_move"]
    winners = [names[s] for s, p in enumerate(view["points"]) if p >= game.rules_data["first_to"]]
    return {
        "game": game,
        "host": access.host,
        "area": _inner(_AREA),
        "to_move": None if to_move is None else names[to_move],
        "winner": " and ".join(winners),
        "mine": access.seat is not None and access.seat == to_move,
        "tosses": [toss | {"name": names[toss["seat"]]} for toss in view["tosses"]],
        "scores": list(zip(names, view["points"], strict=True)),
        "rules_summary": [f"First to {game.rules_data['first_to']}"],
        "share_url": share_url(request, game),
        "poll_seconds": poll_seconds(finished=to_move is None),
        "seat_links_template": _inner(SEAT_LINKS),
        "exports": False,
        "stream_marks": {},
    }


class CoinSeat(Answer):
    seat: int
    name: str
    points: int


class CoinToss(Answer):
    seat: int
    call: str
    fell: str
    point: bool


class CoinForm(forms.Form):
    first_to = forms.IntegerField(label="Points to win", min_value=1, max_value=9, required=False)


class CoinRulesModel(Request):
    preset: Literal["coin"]
    first_to: Annotated[int, Field(ge=1, le=9)] = 3


class CoinCall(Request):
    call: Literal["heads", "tails"]
    version: int | None = None


class CoinGameState(Answer):
    id: str
    name: str
    kind: str
    version: int
    to_move: int | None
    seats: list[CoinSeat]
    tosses: list[CoinToss]


class NewCoinGameState(CoinGameState):
    host_key: str
    seat_keys: list[str | None]


class CoinKind:
    name = ENGINE.name
    presets: Sequence[tuple[str, str]] = (("coin", "Coin toss"),)
    seats = (2, 6)
    shared_state = True
    refuses: Mapping[str, Refusal] = {
        op: Refusal(404, "A coin toss has no such thing.")
        for op in (kinds.TYPED_TURN, kinds.ROLL, kinds.UNDO, kinds.CARD, kinds.EXPORT)
    }
    engine: Engine[Any, Any, Any] = ENGINE
    pages: Pages = CoinPages()
    state_model: type[pydantic.BaseModel] = CoinGameState
    new_state_model: type[pydantic.BaseModel] = NewCoinGameState
    options: frozenset[str] = frozenset()
    form_presets: Sequence[tuple[str, str]] = (("coin", "Coin toss: first to the points wins"),)
    form: type[forms.Form] = CoinForm
    form_template: Any = _inner(FORM_FIELDSETS)
    rules_sections: Sequence[RulesSection] = (
        RulesSection("coin", "Coin toss", _inner(RULES_SECTION)),
    )
    rules_models: Sequence[tuple[str, type[pydantic.BaseModel]]] = (("coin", CoinRulesModel),)
    move_models: Sequence[type[pydantic.BaseModel]] = (CoinCall,)
    api_operations: Sequence[Operation] = ()
    urlpatterns: Sequence[URLPattern] = ()
    host_moves = False
    beat_labels: frozenset[str] = frozenset()
    hit_labels: frozenset[str] = frozenset()

    def read_rules(self, raw: Mapping[str, Any]) -> CoinRules:
        return CoinRules.from_dict(raw)

    def form_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"preset": "coin", "first_to": data.get("first_to") or 3}

    def form_extras(self, query: QueryDict, players: int) -> dict[str, Any]:
        return {}

    player_template: str | None = None

    def rules_context(self) -> dict[str, Any]:
        return {}

    def check(self, rules: Mapping[str, Any], seats: int) -> None:
        ENGINE.start(self.read_rules(rules), seats, "00")

    def create(
        self, name: str, seats: Sequence[tuple[str, bool]], rules: Mapping[str, Any], **options: Any
    ) -> tuple[Game, str]:
        players = [store.Player(seat_name, computer) for seat_name, computer in seats]
        return store.start_game(self.name, name, players, dict(rules))

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        view = _state(game).view(seat)
        names = Seat.objects.filter(game=game).values_list("name", flat=True)
        to_move = view["to_move"]
        return {
            "id": game.pk,
            "name": game.name,
            "kind": game.kind,
            "version": game.version,
            "to_move": None if to_move is None else to_move + 1,
            "seats": [
                {"seat": s + 1, "name": name, "points": points}
                for s, (name, points) in enumerate(zip(names, view["points"], strict=True))
            ],
            "tosses": [toss | {"seat": toss["seat"] + 1} for toss in view["tosses"]],
        }

    def api_detail(self, game: Game, seat: int | None, since: int) -> HttpResponse:
        return answer(self.state_model, self.api_state(game, seat))

    def api_move(self, game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
        assert seat is not None  # only a seat's own key calls (`host_moves`)
        version = body.pop("version", None)
        played = store.play(game.pk, seat, ENGINE.read_move(body), version=version)
        return answer(self.state_model, self.api_state(played.game, seat), status=201)

    def to_move(self, game: Game) -> int | None:
        return _state(game).to_move()

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        first_to = game.rules_data["first_to"]
        winners = tuple(s for s, points in enumerate(cell_sums) if points >= first_to)
        return Standing(bool(winners), winners)

    def sheet_csv(self, game: Game) -> str:
        names, rows = store.load_cells(game)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["Toss", *names])
        for number, cells in rows:
            writer.writerow([number, *cells])
        return out.getvalue()

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        players = [store.Player(name, computer) for name, computer in seats]
        return store.start_game(self.name, old.name, players, old.rules_data, rematch_of=old)


COIN = CoinKind()
