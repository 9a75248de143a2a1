"""What the score sheet shows: names, rows, the footer and whose turn it is, ready for the
templates. Built from a `stored.Snapshot`, or from the rows after a point for live updates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from django.utils.translation import gettext as _

from games import charts, store
from games.cache import cached_row
from games.kinds.dice import bgstats, coach
from games.kinds.dice import charts as dice_charts
from games.kinds.dice.explain import explain_row, undo_question
from games.kinds.dice.stored import (
    Snapshot,
    StoredRow,
    load_rows,
    load_snapshot,
    position_of,
    rules_of,
)
from games.kinds.dice.tray import audit, seed_number
from games.models import Game, Turn
from games.names import join_names
from games.rules import dice as dice_rules


@dataclass(frozen=True)
class SeatColumn(charts.SeatKey):
    position: int
    name: str
    points: int
    out: bool
    rolls_next: bool
    won: bool


class SheetCell(NamedTuple):
    """A tuple, not a dataclass: a row's cells are hashed and compared whenever the row is
    looked up among those already drawn (`{% sheet_row %}`), and a tuple does that in C."""

    value: int
    rolled: bool  # this seat rolled the turn


@dataclass(frozen=True)
class SheetRow:
    id: int
    number: int
    total: int
    effect: str
    cells: tuple[SheetCell, ...]
    why: str  # what the turn did, then the dice the app rolled for it (`said`, `dice`)
    by_computer: bool = False  # played by the computer for its seat
    said: str = ""  # what the turn did, in words
    dice: str = ""  # the dice the app rolled for it, in words; empty for a turn typed in


@dataclass(frozen=True)
class Sheet:
    game: Game
    ruleset: dice_rules.RuleSet
    seats: tuple[SeatColumn, ...]
    rows: tuple[SheetRow, ...]  # all rows, or only the new ones in a live update
    turn_count: int
    last_turn_id: int | None
    position: dice_rules.Position
    # What undo asks about the last row, when this sheet was built with it.
    undo_question: str | None = None
    # Whether the last row may be taken back: not when the app rolled it (the undo policy,
    # `store.undo`), which also holds for a computer's turn.
    undo_allowed: bool = True
    # The end-of-game highlights and the BG Stats link, once the game is over and the sheet
    # was built whole.
    summary: dice_charts.Summary | None = None
    # Luck and skill, once the game is over, where any turn's rolls are known.
    coaching: coach.Coaching | None = None
    bgstats_url: str | None = None
    # In a live update built with them: the last rows before `rows`, read in the same query,
    # for the watchers' latest moves (`last_rows`).
    earlier_rows: tuple[SheetRow, ...] = ()

    @property
    def finished(self) -> bool:
        return self.position.finished

    @property
    def winners(self) -> tuple[SeatColumn, ...]:
        return tuple(seat for seat in self.seats if seat.won)

    @property
    def winner_names(self) -> str:
        return join_names([seat.name for seat in self.winners])

    @property
    def chart_alt(self) -> str:
        """What the chart shows, in words: where each line ends."""
        ends = join_names(
            [
                _("%(name)s out") % {"name": seat.name}
                if seat.out
                else f"{seat.name} {str(seat.points).replace('-', '−')}"
                for seat in self.seats
            ]
        )
        if self.ruleset.counts_up:
            return _("Chart of each player’s points after every turn. Now: %(ends)s.") % {
                "ends": ends
            }
        return _("Chart of each player’s points left after every turn. Now: %(ends)s.") % {
            "ends": ends
        }

    @property
    def next_roller(self) -> SeatColumn | None:
        roller = self.position.next_roller
        return None if roller is None else self.seats[roller]


def full_sheet(game: Game) -> Sheet:
    return sheet_of(load_snapshot(game))


def sheet_of(snapshot: Snapshot) -> Sheet:
    last = snapshot.rows[-1] if snapshot.rows else None
    sheet = _sheet(
        snapshot.game,
        snapshot.names,
        snapshot.position,
        snapshot.rows,
        turn_count=last.number if last else 0,
        last_turn_id=last.id if last else None,
    )
    if sheet.finished and last is not None:
        ended = Turn.objects.filter(pk=last.id).values_list("created_at", flat=True).first()
        sheet = replace(
            sheet,
            summary=dice_charts.summary(snapshot),
            coaching=coach.coaching(snapshot),
            bgstats_url=bgstats.link(
                bgstats.play_data(snapshot, ended or snapshot.game.updated_at)
            ),
        )
    return sheet


def sheet_since(
    game: Game,
    count: int,
    last_turn_id: int | None,
    position: dice_rules.Position | None = None,
    *,
    earlier: int = 0,
) -> tuple[Sheet, bool]:
    """The sheet with only the rows a follower does not have yet.

    The follower has `count` rows, the last with id `last_turn_id`. While those are still
    the first rows of the game, only the rows after them are loaded, so a change costs the
    same at turn 500 as at turn 10. After an undo they are not, and every row is loaded:
    the second value then says the follower must replace its rows. `position`, if given,
    is the game's current one. The `earlier` rows before the new ones are read in the same
    query and kept apart (`Sheet.earlier_rows`), for an update that shows the latest moves.
    """
    seats = store.seats_at_version(game)
    names = [seat.name for seat in seats]
    ruleset = rules_of(game)
    # The follower's last row is read with the new ones, in the same statement, to see that
    # it is still the game's: after an undo it is not.
    read = load_rows(
        game, ruleset, [seat.id for seat in seats], after=max(0, count - max(earlier, 1))
    )
    if count:
        known = next((row.id for row in read if row.number == count), None)
        if known is None or known != last_turn_id:
            return full_sheet(game), True
    rows = [row for row in read if row.number > count]
    sheet = _sheet(
        game,
        names,
        position or position_of(game),
        rows,
        turn_count=rows[-1].number if rows else count,
        last_turn_id=rows[-1].id if rows else last_turn_id,
    )
    before = tuple(
        _sheet_row(game, row, names, ruleset)
        for row in read
        if count - earlier < row.number <= count
    )
    return replace(sheet, earlier_rows=before), False


def last_rows(sheet: Sheet, count: int) -> tuple[SheetRow, ...]:
    """The last `count` rows of `sheet`'s game as it stood, the newest last: from `sheet` itself
    where it holds them (a whole sheet, or an update with as many new rows), else read (two
    queries, however long the game)."""
    held = sheet.earlier_rows + sheet.rows
    if len(held) >= count or len(held) == sheet.turn_count:
        return held[-count:] if count else ()
    game = sheet.game
    seats = store.seats_at_version(game)
    after = max(0, sheet.turn_count - count)
    stored = load_rows(game, sheet.ruleset, [seat.id for seat in seats], after=after)
    names = [seat.name for seat in seats]
    # A row written since `sheet` was read is not part of it.
    return tuple(
        _sheet_row(game, row, names, sheet.ruleset)
        for row in stored
        if row.number <= sheet.turn_count
    )


def _sheet_row(
    game: Game, stored: StoredRow, names: Sequence[str], ruleset: dice_rules.RuleSet
) -> SheetRow:
    """The row as the sheet shows it, worked out once per process and language: a turn's row
    is never changed once written (an undo removes it, and a new one gets a new id), so its
    words depend only on the game, the turn, the names and which seed rolled it. Every new
    version of a long game otherwise explained all its rows again."""
    seed = seed_number(game, stored.seed_index)
    return cached_row(
        ("words", game.pk, stored.id, tuple(names), seed),
        lambda: _explained_row(stored, names, ruleset, seed),
    )


def _explained_row(
    stored: StoredRow, names: Sequence[str], ruleset: dice_rules.RuleSet, seed: int | None
) -> SheetRow:
    said = explain_row(stored.row, names, ruleset)
    dice = " ".join(
        part
        for part in (
            audit(stored.rolls, stored.hunt_rolls, seed, table=stored.table),
            coach.what_if(stored.analysis),
        )
        if part
    )
    return SheetRow(
        id=stored.id,
        number=stored.number,
        total=stored.row.turn.total,
        effect=stored.row.effect.value,
        cells=tuple(
            SheetCell(value, seat == stored.row.roller)
            for seat, value in enumerate(stored.row.cells)
        ),
        why=" ".join(part for part in (said, dice) if part),
        by_computer=stored.by_computer,
        said=said,
        dice=dice,
    )


def _sheet(
    game: Game,
    names: Sequence[str],
    position: dice_rules.Position,
    rows: Sequence[StoredRow],
    *,
    turn_count: int,
    last_turn_id: int | None,
) -> Sheet:
    ruleset = position.rules
    winners = set(position.winners)
    seats = tuple(
        SeatColumn(
            position=seat,
            name=name,
            points=position.points[seat],
            out=position.is_out(seat),
            rolls_next=position.next_roller == seat,
            won=seat in winners,
        )
        for seat, name in enumerate(names)
    )
    sheet_rows = tuple(_sheet_row(game, stored, names, ruleset) for stored in rows)
    last = rows[-1].row if rows else None
    return Sheet(
        game,
        ruleset,
        seats,
        sheet_rows,
        turn_count,
        last_turn_id,
        position,
        undo_question=None if last is None else undo_question(last, names, ruleset),
        undo_allowed=not rows or rows[-1].rolls is None or rows[-1].table,
    )
