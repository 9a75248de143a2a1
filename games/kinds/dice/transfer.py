"""A dice game as a file (`games.transfer`): every turn as it was typed in, or as the app's
dice made it, with the cells it wrote, and such a file played again through the rules into a
new game, so that a file can never bring in a sheet the rules would not have written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games import rules, store
from games.kinds.dice.stored import load_snapshot
from games.models import Game
from games.rules import dice as dice_rules
from games.transfer import GameFileError
from games.translate import rule_error_message


def export_turns(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "total": stored.row.turn.total,
            "hunt": stored.row.turn.hunt,
            "target": stored.row.turn.target,
            "heal": stored.row.turn.heal,
            "cells": list(stored.row.cells),
        }
        for stored in load_snapshot(game).rows
    ]


def import_turns(
    name: str, names: Sequence[str], rules_data: Mapping[str, Any], turns: Sequence[Any]
) -> tuple[Game, str]:
    """A new game of these turns, each judged by the rules; the cells in the file must be
    the ones the rules write. Raises `GameFileError` with a sentence."""
    try:
        ruleset = dice_rules.RuleSet.from_dict(rules_data)
        replay = dice_rules.DiceGame(ruleset, len(names))
        played = []
        for number, raw in enumerate(turns, start=1):
            turn = _turn(raw)
            row = replay.push(turn)
            if list(row.cells) != raw.get("cells", list(row.cells)):
                raise GameFileError(
                    _("Turn %(number)s does not match the rules: the file was changed.")
                    % {"number": number}
                )
            played.append(turn)
        players = [store.Player(player) for player in names]
        return store.import_game("dice", name, players, ruleset.to_dict(), played)
    except rules.RuleError as error:
        raise GameFileError(rule_error_message(error)) from None
    except ValidationError as error:
        raise GameFileError(" ".join(error.messages)) from None


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
