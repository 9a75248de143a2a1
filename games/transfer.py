"""Export and import: a game as JSON (complete, re-playable) and the sheet as CSV.

An imported game is replayed turn by turn through the rules, so a file can never bring in
a sheet the rules would not have written; the cells in the file must match the replay.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games import rules, store
from games.kinds import kind_of
from games.models import Game
from games.names import clean_game_name, clean_player_names, default_game_name
from games.rules import dice as dice_rules
from games.translate import rule_error_message

FORMAT = "thirty-game"
FORMAT_VERSION = 1


class GameFileError(ValueError):
    """A file that is not a game this app exported; the message is a sentence."""


def export_game(game: Game) -> dict[str, Any]:
    snapshot = store.load_snapshot(game)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        # A name the app made up is written in the language of whoever exports the file.
        "name": game.title,
        "created_at": game.created_at.isoformat(),
        "rules": snapshot.rules.to_dict(),
        "players": list(snapshot.names),
        "turns": [
            {
                "total": stored.row.turn.total,
                "hunt": stored.row.turn.hunt,
                "target": stored.row.turn.target,
                "heal": stored.row.turn.heal,
                "cells": list(stored.row.cells),
            }
            for stored in snapshot.rows
        ],
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
    try:
        names = clean_player_names(players)
        name = clean_game_name(name)
        ruleset = dice_rules.RuleSet.from_dict(data.get("rules", {}))
        replay = dice_rules.DiceGame(ruleset, len(names))
        for number, raw in enumerate(turns, start=1):
            turn = _turn(raw)
            row = replay.push(turn)
            if list(row.cells) != raw.get("cells", list(row.cells)):
                raise GameFileError(
                    _("Turn %(number)s does not match the rules: the file was changed.")
                    % {"number": number}
                )
    except rules.RuleError as error:
        raise GameFileError(rule_error_message(error)) from None
    except ValidationError as error:
        raise GameFileError(" ".join(error.messages)) from None
    game, host_key = store.create_played_game(
        name or default_game_name(names), names, ruleset, replay.rows
    )
    if not name:
        store.name_by_day(game, names)
    return game, host_key


def _turn(raw: Any) -> dice_rules.Turn:
    if not isinstance(raw, dict):
        raise GameFileError(_("A turn in this file is not readable."))
    total, hunt, target, heal = (
        raw.get("total"),
        raw.get("hunt"),
        raw.get("target"),
        raw.get("heal", False),
    )
    for value in (total, hunt, target):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise GameFileError(_("A turn in this file is not readable."))
    if not isinstance(total, int) or not isinstance(heal, bool):
        raise GameFileError(_("A turn in this file is not readable."))
    return dice_rules.Turn(total, hunt, target, heal)
