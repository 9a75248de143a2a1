"""Thirty, the card game, on the web: what generic code asks of it (`games.kinds.Kind`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from games import api_models, store
from games.kinds import ROLL, TYPED_TURN, UNDO, Refusal, Standing
from games.kinds.cards.state import card_state
from games.models import Cell, Game
from games.rules import cards as card_rules
from games.spreadsheet import spreadsheet_text

# The card game's moves are cards (POST …/moves): a dice turn, typed in or rolled, is not one.
_NOT_DICE = Refusal(404, gettext_noop("This is the card game: its moves are cards (POST …/moves)."))


class CardKind:
    name = card_rules.KIND
    presets: Sequence[tuple[str, str | Promise]] = (
        ("cards", gettext_lazy("Thirty, the card game")),
    )
    shared_state = False  # every seat sees its own hand
    refuses: Mapping[str, Refusal] = {
        TYPED_TURN: _NOT_DICE,
        ROLL: _NOT_DICE,
        UNDO: Refusal(409, gettext_noop("A card played face up cannot be taken back.")),
    }
    state_model: type[pydantic.BaseModel] = api_models.CardState
    new_state_model: type[pydantic.BaseModel] = api_models.NewCardState

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        return card_state(game, seat)

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        """From the tokens each seat gave up: the last player holding tokens wins; when a
        single-stock end took the last token of everyone still in, those players share the
        win (one more query, for that rare case)."""
        tokens = game.card_rules.tokens
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
        tokens = game.card_rules.tokens
        writer.writerow([_("Tokens left"), *(tokens - lost for lost in given_up)])
        return out.getvalue()

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        players = [store.Player(name, computer) for name, computer in seats]
        return store.create_card_game(old.name, players, old.card_rules, rematch_of=old)


CARDS = CardKind()
