"""The dice games Thirty and 30s on the web: what generic code asks of them
(`games.kinds.Kind`)."""

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

from games.api.openapi import Operation
from games.kinds import CARD, CLAIM, Pages, Refusal, RulesSection, Standing
from games.kinds.dice import api, api_models, chances, moves, transfer
from games.kinds.dice.form import DiceRulesForm
from games.kinds.dice.pages import DicePages
from games.kinds.dice.state import game_state
from games.kinds.dice.stored import load_snapshot, position_of, rules_of
from games.models import Game
from games.rules import dice as dice_rules
from games.rules.dice.ruleset import (
    MAX_START_POINTS,
    MAX_TARGET,
    MIN_START_POINTS,
    MIN_TARGET,
    THIRTY_S_LIMIT,
)
from games.rules.engine import Engine
from games.spreadsheet import spreadsheet_text


class DiceKind:
    name = "dice"
    presets: Sequence[tuple[str, str | Promise]] = (
        ("thirty", gettext_lazy("Thirty")),
        ("30s", "30s"),
    )
    seats = (dice_rules.MIN_PLAYERS, dice_rules.MAX_PLAYERS)
    shared_state = True
    engine: Engine[Any, Any, Any] = dice_rules.ENGINE
    refuses: Mapping[str, Refusal] = {
        CARD: Refusal(404, gettext_noop("This game is played with dice: it has no cards to play.")),
        CLAIM: Refusal(404, gettext_noop("Only the card game's seats are claimed.")),
    }
    state_model: type[pydantic.BaseModel] = api_models.GameState
    new_state_model: type[pydantic.BaseModel] = api_models.NewGameState
    rules_models: Sequence[tuple[str, type[pydantic.BaseModel]]] = (
        ("thirty", api_models.ThirtyRules),
        ("30s", api_models.ThirtySRules),
    )
    move_models: Sequence[type[pydantic.BaseModel]] = (api_models.NewTurn, api_models.NewRoll)
    api_operations: Sequence[Operation] = api_models.OPERATIONS
    options = frozenset({"table_dice"})
    form_presets: Sequence[tuple[str, str | Promise]] = (
        ("thirty", gettext_lazy("Thirty: points count down from a starting number")),
        ("30s", gettext_lazy("30s: points count up, 30 is out")),
    )
    form: type[django_forms.Form] = DiceRulesForm
    form_template = "games/dice_rules_form.html"
    rules_sections: Sequence[RulesSection] = (
        RulesSection("thirty", gettext_lazy("Thirty"), "rules/thirty.html"),
        RulesSection("thirty-s", gettext_lazy("30s"), "rules/thirty_s.html"),
    )
    host_moves = True
    beat_labels = frozenset(effect.value for effect in dice_rules.Effect) - {
        dice_rules.Effect.MISSED.value
    }
    hit_labels = frozenset({dice_rules.Effect.HIT.value})
    pages: Pages = DicePages()

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        return game_state(game).as_dict()  # the same for every seat: nothing is hidden

    def read_rules(self, raw: Mapping[str, Any]) -> dice_rules.RuleSet:
        return dice_rules.RuleSet.from_dict(raw)

    def form_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        set_aside = data.get("set_aside") or "any"
        if data.get("preset") == "30s":
            return {
                "preset": "30s",
                "set_aside": set_aside,
                "end": "first_out" if data.get("first_out") else "last_standing",
                "healing": bool(data.get("healing")),
                "free_for_all": bool(data.get("free_for_all")),
                "weaker_attacks": bool(data.get("weaker_attacks")),
                "precise_elimination": bool(data.get("precise_elimination")),
            }
        return {
            "preset": "thirty",
            "start_points": data.get("start_points") or 30,
            "target": data.get("target") or MIN_TARGET,
            "set_aside": set_aside,
            "on_failure": data.get("on_failure") or "nothing",
            "empty_seat": "lost" if data.get("empty_seat_lost") else "carry",
            "hunt_dice": "margin" if data.get("hunt_margin") else "six",
        }

    player_template = "games/dice_player.html"

    @property
    def urlpatterns(self) -> Sequence[URLPattern]:
        from games.kinds.dice.urls import urlpatterns  # the views import the kinds: on use

        return urlpatterns

    def form_extras(self, query: QueryDict, players: int) -> dict[str, Any]:
        """How long a game under the rules asked takes, drawn under the rules."""
        # Not waited for: a line the form's page draws at once asks for the figures by itself.
        return {
            "estimate": chances.estimate_context(chances.read_query(query, players), wait=False)
        }

    def rules_context(self) -> dict[str, Any]:
        defaults = dice_rules.RuleSet()
        return {
            "min_players": dice_rules.MIN_PLAYERS,
            "max_players": dice_rules.MAX_PLAYERS,
            "start_points": defaults.start_points,
            "min_start_points": MIN_START_POINTS,
            "max_start_points": MAX_START_POINTS,
            "target": defaults.target,
            "min_target": MIN_TARGET,
            "max_target": MAX_TARGET,
            "limit": THIRTY_S_LIMIT,
        }

    def check(self, rules: Mapping[str, Any], seats: int) -> None:
        self.read_rules(rules)  # the table's size is the player list's to check

    def create(
        self, name: str, seats: Sequence[tuple[str, bool]], rules: Mapping[str, Any], **options: Any
    ) -> tuple[Game, str]:
        return moves.create_game(
            name,
            [seat_name for seat_name, _computer in seats],
            self.read_rules(rules),
            computers=[seat for seat, (_name, computer) in enumerate(seats) if computer],
            table_dice=bool(options.get("table_dice")),
        )

    def api_detail(self, game: Game, seat: int | None, since: int) -> HttpResponse:
        return game_state(game).response(since)

    def api_move(self, game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
        return api.play_move(game, seat, body)

    def to_move(self, game: Game) -> int | None:
        return position_of(game).next_roller

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        position = dice_rules.Position.from_cell_sums(rules_of(game), cell_sums)
        return Standing(position.finished, tuple(position.winners))

    def sheet_csv(self, game: Game) -> str:
        snapshot = load_snapshot(game)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["#", _("Roll"), *(spreadsheet_text(name) for name in snapshot.names)])
        for stored in snapshot.rows:
            writer.writerow([stored.number, stored.row.turn.total, *stored.row.cells])
        label = _("Points") if snapshot.rules.counts_up else _("Points left")
        writer.writerow([label, "", *snapshot.position.points])
        return out.getvalue()

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        return moves.create_game(
            old.name,
            [name for name, _computer in seats],
            rules_of(old),
            rematch_of=old,
            computers=[seat for seat, (_name, computer) in enumerate(seats) if computer],
            table_dice=old.table_dice,
        )

    def export_turns(self, game: Game) -> list[dict[str, Any]]:
        return transfer.export_turns(game)

    def import_turns(
        self, name: str, names: Sequence[str], rules: Any, turns: Sequence[Any]
    ) -> tuple[Game, str]:
        return transfer.import_turns(name, names, rules, turns)


DICE = DiceKind()
