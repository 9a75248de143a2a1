"""The card game's chart: each seat's tokens deal by deal."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.charts import Line, lines, render


def card_lines(
    names: Sequence[str],
    tokens: int,
    cell_rows: Sequence[Sequence[int]],
    winners: Sequence[int] = (),
) -> tuple[Line, ...]:
    """Each seat's tokens before the first deal and after each deal: a card game's cells
    are the tokens given up, and a seat with none left is out."""
    return lines(names, tokens, -1, cell_rows, lambda left: left <= 0, winners)


def render_card_chart(
    names: Sequence[str],
    tokens: int,
    cell_rows: Sequence[Sequence[int]],
    winners: Sequence[int] = (),
    size: str = "wide",
) -> str:
    """A card game's chart, tokens deal by deal, as a standalone SVG document."""
    return render(
        card_lines(names, tokens, cell_rows, winners),
        len(cell_rows),
        size,
        x_title=_("Deal"),
        y_title=_("Tokens left"),
        top=tokens,
        no_data=_("No deal is over yet"),
        whole_numbers=True,
    )
