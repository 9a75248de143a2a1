"""The dice games: validating a reported turn and deciding what it writes on the sheet.

A `Position` is everything the rules need to know between turns: each seat's points and who
rolled last. `Position.play(turn)` checks a `Turn` and returns the `Row` it writes, and
`Position.after(row)` the position that follows. `DiceGame` keeps the rows and offers
`push`/`pop` over them. Nothing here is stored twice: points, who is out, whose turn it is
and the winners all follow from the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..errors import GameOverError, IllegalTurnError, InvalidRulesError, gettext_noop
from .ruleset import THIRTY_S_LIMIT, RuleSet

DICE = 6
MIN_TOTAL, MAX_TOTAL = DICE * 1, DICE * 6
MIN_PLAYERS, MAX_PLAYERS = 2, 12


@dataclass(frozen=True, slots=True)
class Turn:
    """What the roller reports: the total kept and, after beating the mark, the hunt.

    `hunt` is how many hunt dice showed the margin (30s: dice set aside over the whole
    chain). `target` is the seat attacked under free for all; `heal` is the 30s healing
    choice. Seats are numbered from 0 here; the web layer shows them from 1.
    """

    total: int
    hunt: int | None = None
    target: int | None = None
    heal: bool = False


class Effect(StrEnum):
    """What a row did, so that the sheet can explain it."""

    MISSED = "missed"  # did not beat the mark; any failure cost is in the roller's cell
    HIT = "hit"  # the hunt's damage went to the victim (possibly zero dice)
    LOST = "lost"  # the damage was aimed at an empty seat and disappeared
    HEALED = "healed"  # 30s healing: the roller took points off themselves
    # 30s precise elimination: points that would reach 30 other than by an attack landing
    # exactly on it do nothing. `victim` is the player spared: the one attacked, or the roller
    # whose own shortfall would have taken them to 30 or past it.
    OVERSHOT = "overshot"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the sheet: who rolled, what they reported, and the cells it wrote."""

    roller: int
    turn: Turn
    cells: tuple[int, ...]
    effect: Effect
    victim: int | None = None
    margin: int | None = None  # how far the total went past the mark, if it did


class Step(StrEnum):
    """The questions a turn form asks, in order."""

    TOTAL = "total"
    ACTION = "action"  # heal or attack (30s healing)
    TARGET = "target"  # whom to attack (30s free for all)
    HUNT = "hunt"


ATTACK, HEAL = "attack", "heal"


