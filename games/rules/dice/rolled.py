"""A turn played with dice the app rolls, step by step, as a chain of immutable values.

The player rolls six dice, sets aside at least one (exactly one under "set aside one at a
time") and rolls the rest, until all six are set aside. Then, where the rules ask for them:
heal or attack, whom to attack, and the hunt. A `RolledTurn` asks one question at a time
(`ask()`), each answer returns the next value, and once complete `turn()` is the same `Turn`
a player would have typed in, which `Position.play` then judges like any other.

Nothing here rolls: the caller passes the dice in, so the store can draw them from the
game's seed and a test can choose them. Every refusal is a `RuleError` with a sentence a
player understands, and leaves the turn as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .. import chance
from ..errors import IllegalTurnError, gettext_noop
from .game import DICE, Position, Step, Turn

SIDES = 6


class Ask(StrEnum):
    """What a rolled turn needs next."""

    ROLL = "roll"  # the first roll of six dice
    KEEP = "keep"  # dice to set aside from the last roll (the rest are rolled at once)
    ACTION = "action"  # 30s healing: heal or attack
    TARGET = "target"  # free for all: whom to attack
    HUNT = "hunt"  # roll the hunt (30s: the dice left in the chain)
    GO_ON = "go_on"  # 30s weaker attacks: roll on, or stop with what has been found


@dataclass(frozen=True)
class Roll:
    """One roll of the dice in hand, and the dice then set aside from it (None until chosen)."""

    dice: tuple[int, ...]
    kept: tuple[int, ...] | None = None


@dataclass(frozen=True)
class HuntRoll:
    """One roll of the hunt, and how many of its dice showed the margin."""

    dice: tuple[int, ...]
    hits: int


@dataclass(frozen=True)
class RolledTurn:
    """The turn in progress of the player whose turn it is in `position`."""

    position: Position
    rolls: tuple[Roll, ...] = ()
    heal: bool | None = None
    target: int | None = None
    hunt_rolls: tuple[HuntRoll, ...] = ()
    stopped: bool = False

    # -- what the turn has so far ---------------------------------------------------------

    @property
    def roller(self) -> int:
        return self.position._roller()  # GameOverError once the game is over

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(die for roll in self.rolls for die in roll.kept or ())

    @property
    def kept_total(self) -> int:
        return sum(self.kept)

    @property
    def dice_left(self) -> int:
        return DICE - len(self.kept)

    @property
    def total(self) -> int | None:
        """The final total, once all six dice are set aside."""
        return self.kept_total if self.rolls and self.dice_left == 0 else None

    @property
    def margin(self) -> int | None:
        total = self.total
        if total is None or total <= self.position.rules.beat_above:
            return None
        return total - self.position.rules.beat_above

    @property
    def found(self) -> int:
        """The hunt dice that showed the margin so far (30s: set aside over the chain)."""
        return sum(roll.hits for roll in self.hunt_rolls)

    @property
    def rolls_made(self) -> int:
        """How many times the dice were rolled in this turn, the hunt included."""
        return len(self.rolls) + len(self.hunt_rolls)

    @property
    def hunt_dice(self) -> int:
        """How many dice the next hunt roll uses."""
        total = self.total
        assert total is not None
        if self.position.rules.counts_up:
            return DICE - self.found
        return self.position._max_hunt(total)

    # -- the next question ------------------------------------------------------------------

    def ask(self) -> Ask | None:
        """What the turn needs next; None once it is complete. A game that is over takes
        no more rolls (`GameOverError`)."""
        self.position._roller()
        if not self.rolls:
            return Ask.ROLL
        total = self.total
        if total is None:
            return Ask.KEEP
        question = self.position.ask(total, self.heal, self.target)
        if question is None:
            return None
        if question.step is Step.ACTION:
            return Ask.ACTION
        if question.step is Step.TARGET:
            return Ask.TARGET
        return self._hunt_question()

    def _hunt_question(self) -> Ask | None:
        if not self.hunt_rolls:
            return Ask.HUNT
        rules = self.position.rules
        if not rules.counts_up or self.stopped:
            return None  # Thirty hunts with one roll
        last = self.hunt_rolls[-1]
        if last.hits == 0 or self.found == DICE:
            return None  # the chain ends by itself
        return Ask.GO_ON if rules.weaker_attacks else Ask.HUNT

    def keep_options(self) -> list[tuple[int, ...]]:
        """Every distinct set-aside the rules allow from the last roll, high dice first."""
        if self.ask() is not Ask.KEEP:
            return []
        hand = sorted(self.rolls[-1].dice, reverse=True)
        if self.position.rules.set_aside == "one":
            return [(die,) for die in sorted(set(hand), reverse=True)]
        counts = Counter(hand)
        options: list[tuple[int, ...]] = [()]
        for face in sorted(counts, reverse=True):
            options = [
                option + (face,) * times for option in options for times in range(counts[face] + 1)
            ]
        return sorted((option for option in options if option), key=lambda o: (-sum(o), len(o)))

    # -- answers ------------------------------------------------------------------------------

    def roll(self, dice: Sequence[int]) -> RolledTurn:
        """The first roll of the turn: six dice."""
        self._expect(Ask.ROLL)
        return replace(self, rolls=(Roll(_dice(dice, DICE)),))

    def keep(self, keep: Sequence[int], dice: Sequence[int]) -> RolledTurn:
        """Set `keep` aside from the last roll; `dice` is the roll of the dice left after it
        (none when all six are then set aside)."""
        self._expect(Ask.KEEP)
        last = self.rolls[-1]
        chosen = _faces(keep)
        if not chosen:
            raise IllegalTurnError(gettext_noop("Set aside at least one die."))
        if self.position.rules.set_aside == "one" and len(chosen) != 1:
            raise IllegalTurnError(gettext_noop("In this game you set aside one die at a time."))
        if Counter(chosen) - Counter(last.dice):
            raise IllegalTurnError(gettext_noop("Set aside only dice from the last roll."))
        kept = tuple(sorted(chosen, reverse=True))
        left = self.dice_left - len(kept)
        rolls = (*self.rolls[:-1], Roll(last.dice, kept))
        if left:
            rolls += (Roll(_dice(dice, left)),)
        return replace(self, rolls=rolls)

    def choose_heal(self, heal: bool) -> RolledTurn:
        self._expect(Ask.ACTION)
        return replace(self, heal=bool(heal))

    def choose_target(self, seat: int) -> RolledTurn:
        self._expect(Ask.TARGET)
        total = self.total
        assert total is not None
        if isinstance(seat, bool) or not isinstance(seat, int):
            # `True in (1, 2)` holds and `1.0` matches seat 1: only a seat number names a seat.
            raise IllegalTurnError(gettext_noop("Attack another player who is still in."))
        self.position.ask(total, False, seat)  # refuses a player who may not be attacked
        return replace(self, target=seat)

    def hunt(self, dice: Sequence[int]) -> RolledTurn:
        """Roll the hunt (30s: the dice left in the chain)."""
        if self.ask() not in (Ask.HUNT, Ask.GO_ON):
            self._expect(Ask.HUNT)
        rolled = _dice(dice, self.hunt_dice)
        hits = sum(die == self.margin for die in rolled)
        return replace(self, hunt_rolls=(*self.hunt_rolls, HuntRoll(rolled, hits)))

    def stop(self) -> RolledTurn:
        """30s weaker attacks: stop the chain with the dice found so far."""
        self._expect(Ask.GO_ON)
        return replace(self, stopped=True)

    def turn(self) -> Turn:
        """The turn as a player would type it in, once complete."""
        self._expect(None)
        total = self.total
        assert total is not None
        if total <= self.position.rules.beat_above or self.heal:
            return Turn(total, heal=bool(self.heal))
        found = self.found
        if self.position.rules.weaker_attacks and self.hunt_rolls[-1].hits == 0:
            found = 0  # a weaker attack whose roll finds none does no damage at all
        return Turn(total, hunt=found, target=self.target)

    def _expect(self, wanted: Ask | None) -> None:
        asked = self.ask()
        if asked is wanted:
            return
        raise IllegalTurnError(_NOT_NOW.get(asked, _NOT_NOW[None]))

    # -- storing --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """What the store keeps and every phone may see: nothing in a dice turn is hidden."""
        return {
            "rolls": rolls_json(self.rolls),
            "heal": self.heal,
            "target": self.target,
            "hunt_rolls": hunt_rolls_json(self.hunt_rolls),
            "stopped": self.stopped,
        }

    @classmethod
    def from_json(cls, position: Position, data: dict[str, Any]) -> RolledTurn:
        return cls(
            position,
            read_rolls(data.get("rolls", ())),
            data.get("heal"),
            data.get("target"),
            read_hunt_rolls(data.get("hunt_rolls")),
            bool(data.get("stopped")),
        )


def rolls_json(rolls: Sequence[Roll]) -> list[dict[str, Any]]:
    """A turn's rolls as the sheet's audit trail and the log keep them."""
    return [{"dice": list(r.dice), "kept": _list(r.kept)} for r in rolls]


def hunt_rolls_json(hunt_rolls: Sequence[HuntRoll]) -> list[dict[str, Any]]:
    return [{"dice": list(h.dice), "hits": h.hits} for h in hunt_rolls]


def read_rolls(data: Sequence[dict[str, Any]]) -> tuple[Roll, ...]:
    return tuple(
        Roll(tuple(r["dice"]), None if r["kept"] is None else tuple(r["kept"])) for r in data
    )


def read_hunt_rolls(data: Sequence[dict[str, Any]] | None) -> tuple[HuntRoll, ...]:
    return tuple(HuntRoll(tuple(h["dice"]), h["hits"]) for h in data or ())


@dataclass(frozen=True)
class Action:
    """One call of a rolled turn, as the API takes it: an empty action rolls the first six
    dice; `keep` sets dice aside and rolls the rest; `heal` and `target` answer the choices
    before the hunt, and `hunt` rolls it (a target and the hunt may come together); `stop`
    ends a weaker attack."""

    keep: tuple[int, ...] | None = None
    heal: bool | None = None
    target: int | None = None
    hunt: bool = False
    stop: bool = False


Roller = Callable[[int, int], Sequence[int]]
"""Where dice come from: `roller(step, count)` rolls `count` dice for the turn's roll number
`step` (from 0, the hunt's rolls counted after the others)."""


def act(turn: RolledTurn, action: Action, roller: Roller) -> RolledTurn:
    """The turn after one call. Raises `RuleError` for a choice the rules do not offer now."""
    if action.keep is not None:
        if action != Action(keep=action.keep):
            raise IllegalTurnError(_NOT_NOW[None])
        left = turn.dice_left - len(action.keep)
        dice = roller(turn.rolls_made, left) if 0 < left < DICE else ()
        return turn.keep(action.keep, dice)
    if action == Action():
        turn._expect(Ask.ROLL)
        return turn.roll(roller(0, DICE))
    if action.stop:
        if action != Action(stop=True):
            raise IllegalTurnError(_NOT_NOW[None])
        return turn.stop()
    if action.heal is not None:
        if action.target is not None or action.hunt:
            raise IllegalTurnError(gettext_noop("Choose healing before anything else."))
        return turn.choose_heal(action.heal)
    if action.target is not None:
        turn = turn.choose_target(action.target)
    if action.hunt:
        if turn.ask() not in (Ask.HUNT, Ask.GO_ON):
            turn._expect(Ask.HUNT)
        turn = turn.hunt(roller(turn.rolls_made, turn.hunt_dice))
    return turn


def seeded_dice(seed: bytes, turn: int, step: int, count: int) -> tuple[int, ...]:
    """The dice of roll `step` of turn number `turn`, from the game's secret seed: anyone given
    the seed after the game can roll every turn again and compare."""
    rng = chance.rng(seed, f":turn:{turn}:roll:{step}")
    return tuple(rng.randint(1, SIDES) for _ in range(count))


_NOT_NOW: dict[Ask | None, str] = {
    Ask.ROLL: gettext_noop("Roll the dice first."),
    Ask.KEEP: gettext_noop("First choose the dice to set aside."),
    Ask.ACTION: gettext_noop("First choose: heal or attack."),
    Ask.TARGET: gettext_noop("First choose whom to attack."),
    Ask.HUNT: gettext_noop("Roll the hunt now."),
    Ask.GO_ON: gettext_noop("Roll on, or stop the attack."),
    None: gettext_noop("That is not a choice in this turn now."),
}


def _faces(raw: Sequence[Any]) -> tuple[int, ...]:
    if isinstance(raw, str | bytes):
        raw = (raw,)
    for die in raw:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= SIDES:
            raise IllegalTurnError(
                gettext_noop("A die shows a number from 1 to 6, not %(value)s."), value=die
            )
    return tuple(raw)


def _dice(raw: Sequence[int], count: int) -> tuple[int, ...]:
    dice = _faces(raw)
    if len(dice) != count:
        raise ValueError(f"{count} dice to roll, {len(dice)} given")  # the caller's own mistake
    return dice


def _list(dice: tuple[int, ...] | None) -> list[int] | None:
    return None if dice is None else list(dice)


def table_dice(seed: bytes, part: bytes, turn: int, step: int, count: int) -> tuple[int, ...]:
    """The dice of a roll in a game whose dice the whole table makes: the server's secret seed
    mixed with the phones' parts of the roll (`chance.table_part`), joined in the order the
    roll keeps them. Neither alone decides a die, and all are shown once the game is over, so
    anyone can roll again.

    Drawn from SHA-256 blocks rather than Python's generator, so that the check page can roll
    every turn again in the browser: a byte below 252 gives the die `byte % 6 + 1` (252 is the
    largest multiple of six a byte holds, so every face is equally likely)."""
    key = chance.mixed(seed, part)
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        for byte in chance.block(key, f":turn:{turn}:roll:{step}:{block}"):
            if byte < 252 and len(dice) < count:
                dice.append(byte % SIDES + 1)
        block += 1
    return tuple(dice)
