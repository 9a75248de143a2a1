"""Player names: the checks shared by the create form and the API."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.rules import MAX_PLAYERS, MIN_PLAYERS

MAX_NAME_LENGTH = 40


def clean_player_names(raw: Sequence[object]) -> list[str]:
    """Trimmed names in seat order, or a ValidationError with a sentence a player understands."""
    names: list[str] = []
    for value in raw:
        if not isinstance(value, str):
            raise ValidationError(_("Each player's name must be text."))
        name = value.strip()
        if not name:
            raise ValidationError(_("A player's name cannot be blank."))
        if len(name) > MAX_NAME_LENGTH:
            raise ValidationError(
                _("“%(name)s…” is too long: a name has at most %(most)s characters.")
                % {"name": name[:12], "most": MAX_NAME_LENGTH}
            )
        if any(unicodedata.category(char).startswith("C") for char in name):
            raise ValidationError(_("A player's name cannot contain control characters."))
        names.append(name)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValidationError(
            _("A game has from %(low)s to %(high)s players.")
            % {"low": MIN_PLAYERS, "high": MAX_PLAYERS}
        )
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise ValidationError(
                _("Two players are called “%(name)s”: give each a different name.") % {"name": name}
            )
        seen.add(name.casefold())
    return names
