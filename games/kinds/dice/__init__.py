"""The dice games Thirty and 30s on the web: what generic code asks of them
(`games.kinds.Kind`)."""

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
from games.kinds import CARD, CLAIM, Refusal, Standing
from games.models import Game
from games.rules import dice as dice_rules
from games.spreadsheet import spreadsheet_text
from games.state import game_state


class DiceKind:
    name = "dice"
    presets: Sequence[tuple[str, str | Promise]] = (
        ("thirty", gettext_lazy("Thirty")),
        ("30s", "30s"),
    )
    shared_state = True
    refuses: Mapping[str, Refusal] = {
        CARD: Refusal(404, gettext_noop("This game is played with dice: it has no cards to play.")),
        CLAIM: Refusal(404, gettext_noop("Only the card game's seats are claimed.")),
    }
    state_model: type[pydantic.BaseModel] = api_models.GameState
    new_state_model: type[pydantic.BaseModel] = api_models.NewGameState

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        return game_state(game).as_dict()  # the same for every seat: nothing is hidden

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        position = dice_rules.Position.from_cell_sums(game.rules, cell_sums)
        return Standing(position.finished, tuple(position.winners))

    def sheet_csv(self, game: Game) -> str:
        snapshot = store.load_snapshot(game)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["#", _("Roll"), *(spreadsheet_text(name) for name in snapshot.names)])
        for stored in snapshot.rows:
            writer.writerow([stored.number, stored.row.turn.total, *stored.row.cells])
        label = _("Points") if snapshot.rules.counts_up else _("Points left")
        writer.writerow([label, "", *snapshot.position.points])
        return out.getvalue()

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        return store.create_game(
            old.name,
            [name for name, _computer in seats],
            old.rules,
            rematch_of=old,
            computers=[seat for seat, (_name, computer) in enumerate(seats) if computer],
            table_dice=old.table_dice,
        )


DICE = DiceKind()
