"""The card game "Thirty": deals, the tournament around them, and what each seat may see.

`Tournament` is the state value of the engine protocol (`games.rules.engine.State`): it is
immutable, `play(move)` returns the next tournament and the public events, and `view(seat)`
is the only way anything leaves it. A whole tournament is a pure function of the rules, the
number of seats, the secret seed and the list of moves (`replay`), so a store keeps only the
seed (secretly) and the moves. `CardGame` wraps the chain of states with `push`/`pop`.

The readings of the rule text (see DESIGN.md):
- A play is legal only if the new total is in 0..30.
- The card is compared with the colour of the previous card: after a Jack the colour of its
  suit, after a Joker the colour it declared or else its own. The first card onto an empty
  pile counts as the same colour.
- Same colour adds the value. Opposite colour: if `total - value` is 0, 5, .., 25 the total
  becomes that; otherwise it drops by 1 (a card that would take it below 0 cannot be played).
- Ace: 1 or 11, the player's choice, also for the multiple-of-5 check. Jack: any whole number
  -10..+10 whatever the colour. Joker: total unchanged, direction reversed, may declare a
  colour. Queen (variant): same colour doubles, opposite halves rounding down.
- After playing, the player draws one card. Drawing the last card of the stock turns all but
  the top card of the pile into a new stock, shuffled from the seed. With the deck sizes here
  the pile always holds more than its top card then; should it ever not, the stock stays
  empty and later players simply draw nothing until they run out of cards (a player with no
  card has no legal play, so the deal still ends).
- Single stock: drawing the last card ends the deal and everyone in it gives up a token.
- At the start of a turn a player with no legal play loses the deal and gives up a token.
- Deals are dealt three cards each, one at a time in seat order; the first deal starts with
  seat 0, a later one with the last loser if they still hold tokens, else the next player
  clockwise who does; after a single-stock end, with the player who would have played next.
  Every deal starts clockwise (seat order). A seat with no tokens is out and holds no cards.
  The last player holding tokens wins; if a single-stock end leaves nobody with tokens, the
  players who were in share the win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, ClassVar, Literal, cast, get_args

from ..chance import Seed, seed_bytes, seed_sha256
from ..engine import Outcome
from ..errors import (
    GameOverError,
    IllegalMoveError,
    IllegalTurnError,
    InvalidMoveError,
    InvalidRulesError,
    NotYourTurnError,
    gettext_noop,
)
from .deck import (
    COLOURS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    CardRules,
    Colour,
    shuffled,
)

MIN_TOTAL, MAX_TOTAL = 0, 30
JACK_RANGE = range(-10, 11)
ACE_VALUES = (1, 11)
_STEPS_OF_FIVE = frozenset(range(0, 26, 5))

Direction = Literal["clockwise", "counterclockwise"]
LossReason = Literal["no_legal_play", "stock_ran_out"]
NO_LEGAL_PLAY: LossReason = "no_legal_play"
STOCK_RAN_OUT: LossReason = "stock_ran_out"


@dataclass(frozen=True)
class Move:
    """One card played: its code, the value chosen (Ace 1/11, Jack -10..10) and a Joker's colour.

    `value` is None for every other card; `colour` is None unless a Joker declares one.
    """

    card: str
    value: int | None = None
    colour: Colour | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """Read `{"card": "AH", "value": 11}` or `{"card": "XR", "colour": "black"}`.

        Only the move's own keys are accepted: the caller takes off anything else it reads
        from the same body first (such as the API's `version`).
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("card"), str):
            raise InvalidMoveError(gettext_noop("Say which card you play."))
        unknown = set(data) - {"card", "value", "colour"}
        if unknown:
            raise InvalidMoveError(
                gettext_noop("“%(key)s” is not part of a move."), key=sorted(map(str, unknown))[0]
            )
        value, colour = data.get("value"), data.get("colour")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidMoveError(gettext_noop("A card's value is a whole number."))
        if colour is not None and colour not in COLOURS:
            raise InvalidMoveError(gettext_noop("A Joker names red, black or no colour."))
        return cls(data["card"], value, colour)

    def to_dict(self) -> dict[str, Any]:
        """The API shape: `value` when there is one, `colour` (possibly null) for a Joker."""
        data: dict[str, Any] = {"card": self.card}
        if self.value is not None:
            data["value"] = self.value
        if self.card.startswith("X"):
            data["colour"] = self.colour
        return data


