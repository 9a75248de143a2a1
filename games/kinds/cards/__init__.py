"""Thirty, the card game, on the web: what generic code asks of it (`games.kinds.Kind`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from django.utils.translation import gettext as _

from games import store
from games.kinds import Standing
from games.models import Cell, Game
from games.spreadsheet import spreadsheet_text


class CardKind:
    name = "cards"

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
