"""The dice games Thirty and 30s on the web: what generic code asks of them
(`games.kinds.Kind`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from django.utils.translation import gettext as _

from games import store
from games.kinds import Standing
from games.models import Game
from games.rules import dice as dice_rules
from games.spreadsheet import spreadsheet_text


class DiceKind:
    name = "dice"

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