# -- public events ------------------------------------------------------------------------
# What `play` makes public. None of them names a card that is not face up.


@dataclass(frozen=True)
class Played:
    """A card went face up onto the pile; `total` and `colour` are what the next card meets."""

    kind: ClassVar[str] = "played"
    seat: int
    card: str
    value: int | None
    declared: Colour | None
    total: int
    colour: Colour
    direction: Direction


@dataclass(frozen=True)
class Drew:
    """A player drew from the stock: how many cards (0 or 1), never which."""

    kind: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True)
class Restocked:
    """All but the top card of the pile became a new shuffled stock of `count` cards."""

    kind: ClassVar[str] = "restocked"
    count: int


@dataclass(frozen=True)
class Lost:
    """A player lost the deal and gave up a token."""

    kind: ClassVar[str] = "lost"
    seat: int
    reason: LossReason


@dataclass(frozen=True)
class DealRecord:
    """A finished deal: one row of the score sheet (`cells`: tokens given up, in seat order)."""

    kind: ClassVar[str] = "deal_ended"
    number: int
    losers: tuple[int, ...]
    cells: tuple[int, ...]
    reason: LossReason
    # The total the deal ended on: the one its loser had no card for (None in deals stored
    # before the record kept it). It tells the deal's end; it is not what makes a record.
    total: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class DealStarted:
    """A new deal was dealt; `starter` plays first."""

    kind: ClassVar[str] = "deal_started"
    number: int
    starter: int


@dataclass(frozen=True)
class TournamentWon:
    """The tournament is over."""

    kind: ClassVar[str] = "won"
    winners: tuple[int, ...]


Event = Played | Drew | Restocked | Lost | DealRecord | DealStarted | TournamentWon


