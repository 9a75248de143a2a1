"""The dice games' chart (points turn by turn) and their end-of-game summary: the highlights
and the luckiest turn, with the exact chances they quote."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.charts import Line, lines, render
from games.kinds.dice.stored import Snapshot, StoredRow
from games.names import join_names
from games.rules import dice as dice_rules
from games.rules.dice.ruleset import THIRTY_S_LIMIT


def dice_lines(snapshot: Snapshot) -> tuple[Line, ...]:
    ruleset = snapshot.rules
    counts_up = ruleset.counts_up

    def is_out(points: int) -> bool:
        return points >= THIRTY_S_LIMIT if counts_up else points <= 0

    return lines(
        snapshot.names,
        0 if counts_up else ruleset.start_points,
        1 if counts_up else -1,
        [stored.row.cells for stored in snapshot.rows],
        is_out,
        snapshot.position.winners if snapshot.position.finished else (),
    )


def render_chart(snapshot: Snapshot, size: str = "wide") -> str:
    """A dice game's chart, points turn by turn, as a standalone SVG document in the
    reader's language."""
    ruleset = snapshot.rules
    return render(
        dice_lines(snapshot),
        len(snapshot.rows),
        size,
        x_title=_("Turn"),
        y_title=_("Points") if ruleset.counts_up else _("Points left"),
        top=THIRTY_S_LIMIT if ruleset.counts_up else ruleset.start_points,
        no_data=_("No turns yet"),
    )


@dataclass(frozen=True)
class Highlight:
    turn: int  # the row's number
    text: str


@dataclass(frozen=True)
class Summary:
    biggest_hit: Highlight | None
    luckiest_hunt: Highlight | None
    most_failed: str | None


def summary(snapshot: Snapshot) -> Summary:
    """The biggest hit, the luckiest hunt and who failed most, from the stored rows."""
    names = snapshot.names
    ruleset = snapshot.rules
    hits = [
        (stored, stored.row.cells[stored.row.victim])
        for stored in snapshot.rows
        if stored.row.effect is dice_rules.Effect.HIT
        and stored.row.victim is not None
        and stored.row.cells[stored.row.victim] > 0
    ]
    biggest = None
    if hits:
        stored, damage = max(hits, key=lambda hit: (hit[1], -hit[0].number))
        row = stored.row
        assert row.victim is not None
        biggest = Highlight(
            stored.number,
            _("%(roller)s hit %(victim)s for %(damage)s in turn %(turn)s.")
            % {
                "roller": names[row.roller],
                "victim": names[row.victim],
                "damage": damage,
                "turn": stored.number,
            },
        )
    luckiest = _luckiest(snapshot.rows, names, ruleset)
    failed: dict[int, int] = {}
    for stored in snapshot.rows:
        if stored.row.effect is dice_rules.Effect.MISSED:
            failed[stored.row.roller] = failed.get(stored.row.roller, 0) + 1
    most_failed = None
    if failed:
        most = max(failed.values())
        who = join_names([names[seat] for seat in sorted(failed) if failed[seat] == most])
        most_failed = ngettext(
            "%(names)s: %(count)s failed turn.", "%(names)s: %(count)s failed turns.", most
        ) % {"names": who, "count": most}
    return Summary(biggest, luckiest, most_failed)


def _luckiest(
    rows: Sequence[StoredRow], names: Sequence[str], ruleset: dice_rules.RuleSet
) -> Highlight | None:
    """The hunt whose catch was least likely: the chance of finding at least that many."""
    best: tuple[Fraction, int, StoredRow] | None = None
    for stored in rows:
        row = stored.row
        found = row.turn.hunt
        if (
            row.effect is dice_rules.Effect.MISSED
            or row.turn.heal
            or not found
            or row.margin is None
        ):
            continue
        if ruleset.counts_up:
            chance = chain_at_least(6, found)
        else:
            dice = row.margin if ruleset.hunt_dice == "margin" else 6
            chance = at_least(dice, found)
        if best is None or chance < best[0]:
            best = (chance, stored.number, stored)
    if best is None:
        return None
    chance, number, stored = best
    odds = round(1 / chance) if chance else 0
    return Highlight(
        number,
        ngettext(
            "%(roller)s found %(found)s die hunting %(margin)ss in turn %(turn)s"
            " (about 1 in %(odds)s).",
            "%(roller)s found %(found)s dice hunting %(margin)ss in turn %(turn)s"
            " (about 1 in %(odds)s).",
            stored.row.turn.hunt or 0,
        )
        % {
            "roller": names[stored.row.roller],
            "found": stored.row.turn.hunt,
            "margin": stored.row.margin,
            "turn": number,
            "odds": odds,
        },
    )


def at_least(dice: int, found: int) -> Fraction:
    """The chance that `dice` dice show one chosen number at least `found` times."""
    return sum(
        (
            comb(dice, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (dice - k)
            for k in range(found, dice + 1)
        ),
        Fraction(0),
    )


@cache
def _chain(dice: int) -> tuple[Fraction, ...]:
    """30s's chained hunt from `dice` dice: chance of setting aside 0..dice in all."""
    result = [Fraction(0)] * (dice + 1)
    for k in range(dice + 1):
        p = comb(dice, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (dice - k)
        if k == 0:
            result[0] += p
            continue
        for more, q in enumerate(_chain(dice - k)):
            result[k + more] += p * q
    return tuple(result)


def chain_at_least(dice: int, found: int) -> Fraction:
    return sum(_chain(dice)[found:], Fraction(0))
