"""A dice game's latest moves in words, as the table screen (`/g/<id>/table`) shows them in
large type beside the sheet, the way the card game's table lists its latest moves: the last
rows of the sheet, the newest first, each with the dice the app rolled for it. (A turn the app
is rolling now is in the dice tray above them, with its dice.) A computer's row waits for its
dice at the table's pace, as the sheet's row does (the same `data-pace` key)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.kinds.dice.sheet import SheetRow

# How many of the sheet's rows the table screen lists.
LATEST_SHOWN = 4


@dataclass(frozen=True)
class LatestMove:
    said: str  # what the turn did, in words
    dice: str  # the dice the app rolled for it, in words; empty for a turn typed in
    number: int  # the row's number on the sheet
    by_computer: bool


def latest_moves(rows: Sequence[SheetRow]) -> tuple[LatestMove, ...]:
    """`rows` are the sheet's last rows, the newest last."""
    return tuple(
        LatestMove(row.said, row.dice, row.number, row.by_computer)
        for row in reversed(rows[-LATEST_SHOWN:])
    )