# Each kind of event's field names. Every view of a tournament writes out its whole log, event
# by event, and `dataclasses.fields` took half of that time, asked again for every event.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {
    kind: tuple(item.name for item in fields(kind)) for kind in get_args(Event)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data, with its `kind`."""
    data: dict[str, Any] = {"kind": event.kind}
    for name in _FIELD_NAMES[type(event)]:
        value = getattr(event, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


# -- the arithmetic of one card -----------------------------------------------------------


def resolve(total: int, colour: Colour | None, move: Move) -> tuple[int, Colour]:
    """The new total and the colour the next card meets, if `move` is played on (total, colour).

    Checks only the card's arithmetic, not whose hand holds it. Raises `InvalidMoveError` for a
    malformed move and `IllegalMoveError` when the total would leave 0..30.
    """
    card = Card.from_code(move.card)
    _check_shape(card, move)
    new_total = card_total(total, colour, card, move.value)
    if new_total > MAX_TOTAL:
        raise IllegalMoveError(
            gettext_noop("Playing this would take the total to %(total)s – above 30."),
            total=new_total,
        )
    if new_total < MIN_TOTAL:
        raise IllegalMoveError(
            gettext_noop("Playing this would take the total to %(total)s – below 0."),
            total=str(new_total).replace("-", "−"),  # a real minus sign, as the pages write it
        )
    return new_total, (move.colour or card.colour) if card.is_joker else card.colour


def _check_shape(card: Card, move: Move) -> None:
    value = move.value
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidMoveError(gettext_noop("A card's value is a whole number."))
    if card.is_ace:
        if value not in ACE_VALUES:
            raise InvalidMoveError(gettext_noop("Say whether the Ace counts 1 or 11."))
    elif card.is_jack:
        if value not in JACK_RANGE:
            raise InvalidMoveError(gettext_noop("A Jack counts a whole number from −10 to 10."))
    elif value is not None:
        raise InvalidMoveError(gettext_noop("Only an Ace or a Jack is given a value."))
    if move.colour is not None:
        if not card.is_joker:
            raise InvalidMoveError(gettext_noop("Only a Joker can name a colour."))
        if move.colour not in COLOURS:
            raise InvalidMoveError(gettext_noop("A Joker names red, black or no colour."))


def card_total(total: int, colour: Colour | None, card: Card, value: int | None) -> int:
    """The total `card` played as `value` makes on (total, colour), before the 0..30 check.

    A result outside 0..30 means the play is illegal. The move's shape is not checked here
    (use `resolve` for that): this is the bare arithmetic, for callers that hold legal moves.
    """
    if card.is_joker:
        return total
    if card.is_jack:
        assert value is not None
        return total + value
    same = colour is None or card.colour == colour
    if card.is_queen:
        return total * 2 if same else total // 2
    amount = value if card.is_ace else card.number
    assert amount is not None
    if same:
        return total + amount
    if total - amount >= 0 and total - amount in _STEPS_OF_FIVE:
        return total - amount
    return total - 1


def legal_moves_for(hand: Iterable[Card], total: int, colour: Colour | None) -> list[Move]:
    """Every legal play from `hand` on (total, colour), in hand order.

    An Ace once per legal value (even when 1 and 11 give the same total), a Jack once per legal
    value, a Joker once each with colour red, black and None, any other card once.
    """
    moves: list[Move] = []
    for card in hand:
        moves += _card_moves(card, total, colour)
    return moves


@cache
def _card_moves(card: Card, total: int, colour: Colour | None) -> tuple[Move, ...]:
    # Cached because every turn asks it, and a Jack alone has up to 21 moves; moves are
    # immutable, so sharing them is safe.
    code = card.code
    if card.is_joker:
        return (Move(code, None, "red"), Move(code, None, "black"), Move(code))
    if card.is_jack:
        return tuple(Move(code, v) for v in JACK_RANGE if MIN_TOTAL <= total + v <= MAX_TOTAL)
    values = ACE_VALUES if card.is_ace else (None,)
    return tuple(
        Move(code, v)
        for v in values
        if MIN_TOTAL <= card_total(total, colour, card, v) <= MAX_TOTAL
    )


def has_legal_move(hand: Iterable[Card], total: int, colour: Colour | None) -> bool:
    """Whether `hand` has any legal play on (total, colour)."""
    return any(_card_moves(card, total, colour) for card in hand)


# -- one deal -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One deal in progress (or the last one, once the tournament is over).

    `stock[0]` is drawn next; `pile[-1]` is the face-up top card. `colour` is what the next
    card is compared with (None on an empty pile). `step` is +1 clockwise (seat order), -1
    after an odd number of Jokers. `to_move` is None only once the tournament is over; the
    last deal then stays as it ended, the last loser's cards included, for the record.
    """

    number: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...] = ()
    total: int = 0
    colour: Colour | None = None
    step: int = 1
    to_move: int | None = None
    restocks: int = 0

    @property
    def direction(self) -> Direction:
        return "clockwise" if self.step == 1 else "counterclockwise"

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


# -- what a seat sees ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardView:
    """What one seat (or, with `seat` None, any watcher) may see of a tournament.

    Public: everything but `hand` and `legal`. `hand` is the viewer's own cards (None for a
    watcher) and `legal` its legal moves on its own turn (else empty). `pile` lists the face-up
    cards since the last restock, bottom first: they were all played in view of the table
    (they are in `log` too). `log` is the events the state keeps (a resumed one keeps only
    its latest), `log_start` how many came before them. `seed` is filled in only once the
    tournament is over.
    """

    seat: int | None
    rules: CardRules
    deal: int
    to_move: int | None
    direction: Direction
    total: int
    colour: Colour | None
    pile: tuple[str, ...]
    stock_count: int
    cards: tuple[int, ...]
    tokens: tuple[int, ...]
    out: tuple[bool, ...]
    deals: tuple[DealRecord, ...]
    log: tuple[Event, ...]
    log_start: int
    winners: tuple[int, ...]
    finished: bool
    seed_sha256: str
    seed: str | None
    hand: tuple[str, ...] | None
    legal: tuple[Move, ...]

    @property
    def pile_top(self) -> str | None:
        return self.pile[-1] if self.pile else None

    @property
    def pile_count(self) -> int:
        return len(self.pile)

    @property
    def seats(self) -> int:
        return len(self.tokens)

    def to_dict(self, *, with_log: bool = True) -> dict[str, Any]:
        """JSON-ready data in the shapes of the public API (seats still numbered from 0).
        The API's state leaves the log out (`with_log=False`): it is the longest part."""
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "seats": [
                {"seat": seat, "tokens": tokens, "out": out, "cards": cards}
                for seat, (tokens, out, cards) in enumerate(
                    zip(self.tokens, self.out, self.cards, strict=True)
                )
            ],
            "deal": {
                "number": self.deal,
                "to_move": self.to_move,
                "direction": self.direction,
                "total": self.total,
                "colour": self.colour,
                "pile_top": self.pile_top,
                "pile_count": self.pile_count,
                "stock_count": self.stock_count,
            },
            "deals": [
                {"number": d.number, "losers": list(d.losers), "cells": list(d.cells)}
                for d in self.deals
            ],
            "winners": list(self.winners),
            "finished": self.finished,
            "seed_sha256": self.seed_sha256,
        }
        if with_log:
            data["log"] = [event_to_dict(event) for event in self.log]
        if self.seed is not None:
            data["seed"] = self.seed
        if self.hand is not None:
            data["hand"] = list(self.hand)
            data["legal"] = [move.to_dict() for move in self.legal]
        return data


