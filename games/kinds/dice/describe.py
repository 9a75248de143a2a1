"""A dice rule set in a few words, for the top of the sheet and the Chances page."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules.dice import RuleSet


def rules_summary(rules: RuleSet) -> list[str]:
    parts: list[str] = []
    if rules.counts_up:
        parts.append(_("30s"))
        parts.append(_("shorter game") if rules.end == "first_out" else _("last player standing"))
        parts += [
            label
            for on, label in (
                (rules.healing, _("healing")),
                (rules.free_for_all, _("free for all")),
                (rules.weaker_attacks, _("weaker attacks")),
                (rules.precise_elimination, _("precise elimination")),
            )
            if on
        ]
    else:
        parts.append(_("Thirty"))
        parts.append(
            ngettext("%(points)s point each", "%(points)s points each", rules.start_points)
            % {"points": rules.start_points}
        )
        parts.append(_("beat %(target)s") % {"target": rules.target})
        if rules.on_failure == "one":
            parts.append(_("a failed turn costs one point"))
        elif rules.on_failure == "shortfall":
            parts.append(_("a failed turn costs the shortfall"))
        if rules.empty_seat == "lost":
            parts.append(_("damage lost at an empty seat"))
        if rules.hunt_dice == "margin":
            parts.append(_("hunt with the margin’s dice"))
    if rules.set_aside == "one":
        parts.append(_("one die per roll"))
    return parts
