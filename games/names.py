"""Player names: the checks shared by the create form and the API, and names in a sentence."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules import MAX_PLAYERS, MIN_PLAYERS

MAX_NAME_LENGTH = 40


class PlayerNameError(ValidationError):
    """A refused list of names; `seats` are the places in the list it is about, so that a
    form can mark those fields."""

    def __init__(self, message: str, seats: list[int]) -> None:
        super().__init__(message)
        self.seats = seats


def clean_player_names(raw: Sequence[object]) -> list[str]:
    """Trimmed names in seat order, or a ValidationError with a sentence a player understands."""
    names: list[str] = []
    for seat, value in enumerate(raw):
        where = [seat]
        if not isinstance(value, str):
            raise PlayerNameError(_("Each player's name must be text."), where)
        name = value.strip()
        if not name:
            raise PlayerNameError(_("A player's name cannot be blank."), where)
        if len(name) > MAX_NAME_LENGTH:
            raise PlayerNameError(
                _("“%(name)s…” is too long: a name has at most %(most)s characters.")
                % {"name": name[:12], "most": MAX_NAME_LENGTH},
                where,
            )
        if any(unicodedata.category(char).startswith("C") for char in name):
            raise PlayerNameError(_("A player's name cannot contain control characters."), where)
        names.append(name)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValidationError(
            _("A game has from %(low)s to %(high)s players.")
            % {"low": MIN_PLAYERS, "high": MAX_PLAYERS}
        )
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if (first := seen.get(name.casefold())) is not None:
            raise PlayerNameError(
                _(
                    "Players %(first)s and %(second)s are both called “%(name)s”:"
                    " give each a different name."
                )
                % {"first": first + 1, "second": seat + 1, "name": name},
                [first, seat],
            )
        seen[name.casefold()] = seat
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


def default_game_name(names: Sequence[str], day: date | None = None) -> str:
    """The name of a game nobody named, by its day and players: "December 1: Anna, Ben and
    Cleo", in Danish "1. december: Anna, Ben og Cleo". A table plays many games with the same
    people, so the day is what tells them apart in the history."""
    day = day or timezone.localdate()
    return _("%(day)s: %(players)s") % {
        "day": date_format(day, "MONTH_DAY_FORMAT"),
        "players": join_names(names, most=3),
    }
