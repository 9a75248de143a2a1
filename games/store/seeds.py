"""Where the dice the app rolls come from: each game's secret seed (its SHA-256 shown from
the start, the seed itself once the game is over, a fresh one when an undo reopens it) and,
in a game whose dice the whole table makes, the part of the phone that asked for the roll.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from games import rules
from games.models import Game, Secret, TablePart, TableRoll
from games.rules import chance
from games.rules.errors import gettext_noop


@dataclass(frozen=True)
class Chance:
    """Where the dice of a request come from: the game's secret seed and, in a game whose dice
    the whole table makes, the part of the phone that asked (`games.rules.chance`). An empty
    part is the server's seed alone: a computer's turn that no phone's request led to."""

    game: Game
    seed: str = ""  # read when the first die is rolled, unless the caller has it already
    part: str = ""
    seat: int | None = None  # whose part: None for the host's phone
    label: str = ""

    def roller(self, number: int) -> Callable[[int, int], tuple[int, ...]]:
        """The dice of turn `number`, roll by roll; at a table's dice, each roll is logged with
        the part that made it."""
        seed = self.seed or _dice_seed(self.game)
        if not self.game.table_dice:
            return partial(_seeded, seed, number)

        def roll(step: int, count: int) -> tuple[int, ...]:
            TableRoll.objects.create(
                game=self.game,
                number=number,
                step=step,
                seat=self.seat,
                label=self.label,
                part=self.part,
            )
            return chance.table_dice(
                bytes.fromhex(seed), bytes.fromhex(self.part), number, step, count
            )

        return roll


class RequestChance:
    """The chance one request draws, for the one store path (`games.rules.engine.Chance`):
    where it comes from is worked out only when a move first needs it, so that a typed-in
    turn, a card or a choice asks nothing of the table's dice. `required`: the move is a
    person's roll, for which a game whose dice the table makes needs the phone's part; the
    computers that follow a request roll with the same part where it came, else with the
    server's seed alone."""

    def __init__(
        self,
        game: Game,
        seat: int | None = None,
        part: str | None = None,
        version: int | None = None,
        *,
        required: bool = False,
    ) -> None:
        self.game, self.seat, self.part, self.version = game, seat, part, version
        self.required = required
        self._seed: str | None = None
        self._source: Chance | None = None

    def seed(self) -> str:
        """The game's secret seed (read once)."""
        if self._seed is None:
            self._seed = _dice_seed(self.game)
        return self._seed

    def dice(self, number: int, step: int, count: int) -> tuple[int, ...]:
        if self._source is None:
            found = request_chance(
                self.game, self.seat, self.part, self.version, required=self.required
            )
            self._source = replace(found, seed=self.seed())
        return self._source.roller(number)(step, count)


NO_PART = gettext_noop(
    "This game's dice are made by the whole table, and this phone's part did not come with the"
    " roll. Reload the page and roll again."
)
NOT_AT_TABLE = gettext_noop(
    "This phone has not joined the table's dice: reload the page, which joins it, and roll again."
)


def request_chance(
    game: Game, seat: int | None, part: str | None, version: int | None, *, required: bool
) -> Chance:
    """The dice of a request by the host (`seat` None) or a seat. At a table's dice, a part is
    required for a person's roll (`required`); a request without one leaves the computers that
    follow it the server's seed alone."""
    if not game.table_dice:
        return Chance(game)
    if part is None or not chance.is_digest(part) or version is None:
        if required:
            raise rules.IllegalTurnError(NO_PART)
        return Chance(game)
    if not TablePart.objects.filter(game=game, seat=seat).exists():
        if required:
            raise rules.IllegalTurnError(NOT_AT_TABLE)
        return Chance(game)
    return Chance(game, part=part, seat=seat, label=f"v:{version}")


def revealed_seed(game: Game, *, finished: bool | None = None) -> str | None:
    """The secret seed, which anyone may see once the game is over (`finished`, when the
    caller's position knows better than the row it holds)."""
    if not (game.finished if finished is None else finished):
        return None
    return Secret.objects.filter(game=game).values_list("seed", flat=True).first()


def _seeded(seed: str, number: int, step: int, count: int) -> tuple[int, ...]:
    return chance.seeded_dice(bytes.fromhex(seed), number, step, count)


def _dice_seed(game: Game) -> str:
    """The game's secret seed; a game created before the app rolled dice gets one now, with
    its SHA-256 shown from this moment on."""
    found = Secret.objects.filter(game=game).values_list("seed", flat=True).first()
    if found is not None:
        return found
    seed = chance.new_seed()
    Secret.objects.create(game=game, seed=seed)
    game.seed_sha256 = chance.seed_sha256(seed)
    game.save(update_fields=["seed_sha256"])
    return seed


def fresh_seed(game: Game) -> None:
    """A finished game showed its seed: reopened, it rolls on with a fresh secret one, and
    the one everybody saw stays public, so that the dice rolled with it can still be checked
    and no die to come can be foreseen."""
    secret = Secret.objects.filter(game=game).first()
    if secret is None:
        return
    game.earlier_seeds = [
        *game.earlier_seeds,
        {"seed": secret.seed, "seed_sha256": game.seed_sha256},
    ]
    secret.seed = chance.new_seed()
    secret.save(update_fields=["seed"])
    game.seed_sha256 = chance.seed_sha256(secret.seed)