# -- the tournament -----------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """A whole tournament at one moment: tokens, finished deals, the deal in play, the log.

    Build the first with `Tournament.start(rules, seats, seed)`; every later one comes from
    `play`. The seed is kept out of `repr` so that it never reaches a log by accident.
    """

    rules: CardRules
    tokens: tuple[int, ...]
    deal: Deal
    deals: tuple[DealRecord, ...] = ()
    log: tuple[Event, ...] = ()
    winners: tuple[int, ...] = ()
    seed: bytes = field(default=b"", repr=False)
    # How many of the tournament's events came before `log[0]`: a resumed tournament keeps
    # only its latest (`SNAPSHOT_LOG`), and each event keeps its number in the tournament,
    # `log_start` plus its place in `log`, however the state was made.
    log_start: int = 0

    @classmethod
    def start(cls, rules: CardRules, seats: int, seed: Seed) -> Tournament:
        """The tournament before its first move: deal 1 dealt, seat 0 to play."""
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise InvalidRulesError(
                gettext_noop("A card game has from %(low)s to %(high)s players."),
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
            )
        key = seed_bytes(seed)
        tokens = (rules.tokens,) * seats
        deal = _new_deal(rules, key, 1, tokens, starter=0)
        return cls(rules, tokens, deal, log=(DealStarted(1, 0),), seed=key)

    # -- the engine protocol ------------------------------------------------------------

    def to_move(self) -> int | None:
        return self.deal.to_move

    def legal_moves(self) -> list[Move]:
        seat = self.deal.to_move
        if seat is None:
            return []
        return legal_moves_for(self.deal.hands[seat], self.deal.total, self.deal.colour)

    def play(self, move: Move, seat: int | None = None) -> tuple[Tournament, tuple[Event, ...]]:
        """Play `move` for the seat to move (checked against `seat` when given).

        Returns the next tournament and the public events, in order: the card played, the
        draw, a restock, and what follows by itself (a loss at the start of the next turn,
        the end of the deal, the next deal, the end of the tournament).
        """
        mover, card, total, colour = self._check(move, seat)
        deal = self.deal
        step = -deal.step if card.is_joker else deal.step
        hand = list(deal.hands[mover])
        hand.remove(card)
        pile, stock, restocks = (*deal.pile, card), deal.stock, deal.restocks
        events: list[Event] = [
            Played(
                mover,
                card.code,
                move.value,
                move.colour,
                total,
                colour,
                "clockwise" if step == 1 else "counterclockwise",
            )
        ]
        drawn = 1 if stock else 0
        if drawn:
            hand.append(stock[0])
            stock = stock[1:]
        events.append(Drew(mover, drawn))
        hands = _replace_at(deal.hands, mover, tuple(hand))
        after = _next_seat(self.tokens, mover, step)
        if drawn and not stock:
            if self.rules.single_stock:
                ended = Deal(deal.number, hands, stock, pile, total, colour, step, None, restocks)
                losers = tuple(s for s, t in enumerate(self.tokens) if t > 0)
                return self._end_deal(ended, losers, STOCK_RAN_OUT, after, events)
            if len(pile) > 1:
                restocks += 1
                stock = shuffled(pile[:-1], self.seed, deal.number, restocks)
                pile = pile[-1:]
                events.append(Restocked(len(stock)))
        nxt = Deal(deal.number, hands, stock, pile, total, colour, step, after, restocks)
        return self._settle(nxt, events)

    def outcome(self) -> Outcome | None:
        if not self.winners:
            return None
        return Outcome(self.winners, "last_holding_tokens" if len(self.winners) == 1 else "shared")

    def view(self, seat: int | None) -> CardView:
        """What `seat` may see (None: any watcher). Never another seat's hand or the stock."""
        if seat is not None and not 0 <= seat < len(self.tokens):
            raise InvalidMoveError(gettext_noop("There is no such seat."))
        deal, finished = self.deal, self.finished
        own = seat is not None and seat == deal.to_move
        return CardView(
            seat=seat,
            rules=self.rules,
            deal=deal.number,
            to_move=deal.to_move,
            direction=deal.direction,
            total=deal.total,
            colour=deal.colour,
            pile=tuple(card.code for card in deal.pile),
            stock_count=len(deal.stock),
            cards=tuple(len(hand) for hand in deal.hands),
            tokens=self.tokens,
            out=tuple(t == 0 for t in self.tokens),
            deals=self.deals,
            log=self.log,
            log_start=self.log_start,
            winners=self.winners,
            finished=finished,
            seed_sha256=seed_sha256(self.seed),
            seed=self.seed.hex() if finished else None,
            hand=None if seat is None else tuple(card.code for card in deal.hands[seat]),
            legal=tuple(self.legal_moves()) if own else (),
        )

    # -- more questions -----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def seats(self) -> int:
        return len(self.tokens)

    def validate(self, move: Move, seat: int | None = None) -> None:
        """Raise the `RuleError` that `play` would raise, or nothing if `move` is legal."""
        self._check(move, seat)

    def reveal(self) -> str:
        """The seed in hex, once the tournament is over, so that anyone can replay it."""
        if not self.finished:
            raise IllegalTurnError(gettext_noop("The seed is shown once the tournament is over."))
        return self.seed.hex()

    # -- helpers ------------------------------------------------------------------------

    def _check(self, move: Move, seat: int | None) -> tuple[int, Card, int, Colour]:
        mover = self.deal.to_move
        if mover is None:
            raise GameOverError(gettext_noop("This tournament is over."))
        if seat is not None and seat != mover:
            raise NotYourTurnError(gettext_noop("It is not your turn."))
        if not isinstance(move, Move):
            raise InvalidMoveError(gettext_noop("Say which card you play."))
        card = Card.from_code(move.card)
        if card not in self.deal.hands[mover]:
            raise IllegalMoveError(gettext_noop("You do not hold that card."))
        total, colour = resolve(self.deal.total, self.deal.colour, move)
        return mover, card, total, colour

    def _following(
        self,
        tokens: tuple[int, ...],
        deal: Deal,
        deals: tuple[DealRecord, ...],
        log: tuple[Event, ...],
        winners: tuple[int, ...] = (),
    ) -> Tournament:
        """The tournament a move leads to: what a move changes is named, and everything else
        (the rules, the seed, `log_start`) carries over here, the one place that builds a
        later state. Not `dataclasses.replace`, which took twice as long (4.0 against 2.0 µs)
        on the path the computer's search takes for every move it weighs."""
        return Tournament(self.rules, tokens, deal, deals, log, winners, self.seed, self.log_start)

    def _settle(self, deal: Deal, events: list[Event]) -> tuple[Tournament, tuple[Event, ...]]:
        """Carry on from `deal`: the player to move loses at once if they cannot play."""
        seat = deal.to_move
        assert seat is not None
        if has_legal_move(deal.hands[seat], deal.total, deal.colour):
            state = self._following(self.tokens, deal, self.deals, self.log + tuple(events))
            return state, tuple(events)
        ended = Deal(
            deal.number,
            deal.hands,
            deal.stock,
            deal.pile,
            deal.total,
            deal.colour,
            deal.step,
            None,
            deal.restocks,
        )
        return self._end_deal(ended, (seat,), NO_LEGAL_PLAY, seat, events)

    def _end_deal(
        self,
        deal: Deal,
        losers: tuple[int, ...],
        reason: LossReason,
        starter: int,
        events: list[Event],
    ) -> tuple[Tournament, tuple[Event, ...]]:
        """Take a token from each loser, write the sheet's row, then deal again or finish.

        `starter` starts the next deal if they still hold tokens, else the next player
        clockwise who does.
        """
        cells = tuple(1 if seat in losers else 0 for seat in range(len(self.tokens)))
        tokens = tuple(t - c for t, c in zip(self.tokens, cells, strict=True))
        record = DealRecord(deal.number, losers, cells, reason, deal.total)
        events += [Lost(seat, reason) for seat in losers]
        events.append(record)
        holding = tuple(seat for seat, t in enumerate(tokens) if t > 0)
        deals = (*self.deals, record)
        if len(holding) <= 1:
            # Nobody left holding tokens only happens after a single-stock end: the players
            # who were in share the win.
            winners = holding or losers
            events.append(TournamentWon(winners))
            log = self.log + tuple(events)
            finished = self._following(tokens, deal, deals, log, winners)
            return finished, tuple(events)
        if tokens[starter] == 0:
            starter = _next_seat(tokens, starter, 1)
        number = deal.number + 1
        events.append(DealStarted(number, starter))
        fresh = _new_deal(self.rules, self.seed, number, tokens, starter)
        following = self._following(tokens, deal, deals, self.log)
        return following._settle(fresh, events)