@dataclass(frozen=True)
class Question:
    """The next thing a turn form must ask, with only the answers the rules allow."""

    step: Step
    options: tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """Each seat's points and who rolled last: all the rules need between turns."""

    rules: RuleSet
    points: tuple[int, ...]
    last_roller: int | None = None
    # The standing that follows from them, worked out once as the position is made
    # (`__post_init__`): a turn asks who is in and who rolls next a dozen times, and the
    # estimates play hundreds of thousands of turns, where functools.cached_property took
    # longer than the work (it takes a lock on every first read).
    in_play: tuple[int, ...] = field(init=False, repr=False, compare=False)
    finished: bool = field(init=False, repr=False, compare=False)
    next_roller: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules, points = self.rules, self.points
        if not rules.counts_up:
            in_play = tuple([seat for seat, left in enumerate(points) if left > 0])
            finished = len(in_play) <= 1
        elif rules.end == "first_out":
            # The shorter game stops when someone goes above 30; a player on 30 plays on.
            in_play = tuple([seat for seat, got in enumerate(points) if got <= THIRTY_S_LIMIT])
            finished = len(in_play) < len(points)
        else:
            in_play = tuple([seat for seat, got in enumerate(points) if got < THIRTY_S_LIMIT])
            finished = len(in_play) <= 1
        object.__setattr__(self, "in_play", in_play)
        object.__setattr__(self, "finished", finished)
        start = 0 if self.last_roller is None else self.last_roller + 1
        object.__setattr__(self, "next_roller", None if finished else self._next_in_play(start))

    @classmethod
    def start(cls, rules: RuleSet, players: int) -> Position:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidRulesError(
                gettext_noop("A game has from %(low)s to %(high)s players."),
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
            )
        first = 0 if rules.counts_up else rules.start_points
        return cls(rules, (first,) * players)

    @classmethod
    def from_cell_sums(
        cls, rules: RuleSet, sums: Sequence[int], last_roller: int | None = None
    ) -> Position:
        """The position from each seat's sum of cells, as a database can add them up."""
        return cls.start(rules, len(sums))._apply(last_roller, sums)

    # -- derived standing ---------------------------------------------------------------

    def is_out(self, seat: int) -> bool:
        return seat not in self.in_play

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else nothing."""
        if not self.finished:
            return ()
        if self.rules.counts_up and self.rules.end == "first_out":
            fewest = min(self.points)
            return tuple(seat for seat, points in enumerate(self.points) if points == fewest)
        return self.in_play

    # -- asking and playing -------------------------------------------------------------

    def ask(
        self, total: int | None = None, heal: bool | None = None, target: int | None = None
    ) -> Question | None:
        """The next question a turn form must ask, given the answers so far; None when complete.

        The answers given are checked as they come, so a form never offers a choice the
        rules would refuse at the end.
        """
        roller = self._roller()
        if total is None:
            return Question(Step.TOTAL, tuple(range(MIN_TOTAL, MAX_TOTAL + 1)))
        self._check_total(total)
        if total <= self.rules.beat_above:
            return None
        if heal is None and self.rules.healing and self.points[roller] > 0:
            # A player on 0 points has nothing to heal: the form goes straight to the attack.
            return Question(Step.ACTION, (ATTACK, HEAL))
        if heal:
            self._check_heal()
            return None
        if self.rules.free_for_all:
            if target is None:
                return Question(Step.TARGET, self._targets(roller))
            self._check_target(roller, target)
        return Question(Step.HUNT, tuple(range(self._max_hunt(total) + 1)))

    def play(self, turn: Turn) -> Row:
        """Check a reported turn and decide the row it writes. Raises `RuleError`."""
        roller = self._roller()
        self._check_total(turn.total)
        rules, mark = self.rules, self.rules.beat_above
        cells = [0] * len(self.points)
        if turn.total <= mark:
            if turn.hunt:
                raise IllegalTurnError(
                    gettext_noop("Only a total above %(mark)s goes on to the hunt."), mark=mark
                )
            if turn.target is not None or turn.heal:
                raise IllegalTurnError(
                    gettext_noop("Only a total above %(mark)s can attack or heal."), mark=mark
                )
            cost = self._failure_cost(turn.total)
            if (
                rules.counts_up
                and rules.precise_elimination
                and self.points[roller] + cost >= THIRTY_S_LIMIT
            ):
                # Only an attack landing exactly on 30 eliminates: the roller is spared.
                return Row(roller, turn, tuple(cells), Effect.OVERSHOT, roller)
            cells[roller] = cost
            return Row(roller, turn, tuple(cells), Effect.MISSED)
        margin = turn.total - mark
        if turn.heal:
            self._check_heal()
            if turn.hunt or turn.target is not None:
                raise IllegalTurnError(gettext_noop("A turn that heals does not attack."))
            cells[roller] = -min(margin, self.points[roller])
            return Row(roller, turn, tuple(cells), Effect.HEALED, roller, margin)
        if turn.hunt is None:
            raise IllegalTurnError(
                gettext_noop("The total beat %(mark)s: say how many hunt dice showed %(margin)s."),
                mark=mark,
                margin=margin,
            )
        if not 0 <= turn.hunt <= self._max_hunt(turn.total):
            raise IllegalTurnError(
                gettext_noop("The hunt found from 0 to %(most)s dice, not %(hunt)s."),
                most=self._max_hunt(turn.total),
                hunt=turn.hunt,
            )
        if rules.free_for_all:
            if turn.target is None:
                raise IllegalTurnError(gettext_noop("Free for all: name the player you attack."))
            self._check_target(roller, turn.target)
            victim = turn.target
        elif turn.target is not None:
            raise IllegalTurnError(
                gettext_noop("Only free for all lets you choose whom to attack.")
            )
        else:
            attacked = self.attacked(roller)
            if attacked is None:
                empty = (roller + 1) % len(self.points)
                return Row(roller, turn, tuple(cells), Effect.LOST, empty, margin)
            victim = attacked
        damage = turn.hunt * margin if rules.counts_up else turn.hunt
        if (
            rules.counts_up
            and rules.precise_elimination
            and self.points[victim] + damage > THIRTY_S_LIMIT
        ):
            return Row(roller, turn, tuple(cells), Effect.OVERSHOT, victim, margin)
        cells[victim] = damage
        return Row(roller, turn, tuple(cells), Effect.HIT, victim, margin)

    def attacked(self, roller: int) -> int | None:
        """Whom the roller's attack goes to where the rules choose (not free for all): the
        next player still in, or None where the damage is lost at the empty seat after the
        roller."""
        if (
            self.rules.empty_seat == "lost"
            and not self.rules.counts_up
            and not self._endless_if_lost()
        ):
            victim = (roller + 1) % len(self.points)
            return None if self.is_out(victim) else victim
        return self._next_in_play(roller + 1)

    def after(self, row: Row) -> Position:
        """The position once `row` is on the sheet."""
        return self._apply(row.roller, row.cells)

    # -- helpers ------------------------------------------------------------------------

    def _apply(self, roller: int | None, cells: Sequence[int]) -> Position:
        sign = 1 if self.rules.counts_up else -1
        points = tuple([p + sign * c for p, c in zip(self.points, cells, strict=True)])
        return Position(self.rules, points, roller)

    def _roller(self) -> int:
        roller = self.next_roller
        if roller is None:
            raise GameOverError(gettext_noop("This game is over. Undo the last turn to change it."))
        return roller

    def _next_in_play(self, start: int) -> int:
        """The first seat still in from `start` on, round the table."""
        start %= len(self.points)
        for seat in self.in_play:  # a loop: a generator here cost a quarter of a new position
            if seat >= start:
                return seat
        return self.in_play[0]

    def _endless_if_lost(self) -> bool:
        """Whether losing damage at empty seats would make the game endless.

        That is when failed turns cost nothing and no player still in sits directly before
        another (round the table): nobody could ever lose a point again. Only then does the
        damage go on to the next player still in; otherwise it is lost, as the text says.
        """
        if self.rules.on_failure != "nothing":
            return False
        seats = len(self.points)
        return all(self.is_out((seat + 1) % seats) for seat in self.in_play)

    def _targets(self, roller: int) -> tuple[int, ...]:
        return tuple(seat for seat in self.in_play if seat != roller)

    def _check_total(self, total: int) -> None:
        if (
            isinstance(total, bool)
            or not isinstance(total, int)
            or not MIN_TOTAL <= total <= MAX_TOTAL
        ):
            raise IllegalTurnError(
                gettext_noop("Six dice make a total from %(low)s to %(high)s."),
                low=MIN_TOTAL,
                high=MAX_TOTAL,
            )

    def _check_heal(self) -> None:
        if not self.rules.healing:
            raise IllegalTurnError(gettext_noop("Healing is not part of this game."))

    def _check_target(self, roller: int, target: int) -> None:
        if target not in self._targets(roller):
            raise IllegalTurnError(gettext_noop("Attack another player who is still in."))

    def _max_hunt(self, total: int) -> int:
        if self.rules.hunt_dice == "margin" and not self.rules.counts_up:
            return total - self.rules.beat_above
        return DICE

    def _failure_cost(self, total: int) -> int:
        on_failure = "shortfall" if self.rules.counts_up else self.rules.on_failure
        if on_failure == "one":
            return 1
        if on_failure == "shortfall":
            return self.rules.beat_above - total
        return 0


class DiceGame:
    """A whole game: the rules, the seats and the rows so far, with push and pop."""

    def __init__(self, rules: RuleSet, players: int, rows: Iterable[Row] = ()) -> None:
        self.rules = rules
        self.rows: list[Row] = []
        self._positions = [Position.start(rules, players)]
        for row in rows:
            self._record(row)

    @property
    def position(self) -> Position:
        return self._positions[-1]

    def push(self, turn: Turn) -> Row:
        """Play a turn; the game is unchanged if the rules refuse it."""
        row = self.position.play(turn)
        self._record(row)
        return row

    def pop(self) -> Row:
        """Take back the last turn."""
        if not self.rows:
            raise IllegalTurnError(gettext_noop("There is no turn to undo."))
        self._positions.pop()
        return self.rows.pop()

    def _record(self, row: Row) -> None:
        self.rows.append(row)
        self._positions.append(self.position.after(row))
