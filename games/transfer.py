"""Export and import: a game as JSON (complete, re-playable) and the sheet as CSV.

The file's frame is the same for every kind: its format, the game's name, its rules and its
players. Its turns are the kind's to write and to read (`Kind.export_turns`,
`Kind.import_turns`): an imported game is played again through the rules, so a file can never
bring in a sheet the rules would not have written.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games import store
from games.kinds import EXPORT, kind_for_rules, kind_of
from games.models import Game
from games.names import clean_game_name, clean_player_names, default_game_name

FORMAT = "thirty-game"
FORMAT_VERSION = 1


class GameFileError(ValueError):
    """A file that is not a game this app exported; the message is a sentence."""


def export_game(game: Game) -> dict[str, Any]:
    """The game as a file, for a kind that offers one (`EXPORT`)."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        # A name the app made up is written in the language of whoever exports the file.
        "name": game.title,
        "created_at": game.created_at.isoformat(),
        "rules": game.rules_data,
        "players": list(game.seats.order_by("position").values_list("name", flat=True)),
        "turns": kind_of(game).export_turns(game),
    }


def export_csv(game: Game) -> str:
    return kind_of(game).sheet_csv(game)


def import_game(data: Any) -> tuple[Game, str]:
    """Create a new game from an export; returns it with its new host key."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(_("This file is not a game exported from Thirty."))
    if data.get("format_version") != FORMAT_VERSION:
        raise GameFileError(_("This file comes from a newer version of Thirty."))
    name, players, turns = data.get("name"), data.get("players"), data.get("turns")
    if not isinstance(name, str) or not isinstance(players, list) or not isinstance(turns, list):
        raise GameFileError(_("This file is missing the game's name, players or turns."))
    if len(turns) > store.MAX_TURNS:
        raise GameFileError(
            _("This file has more than %(most)s turns, the most a game can have.")
            % {"most": store.MAX_TURNS}
        )
    rules_data = data.get("rules", {})
    kind = kind_for_rules(rules_data if isinstance(rules_data, dict) else {})
    if EXPORT in kind.refuses:
        raise GameFileError(_("This file is not a game exported from Thirty."))
    try:
        names = clean_player_names(players)
        name = clean_game_name(name)
    except ValidationError as error:
        raise GameFileError(" ".join(error.messages)) from None
    game, host_key = kind.import_turns(name or default_game_name(names), names, rules_data, turns)
    if not name:
        store.name_by_day(game, names)
    return game, host_key