def _new_deal(
    rules: CardRules, seed: bytes, number: int, tokens: tuple[int, ...], starter: int
) -> Deal:
    """Shuffle for deal `number` and deal three cards each, one at a time in seat order."""
    cards = shuffled(rules.deck(), seed, number)
    playing = [seat for seat, t in enumerate(tokens) if t > 0]
    hands: list[tuple[Card, ...]] = [()] * len(tokens)
    for i, seat in enumerate(playing):
        hands[seat] = cards[i : HAND_SIZE * len(playing) : len(playing)]
    stock = cards[HAND_SIZE * len(playing) :]
    return Deal(number, tuple(hands), stock, to_move=starter)


def _next_seat(tokens: tuple[int, ...], seat: int, step: int) -> int:
    """The next seat after `seat` in direction `step` that still holds tokens."""
    seats = len(tokens)
    for distance in range(1, seats + 1):
        candidate = (seat + step * distance) % seats
        if tokens[candidate] > 0:
            return candidate
    raise AssertionError("nobody holds tokens")  # pragma: no cover - the tournament ends first


def _replace_at(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


# -- whole games --------------------------------------------------------------------------


def replay(rules: CardRules, seats: int, seed: Seed, moves: Iterable[Move]) -> Tournament:
    """The tournament after `moves`, from the start: everything follows from these four."""
    state = Tournament.start(rules, seats, seed)
    for move in moves:
        state, _ = state.play(move)
    return state


@dataclass(frozen=True)
class DealStory:
    """One deal of a finished tournament, for its replay: every hand as it was dealt (an out
    seat's is empty), and what happened in view of the table, in order."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    events: tuple[Event, ...]  # from the first card to the end of the deal
    record: DealRecord


def deal_stories(
    rules: CardRules, seats: int, seed: Seed, moves: Iterable[Move]
) -> tuple[DealStory, ...]:
    """Every deal of a tournament with the hands dealt, once the tournament is over: until
    then a hand is its holder's alone (the seed that would show them is secret too)."""
    state = Tournament.start(rules, seats, seed)
    stories: list[DealStory] = []
    hands = _codes(state.deal.hands)
    events: list[Event] = []
    for move in moves:
        number = state.deal.number
        state, happened = state.play(move)
        for event in happened:
            if isinstance(event, DealRecord):
                stories.append(DealStory(event.number, hands, tuple(events), event))
                events = []
            elif not isinstance(event, (DealStarted, TournamentWon)):
                events.append(event)
        if state.deal.number != number:
            hands = _codes(state.deal.hands)
    if not state.finished:
        raise IllegalTurnError(gettext_noop("The hands are shown once the tournament is over."))
    return tuple(stories)


def _codes(hands: tuple[tuple[Card, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(card.code for card in hand) for hand in hands)


class CardGame:
    """A tournament with its moves, offering `push`/`pop` like the dice `DiceGame`."""

    def __init__(
        self, rules: CardRules, seats: int, seed: Seed, moves: Iterable[Move] = ()
    ) -> None:
        self.rules = rules
        self.moves: list[Move] = []
        self.events: list[tuple[Event, ...]] = []
        self._states = [Tournament.start(rules, seats, seed)]
        for move in moves:
            self.push(move)

    @property
    def state(self) -> Tournament:
        return self._states[-1]

    def push(self, move: Move, seat: int | None = None) -> tuple[Event, ...]:
        """Play a move; the game is unchanged if the rules refuse it."""
        state, events = self.state.play(move, seat)
        self._states.append(state)
        self.moves.append(move)
        self.events.append(events)
        return events

    def pop(self) -> Move:
        """Take back the last move (with everything that followed from it by itself)."""
        if not self.moves:
            raise IllegalTurnError(gettext_noop("There is no move to undo."))
        self._states.pop()
        self.events.pop()
        return self.moves.pop()


# -- snapshots ------------------------------------------------------------------------------
# A tournament written as JSON-ready data, so that a store can resume it in constant time
# instead of replaying every move. It holds the hands and the stock: only a store's secret
# row may keep it. The log keeps its latest events only (what a table shows), so a resumed
# tournament equals the replayed one in everything but the length of its log; `log_start`
# says how many events were left out, so that each event kept has its number still.

SNAPSHOT_LOG = 64

_EVENTS: dict[str, type[Event]] = {
    cls.kind: cls for cls in (Played, Drew, Restocked, Lost, DealRecord, DealStarted, TournamentWon)
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The inverse of `event_to_dict`."""
    cls = _EVENTS[data["kind"]]
    values = {
        item.name: tuple(data[item.name]) if isinstance(data[item.name], list) else data[item.name]
        for item in fields(cls)
        if item.name in data  # a field added since the event was kept takes its default
    }
    return cast(Event, cast(Any, cls)(**values))


def snapshot(state: Tournament) -> dict[str, Any]:
    deal = state.deal
    return {
        "rules": state.rules.to_dict(),
        "tokens": list(state.tokens),
        "deal": {
            "number": deal.number,
            "hands": [[card.code for card in hand] for hand in deal.hands],
            "stock": [card.code for card in deal.stock],
            "pile": [card.code for card in deal.pile],
            "total": deal.total,
            "colour": deal.colour,
            "step": deal.step,
            "to_move": deal.to_move,
            "restocks": deal.restocks,
        },
        "deals": [event_to_dict(record) for record in state.deals],
        "log": [event_to_dict(event) for event in state.log[-SNAPSHOT_LOG:]],
        "log_start": state.log_start + max(0, len(state.log) - SNAPSHOT_LOG),
        "winners": list(state.winners),
        "seed": state.seed.hex(),
    }


def from_snapshot(data: Mapping[str, Any]) -> Tournament:
    deal = data["deal"]

    def cards_of(codes: Iterable[str]) -> tuple[Card, ...]:
        return tuple(Card.from_code(code) for code in codes)

    return Tournament(
        rules=CardRules.from_dict(data["rules"]),
        tokens=tuple(data["tokens"]),
        deal=Deal(
            number=deal["number"],
            hands=tuple(cards_of(hand) for hand in deal["hands"]),
            stock=cards_of(deal["stock"]),
            pile=cards_of(deal["pile"]),
            total=deal["total"],
            colour=deal["colour"],
            step=deal["step"],
            to_move=deal["to_move"],
            restocks=deal["restocks"],
        ),
        deals=tuple(cast(DealRecord, event_from_dict(record)) for record in data["deals"]),
        log=tuple(event_from_dict(event) for event in data["log"]),
        winners=tuple(data["winners"]),
        seed=bytes.fromhex(data["seed"]),
        # A snapshot kept before it was written numbers its events from its first kept one.
        log_start=data.get("log_start", 0),
    )
