"""The dice games' moves through the one store path (`store.play`), with their types: a game
created with its computer seats, a turn typed in, a step of a turn the app rolls, and what a
stored move wrote."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from games import store
from games.models import Game
from games.rules import dice as dice_rules
from games.rules.dice import log, rolled

KIND = dice_rules.ENGINE.name


def create_game(
    name: str,
    players: Sequence[str],
    ruleset: dice_rules.RuleSet,
    *,
    rematch_of: Game | None = None,
    computers: Iterable[int] = (),
    table_dice: bool = False,
) -> tuple[Game, str]:
    """A new game and its host key; computer seats roll at once if it is their turn."""
    computer_seats = frozenset(computers)
    seats = [store.Player(name, seat in computer_seats) for seat, name in enumerate(players)]
    return store.start_game(
        KIND, name, seats, ruleset.to_dict(), rematch_of=rematch_of, table_dice=table_dice
    )


def record_turn(
    game_id: str,
    turn: dice_rules.Turn,
    *,
    version: int | None = None,
    seat: int | None = None,
    part: str | None = None,
) -> store.Played:
    """A turn typed in, by the host (`seat` None) or the roller's own phone."""
    return store.play(game_id, seat, turn, version=version, part=part)


def roll(
    game_id: str,
    action: rolled.Action,
    *,
    version: int | None = None,
    seat: int | None = None,
    part: str | None = None,
    dice: tuple[int, ...] = (),
    table: bool = False,
) -> store.Played:
    """One step of a rolled turn, by the host or the roller's own phone: with dice the app
    rolls, or (`table`, or a turn thrown at the table already) with the `dice` the roller
    entered from the dice thrown at the table."""
    step = log.RolledStep(action, dice, table=table)
    return store.play(game_id, seat, step, version=version, part=part)


def state_after(played: store.Played) -> dice_rules.DiceState:
    return cast(dice_rules.DiceState, played.state)


def row_written(played: store.Played) -> dice_rules.Row | None:
    """The row the move itself wrote (not the computers' after it), once its turn is done."""
    event = cast(dice_rules.DiceEvent, played.public[0])
    return event.row
