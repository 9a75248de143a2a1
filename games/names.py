"""Player names: the checks shared by the create form and the API, and names in a sentence."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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


def join_names(names: Sequence[str], most: int | None = None) -> str:
    """Names as a sentence lists them: "Anna, Ben and Cleo", in Danish "Anna, Ben og Cleo".

    No comma before the last name, in either language. With `most`, a longer list names the
    first `most` and counts the rest: "Anna, Ben, Cleo and 2 more".
    """
    names = list(names)
    if most is not None and len(names) > most:
        rest = len(names) - most
        return ngettext("%(names)s and %(count)s more", "%(names)s and %(count)s more", rest) % {
            "names": ", ".join(names[:most]),
            "count": rest,
        }
    if len(names) < 2:
        return "".join(names)
    # Translators: the last two names of a list, as in "Anna, Ben and Cleo".
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def default_game_name(names: Sequence[str]) -> str:
    """The name of a game nobody named: "Game of Anna, Ben and Cleo"."""
    return _("Game of %(players)s") % {"players": join_names(names, most=3)}
