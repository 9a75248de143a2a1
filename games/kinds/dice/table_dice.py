"""The dice the whole table makes (`Game.table_dice`), as the pages show them: each phone's
SHA-256 before the first roll, its secret once shown, and for the check page every roll with
every phone's part that went into it, for the browser to roll again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import store
from games.models import Game, Seat, TablePart, TableRoll, Turn, WaitingRoll
from games.store import table_rolls


@dataclass(frozen=True)
class PhonePart:
    seat: int | None  # from 0; None for the host's phone
    who: str
    commitment: str
    secret: str
    asleep: bool  # missed a roll: the next ones do not wait for it until it is back


@dataclass(frozen=True)
class Waiting:
    """A roll asked for that waits for the other phones' parts, as the pages show it."""

    label: str
    roller: int | None  # whose phone asked: a seat, None for the host's
    waiting_for: list[str]  # the phones whose parts have not come, by name
    seconds_left: float  # till it is made without them

    @property
    def ms_left(self) -> int:
        return round(self.seconds_left * 1000)


def waiting_roll(game: Game) -> Waiting | None:
    """The roll waiting for the table's parts, if any (one query when none waits)."""
    waiting = WaitingRoll.objects.filter(game=game).first()
    if waiting is None:
        return None
    names = dict(Seat.objects.filter(game=game).values_list("position", "name"))
    left = (table_rolls.due_at(waiting) - timezone.now()).total_seconds()
    return Waiting(
        waiting.label,
        waiting.seat,
        [_phone_name(seat, names) for seat in table_rolls.waiting_for(game, waiting)],
        max(0.0, left),
    )


def _phone_name(seat: int | None, names: dict[int, str]) -> str:
    return _("The host’s phone") if seat is None else names.get(seat, "?")


def phone_parts(game: Game) -> list[PhonePart]:
    """Every phone that joined the table's dice, in the order they joined (two queries)."""
    names = dict(Seat.objects.filter(game=game).values_list("position", "name"))
    return [
        PhonePart(
            part.seat, _phone_name(part.seat, names), part.commitment, part.secret, part.asleep
        )
        for part in TablePart.objects.filter(game=game)
    ]


def table_dice_check(game: Game) -> dict[str, Any]:
    """What the check page shows and its script checks: every roll, its dice, the label it was
    made for and every part that went into it, whose each was; the seed and the secrets once
    they are shown. A roll with a part whose phone never showed its secret rolls again from
    the parts as they were logged, but those parts cannot be checked: the page names it."""
    parts = phone_parts(game)
    dice: dict[tuple[int, int], list[int]] = {}
    for number, data in Turn.objects.filter(game=game, data__has_key="rolls").values_list(
        "number", "data"
    ):
        rolls, hunts = data["rolls"], data.get("hunt_rolls")
        faces = [roll["dice"] for roll in rolls or ()] + [hunt["dice"] for hunt in hunts or ()]
        dice.update(((number, step), list(d)) for step, d in enumerate(faces))
    rolls = [
        {
            "number": roll.number,
            "step": roll.step,
            "dice": dice.get((roll.number, roll.step)),
            "seat": roll.seat,
            "label": roll.label,
            "parts": roll.parts,
        }
        for roll in TableRoll.objects.filter(game=game)
        if (roll.number, roll.step) in dice  # a roll of the turn still under way shows later
    ]
    names = {part.seat: part.who for part in parts}
    whose = [
        (
            f"{roll['number']}.{roll['step'] + 1}",
            [names.get(entry["seat"], "?") for entry in roll["parts"]],
        )
        for roll in rolls
    ]
    seed = store.revealed_seed(game)
    data = {
        "seed": seed,
        "seed_sha256": game.seed_sha256,
        "parts": [
            {"seat": part.seat, "commitment": part.commitment, "secret": part.secret or None}
            for part in parts
        ],
        "rolls": rolls,
    }
    return {
        "game": game,
        "parts": parts,
        "rolls": rolls,
        "seed": seed,
        "server_only": sum(1 for roll in rolls if not roll["parts"]),
        "whose": whose,  # every roll by name ("3.2"), and whose parts went into it
        # Each phone that never showed its secret, once the game is over, and the rolls its
        # parts went into: those parts cannot be checked.
        "unrevealed": [
            {
                "who": part.who,
                "rolls": [
                    f"{roll['number']}.{roll['step'] + 1}"
                    for roll in rolls
                    if any(entry["seat"] == part.seat for entry in roll["parts"])
                ],
            }
            for part in parts
            if not part.secret and game.finished
        ],
        "check_data": data,
    }
