"""The card game's variants in a few words, for the top of its page."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules.cards import CardRules


def card_rules_summary(rules: CardRules) -> list[str]:
    parts = [
        _("Thirty, the card game"),
        ngettext("%(tokens)s token each", "%(tokens)s tokens each", rules.tokens)
        % {"tokens": rules.tokens},
    ]
    if rules.fewer_jacks:
        parts.append(_("two Jacks out"))
    if rules.queens:
        parts.append(_("two Queens in"))
    if rules.single_stock:
        parts.append(_("single stock"))
    return parts
