"""One sentence per row, saying what the turn did, in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.names import possessive
from games.rules.dice import Effect, Row, RuleSet


def explain_row(row: Row, names: Sequence[str], rules: RuleSet) -> str:
    roller, total = names[row.roller], row.turn.total
    mark = rules.beat_above
    if row.effect is Effect.MISSED:
        cost = row.cells[row.roller]
        if cost == 0:
            if rules.counts_up:
                return _("%(roller)s rolled exactly %(total)s: no points.") % {
                    "roller": roller,
                    "total": total,
                }
            return _("%(roller)s rolled %(total)s and did not beat %(mark)s: nothing happens.") % {
                "roller": roller,
                "total": total,
                "mark": mark,
            }
        return _("%(roller)s rolled %(total)s, short of %(mark)s: %(roller)s %(change)s.") % {
            "roller": roller,
            "total": total,
            "mark": mark,
            "change": _signed(cost, rules),
        }
    if row.effect is Effect.HEALED:
        return ngettext(
            "%(roller)s rolled %(total)s and healed %(amount)s point.",
            "%(roller)s rolled %(total)s and healed %(amount)s points.",
            -row.cells[row.roller],
        ) % {"roller": roller, "total": total, "amount": -row.cells[row.roller]}
    if row.effect is Effect.OVERSHOT and row.victim == row.roller and total <= mark:
        return _(
            "%(roller)s rolled %(total)s, short of %(mark)s: %(roller)s %(change)s would reach"
            " %(mark)s, and only an exact attack puts a player out, so it has no effect."
        ) % {
            "roller": roller,
            "total": total,
            "mark": mark,
            "change": _signed(mark - total, rules),
        }
    hunt = row.turn.hunt or 0
    victim = names[row.victim] if row.victim is not None else ""
    hunted = ngettext(
        "%(roller)s rolled %(total)s and hunted %(margin)ss: %(hunt)s die found",
        "%(roller)s rolled %(total)s and hunted %(margin)ss: %(hunt)s dice found",
        hunt,
    ) % {"roller": roller, "total": total, "margin": row.margin, "hunt": hunt}
    if row.effect is Effect.LOST:
        return _("%(hunted)s, but %(victim)s is out: the damage is lost.") % {
            "hunted": hunted,
            "victim": victim,
        }
    if row.effect is Effect.OVERSHOT:
        return _(
            "%(hunted)s. %(victim)s %(change)s would pass 30, so the attack has no effect."
        ) % {
            "hunted": hunted,
            "victim": victim,
            "change": _signed(hunt * (row.margin or 0), rules),
        }
    assert row.victim is not None
    return _("%(hunted)s → %(victim)s %(change)s.") % {
        "hunted": hunted,
        "victim": victim,
        "change": _signed(row.cells[row.victim], rules),
    }


def _signed(harm: int, rules: RuleSet) -> str:
    """Harm as the change a player sees on their points: Thirty loses points, 30s gains them."""
    change = harm if rules.counts_up else -harm
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


def turn_summary(row: Row, names: Sequence[str], rules: RuleSet) -> str:
    """The turn in a few words, for the confirmation after it is entered: "Anna 33 · Ben −2".

    Every seat whose points changed is named, so the person who entered it can check it at a
    glance without finding the row.
    """
    changes = [
        f"{names[seat]} {_signed(harm, rules)}" for seat, harm in enumerate(row.cells) if harm
    ]
    return " · ".join([f"{names[row.roller]} {row.turn.total}", *changes])


def undo_question(row: Row, names: Sequence[str], rules: RuleSet) -> str:
    """What the undo button asks, naming the turn it takes back: "Undo Anna’s 33 (Ben −2)?"."""
    changes = " · ".join(
        f"{names[seat]} {_signed(harm, rules)}" for seat, harm in enumerate(row.cells) if harm
    )
    # The genitive is made by the language's own rule ("Lars’s", in Danish "Lars’"), not by
    # appending an s in the catalogue.
    params = {"whose": possessive(names[row.roller]), "total": row.turn.total, "changes": changes}
    if changes:
        # Translators: %(whose)s is the roller's name in the genitive: "Anna’s", "Annas".
        return _("Undo %(whose)s %(total)s (%(changes)s)?") % params
    # Translators: %(whose)s is the roller's name in the genitive: "Anna’s", "Annas".
    return _("Undo %(whose)s %(total)s?") % params
