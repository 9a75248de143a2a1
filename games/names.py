"""Names: the checks shared by the create form, the API and the import.

Two names are the same name when they read the same: they are compared after Unicode
compatibility normalisation (NFKC) and case folding, so "Åse" typed as one character or as
"A" and a ring, "Ana" and fullwidth "Ａｎａ", "ANA" and "ana" are one name. The database
keeps that comparison key beside each name, with a unique constraint on it, so that it
agrees with Python whatever its own idea of lower case.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.rules import MAX_PLAYERS, MIN_PLAYERS

MAX_NAME_LENGTH = 40
MAX_GAME_NAME_LENGTH = 80

# Characters that are letters or symbols to Unicode but draw nothing: fillers and blanks.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
# Spaces and marks with nothing to sit on draw nothing either.
INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Mn", "Me", "Cf"})


def name_key(name: str) -> str:
    """The form in which two names are compared."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def shows_nothing(name: str) -> bool:
    return all(
        char in BLANKS or unicodedata.category(char) in INVISIBLE_CATEGORIES for char in name
    )


def clean_text(value: str, *, most: int) -> str:
    """Text a person typed: trimmed, NFC-normalised, at most `most` characters, without
    control characters (NUL, lone surrogates and the like); may be empty."""
    text = value.strip()
    if any(unicodedata.category(char).startswith("C") for char in text):
        raise ValidationError(_("A name cannot contain control characters."))
    text = unicodedata.normalize("NFC", text)
    if len(text) > most:
        raise ValidationError(
            _("“%(name)s…” is too long: a name has at most %(most)s characters.")
            % {"name": text[:12], "most": most}
        )
    return text


def clean_player_names(raw: Sequence[object]) -> list[str]:
    """Names in seat order, or a ValidationError with a sentence a player understands."""
    names: list[str] = []
    for value in raw:
        if not isinstance(value, str):
            raise ValidationError(_("Each player's name must be text."))
        name = clean_text(value, most=MAX_NAME_LENGTH)
        if not name:
            raise ValidationError(_("A player's name cannot be blank."))
        if shows_nothing(name):
            raise ValidationError(_("A player's name must show at least one letter or sign."))
        names.append(name)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValidationError(
            _("A game has from %(low)s to %(high)s players.")
            % {"low": MIN_PLAYERS, "high": MAX_PLAYERS}
        )
    seen: set[str] = set()
    for name in names:
        if name_key(name) in seen:
            raise ValidationError(
                _("Two players are called “%(name)s”: give each a different name.") % {"name": name}
            )
        seen.add(name_key(name))
    return names


def clean_game_name(value: object) -> str:
    """A game's name: like a player's, but longer and may be left empty."""
    if not isinstance(value, str):
        raise ValidationError(
            _("“name” must be text of at most %(most)s characters.")
            % {"most": MAX_GAME_NAME_LENGTH}
        )
    name = clean_text(value, most=MAX_GAME_NAME_LENGTH)
    return "" if shows_nothing(name) else name
