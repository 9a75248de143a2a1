"""The dice tray: a turn with dice the app rolls, as every phone at the table draws it.

Built from the game's turn in progress (`stored.rolling_turn`) for the templates: the dice set
aside so far, the last roll (which the roller taps to set dice aside), the hunt, and, with
hints on, the exact chance of beating the target after each choice (`games.rules.dice.odds`).
Nothing here is secret: every die of a dice game is public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds.dice.stored import rules_of
from games.kinds.dice.stored import undone_turns as stored_undone_turns
from games.models import Game, Turn
from games.rules import dice as dice_rules
from games.rules.dice import odds
from games.rules.dice.rolled import Ask, RolledTurn

# Hints list the best few choices: a roll of six dice can offer dozens.
HINTS_SHOWN = 5


@dataclass(frozen=True)
class Die:
    face: int
    index: int  # its place in the roll, which the keep form sends
    hit: bool = False  # a hunt die that showed the margin
    kept: bool = False  # set aside from its roll


@dataclass(frozen=True)
class Hint:
    keep: tuple[int, ...]
    percent: str

    @property
    def faces(self) -> str:
        return ",".join(str(face) for face in self.keep)


@dataclass(frozen=True)
class Tray:
    roller: str
    ask: str | None
    kept: tuple[int, ...]
    kept_total: int
    last_roll: tuple[Die, ...]  # the dice to choose from (KEEP), else empty
    earlier: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (dice, kept) of past rolls
    hunt_rolls: tuple[tuple[Die, ...], ...]
    margin: int | None
    total: int | None
    found: int
    hunt_dice: int
    one_at_a_time: bool
    targets: tuple[tuple[int, str, int], ...]  # (seat, name, points) the roller may attack
    heal_amount: int
    hints: tuple[Hint, ...]
    fresh: int  # how many rolls the turn has had: the newest is drawn rolling
    table: bool = False  # the dice are thrown at the table: the roller enters each roll

    @property
    def status(self) -> str:
        """One line for everyone: what the roller is doing now."""
        names = {"name": self.roller}
        if self.ask == Ask.KEEP:
            if self.one_at_a_time:
                return _("%(name)s sets one die aside.") % names
            return _("%(name)s sets dice aside.") % names
        if self.ask == Ask.ACTION:
            return _("%(name)s beat the target by %(margin)s: heal or attack?") % (
                names | {"margin": self.margin}
            )
        if self.ask == Ask.TARGET:
            return _("%(name)s beat the target by %(margin)s and chooses whom to attack.") % (
                names | {"margin": self.margin}
            )
        if self.ask in (Ask.HUNT, Ask.GO_ON):
            return ngettext(
                "%(name)s hunts %(margin)ss: %(found)s die found so far.",
                "%(name)s hunts %(margin)ss: %(found)s dice found so far.",
                self.found,
            ) % (names | {"margin": self.margin, "found": self.found})
        return _("%(name)s rolls.") % names


def tray_of(turn: RolledTurn | None, names: Sequence[str], *, hints: bool) -> Tray | None:
    """The tray of the turn in progress; None when no turn is under way."""
    if turn is None:
        return None
    position = turn.position
    asked = turn.ask()
    last = turn.rolls[-1] if turn.rolls else None
    choosing = asked is Ask.KEEP and last is not None
    margin = turn.margin
    total = turn.total
    targets: tuple[tuple[int, str, int], ...] = ()
    if asked is Ask.TARGET and total is not None:
        question = position.ask(total, False)
        assert question is not None
        targets = tuple(
            (seat, names[seat], position.points[seat])
            for seat in question.options
            if isinstance(seat, int)
        )
    return Tray(
        roller=names[turn.roller],
        ask=None if asked is None else asked.value,
        kept=turn.kept,
        kept_total=turn.kept_total,
        last_roll=tuple(Die(face, i) for i, face in enumerate(last.dice))
        if choosing and last is not None
        else (),
        earlier=tuple((r.dice, r.kept or ()) for r in turn.rolls if r.kept is not None),
        hunt_rolls=tuple(
            tuple(Die(face, i, face == margin) for i, face in enumerate(roll.dice))
            for roll in turn.hunt_rolls
        ),
        margin=margin,
        total=total,
        found=turn.found,
        hunt_dice=turn.hunt_dice if total is not None and margin is not None else 0,
        one_at_a_time=position.rules.set_aside == "one",
        targets=targets,
        heal_amount=min(margin or 0, position.points[turn.roller]),
        hints=_hints(turn) if hints and choosing else (),
        fresh=turn.rolls_made,
        table=turn.table,
    )


@dataclass(frozen=True)
class Recap:
    """The last turn, when the app rolled it: every roll again, one after another, so that
    the table can follow a turn that was over at once (a computer's, or one from a phone)."""

    roller: str
    number: int
    total: int
    rolls: tuple[tuple[Die, ...], ...]
    hunt_rolls: tuple[tuple[Die, ...], ...]
    by_computer: bool  # every phone shows a computer's rolls at a table's pace (data-pace)
    seed: int | None = None  # the seed it was rolled with, from 1, once a game has had two


def recaps_of(game: Game, names: Sequence[str]) -> tuple[Recap, ...]:
    """The last turn again, if the app rolled it; where computers rolled the last turns, each
    of them since the last person's, in order, so that every phone sees each computer's
    dice at a table's pace (one query)."""
    last = (
        Turn.objects.filter(game=game)
        .order_by("-number")
        .values_list("number", "roller", "data", "by_computer", "seed_index")[: len(names)]
    )
    recaps: list[Recap] = []
    for number, roller, data, by_computer, seed_index in last:
        rolls = data.get("rolls")
        if rolls is None or (recaps and not by_computer):
            break  # typed in from the table's own dice, or a person's turn before computers'
        recap = _recap(
            game, names[roller], number, data["total"], rolls, data["hunt_rolls"], by_computer
        )
        seed = None if data.get("table") else seed_number(game, seed_index)
        recaps.append(replace(recap, seed=seed))
        if not by_computer:
            break
    return tuple(reversed(recaps))


def _recap(
    game: Game,
    roller: str,
    number: int,
    total: int,
    rolls: Sequence[dict[str, Any]],
    hunt_rolls: Sequence[dict[str, Any]] | None,
    by_computer: bool,
) -> Recap:
    margin = total - rules_of(game).beat_above
    return Recap(
        roller,
        number,
        total,
        tuple(_marked(roll["dice"], roll["kept"] or ()) for roll in rolls),
        tuple(
            tuple(Die(face, i, hit=face == margin) for i, face in enumerate(hunt["dice"]))
            for hunt in hunt_rolls or ()
        ),
        by_computer,
    )


def _marked(dice: Sequence[int], kept: Sequence[int]) -> tuple[Die, ...]:
    """A roll's dice, the ones set aside marked (each kept face once, as often as kept)."""
    left = Counter(kept)
    marked = []
    for index, face in enumerate(dice):
        marked.append(Die(face, index, kept=left[face] > 0))
        left[face] -= 1
    return tuple(marked)


def _hints(turn: RolledTurn) -> tuple[Hint, ...]:
    rules_ = turn.position.rules
    choices = odds.keep_choices(
        turn.rolls[-1].dice, turn.kept_total, rules_.beat_above, rules_.set_aside
    )
    return tuple(Hint(choice.keep, percent(choice.p_beat)) for choice in choices[:HINTS_SHOWN])


def percent(chance: Any) -> str:
    """A chance as people read it: whole percents, with "<1%" and ">99%" at the ends."""
    value = float(chance) * 100
    if 0 < value < 1:
        return "<" + _("%(percent)s%%") % {"percent": 1}
    if 99 < value < 100:
        return ">" + _("%(percent)s%%") % {"percent": 99}
    return _("%(percent)s%%") % {"percent": round(value)}


def before_roll_chance(position: dice_rules.Position) -> str:
    """The chance of beating the target in a whole turn, before its first roll."""
    return percent(odds.win_chance(6, 0, position.rules.beat_above, position.rules.set_aside))


def seed_number(game: Game, seed_index: int | None) -> int | None:
    """Which seed rolled a turn, numbered from 1 as the seed list numbers them, where a checker
    needs it: in a game an undo reopened, which has rolled with more than one seed."""
    if seed_index is None or not game.earlier_seeds:
        return None
    return seed_index + 1


def audit(
    rolls: list[dict[str, Any]] | None,
    hunt_rolls: list[dict[str, Any]] | None,
    seed: int | None = None,
    *,
    table: bool = False,
) -> str:
    """A rolled turn's audit trail in words, for the row's explanation: dice the app rolled,
    with the number of the seed that rolled them (`seed_number`), or dice thrown at the table
    and entered roll by roll (`table`)."""
    if rolls is None:
        return ""
    steps = " · ".join(
        _("%(dice)s → set aside %(kept)s")
        % {"dice": faces_text(r["dice"]), "kept": faces_text(r["kept"])}
        for r in rolls
    )
    if table:
        text = _("Dice thrown at the table: %(steps)s.") % {"steps": steps}
    else:
        text = _("Dice rolled by the app: %(steps)s.") % {"steps": steps}
    for hunt in hunt_rolls or ():
        text += " " + ngettext(
            "Hunt: %(dice)s, %(hits)s die found.",
            "Hunt: %(dice)s, %(hits)s dice found.",
            hunt["hits"],
        ) % {"dice": faces_text(hunt["dice"]), "hits": hunt["hits"]}
    if seed is not None and not table:
        text += " " + _("Rolled with seed %(number)s.") % {"number": seed}
    return text


def faces_text(dice: Sequence[int] | None) -> str:
    return " ".join(str(face) for face in dice or ())


@dataclass(frozen=True)
class Undone:
    """An app-rolled turn the host took back, as the page lists it."""

    number: int
    roller: str
    total: int
    when: datetime
    dice: str


def undone_turns(game: Game, names: Sequence[str]) -> tuple[Undone, ...]:
    """The app-rolled turns taken back that the game's log keeps, newest first."""
    return tuple(
        Undone(
            entry["number"],
            names[entry["roller"]],
            entry["total"],
            datetime.fromisoformat(entry["undone_at"]),
            audit(
                entry["rolls"],
                entry.get("hunt_rolls"),
                seed_number(game, entry.get("seed_index")),
            ),
        )
        for entry in reversed(stored_undone_turns(game))
    )
