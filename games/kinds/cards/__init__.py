"""Thirty, the card game, on the web: what generic code asks of it (`games.kinds.Kind`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic
from django import forms as django_forms
from django.http import HttpResponse, QueryDict
from django.urls import URLPattern
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from games import store
from games.api.base import answer
from games.api.openapi import Operation
from games.kinds import EXPORT, ROLL, TYPED_TURN, UNDO, Pages, Refusal, RulesSection, Standing
from games.kinds.cards import api, api_models, tournaments
from games.kinds.cards.form import CardRulesForm
from games.kinds.cards.pages import CardPages
from games.kinds.cards.state import card_state
from games.models import Cell, Game
from games.rules import cards
from games.rules.engine import Engine
from games.spreadsheet import spreadsheet_text

# The card game's moves are cards (POST …/moves): a dice turn, typed in or rolled, is not one.
_NOT_DICE = Refusal(404, gettext_noop("This is the card game: its moves are cards (POST …/moves)."))


class CardKind:
    name = cards.KIND
    presets: Sequence[tuple[str, str | Promise]] = (
        ("cards", gettext_lazy("Thirty, the card game")),
    )
    seats = (cards.MIN_PLAYERS, cards.MAX_PLAYERS)
    shared_state = False  # every seat sees its own hand
    engine: Engine[Any, Any, Any] = cards.ENGINE
    refuses: Mapping[str, Refusal] = {
        TYPED_TURN: _NOT_DICE,
        ROLL: _NOT_DICE,
        UNDO: Refusal(409, gettext_noop("A card played face up cannot be taken back.")),
        # Its moves replay only with the secret seed, which no file may carry: the sheet
        # (CSV) is the card game's export.
        EXPORT: Refusal(404, gettext_noop("A card game is exported as its sheet (CSV).")),
    }
    options: frozenset[str] = frozenset()
    form_presets: Sequence[tuple[str, str | Promise]] = (
        ("cards", gettext_lazy("Thirty, the card game: keep the total between 0 and 30")),
    )
    form: type[django_forms.Form] = CardRulesForm
    form_template = "games/card_rules_form.html"
    rules_sections: Sequence[RulesSection] = (
        RulesSection("cards", gettext_lazy("Thirty, the card game"), "rules/cards.html"),
    )
    host_moves = False
    beat_labels: frozenset[str] = frozenset()  # a deal's row is a loss, never a success
    hit_labels: frozenset[str] = frozenset()
    pages: Pages = CardPages()
    state_model: type[pydantic.BaseModel] = api_models.CardState
    new_state_model: type[pydantic.BaseModel] = api_models.NewCardState
    rules_models: Sequence[tuple[str, type[pydantic.BaseModel]]] = (
        ("cards", api_models.CardRules),
    )
    move_models: Sequence[type[pydantic.BaseModel]] = (api_models.NewMove,)
    api_operations: Sequence[Operation] = ()
    urlpatterns: Sequence[URLPattern] = ()  # every address of the card game is every kind's

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        return card_state(game, seat)

    def read_rules(self, raw: Mapping[str, Any]) -> cards.CardRules:
        return cards.CardRules.from_dict(raw)

    def form_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "preset": "cards",
            "tokens": data.get("tokens") or 5,
            "fewer_jacks": bool(data.get("fewer_jacks")),
            "queens": bool(data.get("queens")),
            "single_stock": bool(data.get("single_stock")),
        }

    def form_extras(self, query: QueryDict, players: int) -> dict[str, Any]:
        return {}

    player_template: str | None = None

    def rules_context(self) -> dict[str, Any]:
        return {"tokens": cards.CardRules().tokens}

    def check(self, rules: Mapping[str, Any], seats: int) -> None:
        cards.Tournament.start(self.read_rules(rules), seats, "00")  # refuses a wrong count

    def create(
        self, name: str, seats: Sequence[tuple[str, bool]], rules: Mapping[str, Any], **options: Any
    ) -> tuple[Game, str]:
        players = [store.Player(seat_name, computer) for seat_name, computer in seats]
        return tournaments.create_card_game(name, players, self.read_rules(rules))

    def api_detail(self, game: Game, seat: int | None, since: int) -> HttpResponse:
        return answer(self.state_model, self.api_state(game, seat))

    def api_move(self, game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
        return api.play_move(game, seat, body)

    def to_move(self, game: Game) -> int | None:
        seat: int | None = tournaments.load_tournament(game).to_move()
        return seat

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        """From the tokens each seat gave up: the last player holding tokens wins; when a
        single-stock end took the last token of everyone still in, those players share the
        win (one more query, for that rare case)."""
        tokens = tournaments.rules_of(game).tokens
        holding = tuple(seat for seat, lost in enumerate(cell_sums) if lost < tokens)
        if len(holding) == 1:
            return Standing(True, holding)
        if holding:
            return Standing(False, ())
        last = Cell.objects.filter(turn__game=game).order_by("-turn__number", "seat__position")
        row = list(last.values_list("seat__position", "value")[: len(cell_sums)])
        return Standing(True, tuple(seat for seat, value in row if value))

    def sheet_csv(self, game: Game) -> str:
        """The tokens each seat gave up, deal by deal. No hand, no stock."""
        names, rows = store.load_cells(game)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([_("Deal"), *(spreadsheet_text(name) for name in names)])
        given_up = [0] * len(names)
        for number, cells in rows:
            writer.writerow([number, *cells])
            given_up = [total + cell for total, cell in zip(given_up, cells, strict=True)]
        tokens = tournaments.rules_of(game).tokens
        writer.writerow([_("Tokens left"), *(tokens - lost for lost in given_up)])
        return out.getvalue()

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        players = [store.Player(name, computer) for name, computer in seats]
        return tournaments.create_card_game(
            old.name, players, tournaments.rules_of(old), rematch_of=old
        )


CARDS = CardKind()
