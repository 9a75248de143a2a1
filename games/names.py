"""Names: the checks shared by the create form, the API and the import, and names in a sentence.

Two names are the same name when they read the same: they are compared after Unicode
compatibility normalisation (NFKC) and case folding, so "Åse" typed as one character or as
"A" and a ring, "Ana" and fullwidth "Ａｎａ", "ANA" and "ana" are one name. The database
keeps that comparison key beside each name, with a unique constraint on it, so that it
agrees with Python whatever its own idea of lower case.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.kinds import seat_bounds

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


class PlayerNameError(ValidationError):
    """A refused list of names; `seats` are the places in the list it is about, so that a
    form can mark those fields."""

    def __init__(self, message: str, seats: list[int]) -> None:
        super().__init__(message)
        self.seats = seats


def clean_player_names(raw: Sequence[object]) -> list[str]:
    """Names in seat order, or a ValidationError with a sentence a player understands."""
    names: list[str] = []
    for seat, value in enumerate(raw):
        where = [seat]
        if not isinstance(value, str):
            raise PlayerNameError(_("Each player's name must be text."), where)
        try:
            name = clean_text(value, most=MAX_NAME_LENGTH)
        except ValidationError as error:
            raise PlayerNameError(error.messages[0], where) from None
        if not name:
            raise PlayerNameError(_("A player's name cannot be blank."), where)
        if shows_nothing(name):
            raise PlayerNameError(
                _("A player's name must show at least one letter or sign."), where
            )
        names.append(name)
    fewest, most = seat_bounds()
    if not fewest <= len(names) <= most:
        raise ValidationError(
            _("A game has from %(low)s to %(high)s players.") % {"low": fewest, "high": most}
        )
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if (first := seen.get(name_key(name))) is not None:
            raise PlayerNameError(
                _(
                    "Players %(first)s and %(second)s are both called “%(name)s”:"
                    " give each a different name."
                )
                % {"first": first + 1, "second": seat + 1, "name": name},
                [first, seat],
            )
        seen[name_key(name)] = seat
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


# Danish names that end in these letters take only an apostrophe in the genitive.
DANISH_APOSTROPHE_ONLY = frozenset("sxz")


def possessive(name: str) -> str:
    """A name in the genitive, as the reader's language writes it, for strings such as
    "Undo %(whose)s 33?".

    English adds ’s to every name: "Anna’s", "Lars’s". Danish adds a bare s ("Annas",
    "Bens"), but a name ending in s, x or z takes only an apostrophe ("Lars’", "Max’",
    "Schultz’"), and one that ends in anything but a small letter (a digit, an initial, an
    emoji) takes ’s ("Bo 2’s", "JP’s"), so that the s cannot be read as part of the name.
    """
    if not name or (get_language() or "").split("-")[0] != "da":
        return f"{name}’s"
    last = name_key(name[-1])
    if last in DANISH_APOSTROPHE_ONLY:
        return f"{name}’"
    if not name[-1].islower():
        return f"{name}’s"
    return f"{name}s"


def default_game_name(names: Sequence[str], day: date | None = None) -> str:
    """The name of a game nobody named, by its day and players: "December 1: Anna, Ben and
    Cleo", in Danish "1. december: Anna, Ben og Cleo". A table plays many games with the same
    people, so the day is what tells them apart in the history."""
    day = day or timezone.localdate()
    return _("%(day)s: %(players)s") % {
        "day": date_format(day, "MONTH_DAY_FORMAT"),
        "players": join_names(names, most=3),
    }
