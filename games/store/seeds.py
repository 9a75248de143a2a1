"""Where the dice the app rolls come from: each game's secret seed (its SHA-256 shown from
the start, the seed itself once the game is over, a fresh one when an undo reopens it) and,
in a game whose dice the whole table makes, every phone's part of the roll
(`games.rules.chance`): the roller's, sent with the roll, and each other phone's, sent once
the roll has been asked for and waits for it (`games.store.table_rolls`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from games import rules
from games.models import Game, RollPart, Secret, TablePart, TableRoll
from games.rules import chance
from games.rules.errors import gettext_noop

Part = tuple[int | None, str]  # a phone's part: (its seat, None for the host's phone; hex)


@dataclass(frozen=True)
class Chance:
    """Where the dice of a request come from: the game's secret seed and, in a game whose dice
    the whole table makes, the parts of the roll labelled `label`: the part of the phone that
    asked (`part`, by `seat`) and those the other phones sent before (`others`). No part at
    all is the server's seed alone: a computer's turn that opened the game."""

    game: Game
    seed: str = ""  # read when the first die is rolled, unless the caller has it already
    part: str = ""
    seat: int | None = None  # whose part: None for the host's phone
    label: str = ""
    others: tuple[Part, ...] = ()

    @property
    def parts(self) -> tuple[Part, ...]:
        """Every part, in the order they are mixed: the host's phone first, then by seat."""
        mine: tuple[Part, ...] = ((self.seat, self.part),) if self.part else ()
        return tuple(sorted((*mine, *self.others), key=_phone_order))

    def roller(self, number: int) -> Callable[[int, int], tuple[int, ...]]:
        """The dice of turn `number`, roll by roll; at a table's dice, each roll is logged with
        the parts that made it."""
        seed = self.seed or _dice_seed(self.game)
        if not self.game.table_dice:
            return partial(_seeded, seed, number)
        parts = self.parts
        key = b"".join(bytes.fromhex(part) for _, part in parts)

        def roll(step: int, count: int) -> tuple[int, ...]:
            TableRoll.objects.create(
                game=self.game,
                number=number,
                step=step,
                seat=self.seat,
                label=self.label,
                parts=[{"seat": seat, "part": part} for seat, part in parts],
            )
            return chance.table_dice(bytes.fromhex(seed), key, number, step, count)

        return roll


class MustWait(Exception):
    """A person's roll of the table's dice that has to wait for the other phones' parts of it
    (`label`) before anything is rolled."""

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


class RequestChance:
    """The chance one request draws, for the one store path (`games.rules.engine.Chance`):
    where it comes from is worked out only when a move first needs it, so that a typed-in
    turn, a card or a choice asks nothing of the table's dice. `required`: the move is a
    person's roll, for which a game whose dice the table makes needs the phone's part, and
    the part of every other awake phone, which it waits for (`MustWait`) unless it `waited`
    already; the computers that follow a request roll with the same parts where they came,
    else with the server's seed alone."""

    def __init__(
        self,
        game: Game,
        seat: int | None = None,
        part: str | None = None,
        version: int | None = None,
        *,
        required: bool = False,
        waited: bool = False,
    ) -> None:
        self.game, self.seat, self.part, self.version = game, seat, part, version
        self.required, self.waited = required, waited
        self._seed: str | None = None
        self._source: Chance | None = None

    def seed(self) -> str:
        """The game's secret seed (read once)."""
        if self._seed is None:
            self._seed = _dice_seed(self.game)
        return self._seed

    def for_followers(self) -> RequestChance:
        """The chance of the computers' turns that this request leads to: the same parts as
        the request's own roll, where it rolled; else worked out when they first roll, with
        the phone's part where it came and nothing required."""
        follower = RequestChance(self.game, self.seat, self.part, self.version)
        follower._seed, follower._source = self._seed, self._source
        return follower

    def dice(self, number: int, step: int, count: int) -> tuple[int, ...]:
        if self._source is None:
            found = request_chance(
                self.game,
                self.seat,
                self.part,
                self.version,
                required=self.required,
                waited=self.waited,
            )
            self._source = replace(found, seed=self.seed())
        return self._source.roller(number)(step, count)


def _phone_order(part: Part) -> tuple[int, int]:
    seat = part[0]
    return (0, 0) if seat is None else (1, seat)


NO_PART = gettext_noop(
    "This game's dice are made by the whole table, and this phone's part did not come with the"
    " roll. Reload the page and roll again."
)
NOT_AT_TABLE = gettext_noop(
    "This phone has not joined the table's dice: reload the page, which joins it, and roll again."
)
OTHER_PART = gettext_noop(
    "This phone sent another part for this roll before: reload the page and roll again."
)


def request_chance(
    game: Game,
    seat: int | None,
    part: str | None,
    version: int | None,
    *,
    required: bool,
    waited: bool = False,
) -> Chance:
    """The dice of a request by the host (`seat` None) or a seat. At a table's dice, a part is
    required for a person's roll (`required`): the phone's part of the next roll as the
    request found the game (`next_roll_label`). The other phones make theirs only once the
    roll has been asked for, so that nobody knows every part while the roller's choice can
    still change: until every awake phone's part has come, the roll waits (`MustWait`),
    unless it has `waited` already. Every part sent goes in, and the computers' turns the
    request leads to roll with the same."""
    if not game.table_dice:
        return Chance(game)
    label = _request_label(game)
    sent = _sent_parts(game, label)
    if part is None or not chance.is_digest(part) or (version is None and not waited):
        if required:
            raise rules.IllegalTurnError(NO_PART)
        return Chance(game, label=label, others=sent)
    joined = dict(TablePart.objects.filter(game=game).values_list("seat", "asleep"))
    if seat not in joined:
        if required:
            raise rules.IllegalTurnError(NOT_AT_TABLE)
        return Chance(game, label=label, others=sent)
    if any(who == seat and other != part for who, other in sent):
        # The same phone's part of one roll is one HMAC: two would be one too many.
        raise rules.IllegalTurnError(OTHER_PART)
    others = tuple((who, other) for who, other in sent if who != seat)
    awake = {phone for phone, asleep in joined.items() if not asleep and phone != seat}
    if required and not waited and awake - {who for who, _ in others}:
        raise MustWait(label)
    return Chance(game, part=part, seat=seat, label=label, others=others)


def next_roll_label(game: Game) -> str | None:
    """The label of the game's next roll, which every phone makes its part for; None once
    the game is over (one query)."""
    if game.finished:
        return None
    return _label(game.pk, game.turn_count)


def _request_label(game: Game) -> str:
    """The label of the next roll as the request found the game: its row as stored, before
    the request's own writes (a typed-in turn is written before the computers after it
    roll), which is the game the phone saw when it made its part."""
    turns = Game.objects.filter(pk=game.pk).values_list("turn_count", flat=True).get()
    return _label(game.pk, turns)


def _label(game_id: str, turns: int) -> str:
    number = turns + 1
    return chance.roll_label(
        number, TableRoll.objects.filter(game_id=game_id, number=number).count()
    )


def _sent_parts(game: Game, label: str) -> tuple[Part, ...]:
    return tuple(RollPart.objects.filter(game=game, label=label).values_list("seat", "part"))


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
