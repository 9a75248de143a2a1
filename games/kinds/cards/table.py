"""What the card game's pages show, ready for the templates: the table in the middle, each
seat, one phone's own hand with what each card can do, the latest moves in words, and the
sheet of deals.

Everything here is built from one `CardView`, the engine's answer to "what may this seat
see". A watcher's table is built from `view(None)` and may be cached for everyone; a seat's
hand only ever reaches that seat's own phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import charts
from games.names import join_names
from games.rules import RuleError, cards
from games.translate import rule_error_message

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# How many of the latest events the table lists.
LOG_SHOWN = 8


@dataclass(frozen=True)
class Face:
    """A card as drawn: its rank and suit symbol, its colour, and its name for screen readers."""

    code: str
    rank: str
    suit: str
    red: bool
    name: str

    @property
    def joker(self) -> bool:
        return self.code.startswith("X")


def face(code: str) -> Face:
    """The card `code` as drawn in the reader's language."""
    return _face(code, get_language())


@lru_cache(maxsize=256)
def _face(code: str, language: str) -> Face:
    # Once per card and language: a page names every card it shows, each name another
    # eight look-ups in the catalogue (96 of a hand-and-log page's 176). A Face never changes.
    card = cards.Card.from_code(code)
    red = card.colour == cards.RED
    if card.is_joker:
        return Face(code, _("Joker"), "★", red, _("red Joker") if red else _("black Joker"))
    rank_names = {"A": _("Ace"), "J": _("Jack"), "Q": _("Queen")}
    suit_names = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
    rank = rank_names.get(card.rank, card.rank)
    return Face(
        code,
        card.rank,
        SUITS[card.suit],
        red,
        _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_names[card.suit]},
    )


@dataclass(frozen=True)
class Choice:
    """One way to play a card: what the button sends, and what it says."""

    value: str  # the form's `move`: "7H", "AH:11", "JS:-4", "XR:black", "XR:"
    label: str


@dataclass(frozen=True)
class HandCard:
    face: Face
    choices: tuple[Choice, ...]  # empty: not playable now
    why_not: str  # on the player's turn, why a card cannot be played


@dataclass(frozen=True)
class SeatRow(charts.SeatKey):
    position: int
    name: str
    tokens: int
    cards: int
    out: bool
    to_move: bool
    won: bool
    computer: bool
    claimed: bool


@dataclass(frozen=True)
class DealRow:
    number: int
    cells: tuple[int, ...]
    why: str  # the sheet's word on the deal
    over: str  # the same as news, for the banner every phone shows as the deal ends


@dataclass(frozen=True)
class LogLine:
    """One of the latest moves in words. `number` is its place in the whole tournament (the
    state may keep only its latest events, `CardView.log_start`), the same in every process
    and at every length, so a phone shows each computer's move once, at a table's pace
    (`data-pace`)."""

    text: str
    number: int
    by_computer: bool


@dataclass(frozen=True)
class Table:
    view: cards.CardView
    seats: tuple[SeatRow, ...]
    pile_top: Face | None
    hand: tuple[HandCard, ...] | None  # None for a watcher
    log: tuple[LogLine, ...]  # the latest moves, newest first
    deals: tuple[DealRow, ...]
    my_turn: bool

    @property
    def to_move(self) -> SeatRow | None:
        seat = self.view.to_move
        return None if seat is None else self.seats[seat]

    @property
    def unplayable(self) -> bool:
        """Whether this phone's hand has a greyed card, so the page says a tap explains it."""
        return any(card.why_not for card in self.hand or ())

    @property
    def winner_names(self) -> str:
        return join_names([self.seats[seat].name for seat in self.view.winners])

    @property
    def colour_name(self) -> str | None:
        return None if self.view.colour is None else _colour_name(self.view.colour)

    @property
    def clockwise(self) -> bool:
        return self.view.direction == "clockwise"

    @property
    def chart_alt(self) -> str:
        return tokens_chart_alt(self.seats)


def tokens_chart_alt(seats: Sequence[SeatRow]) -> str:
    """What the chart of tokens shows, in words: where each line ends."""
    ends = join_names(
        [
            _("%(name)s out") % {"name": seat.name} if seat.out else f"{seat.name} {seat.tokens}"
            for seat in seats
        ]
    )
    return _("Chart of each player’s tokens after every deal. Now: %(ends)s.") % {"ends": ends}


def deal_row(record: cards.DealRecord, names: Sequence[str], total: int | None = None) -> DealRow:
    """A finished deal's row of the sheet, with what happened in words; `total`, where it is
    known, is the total the deal ended on (`ended_on`), which its banner tells."""
    return DealRow(
        record.number, record.cells, _deal_why(record, names), _deal_over(record, names, total)
    )


def ended_on(events: Sequence[cards.Event]) -> dict[int, int]:
    """The total each deal in `events` ended on, by its number: the one its loser had no card
    for, for a deal stored before its record kept it (`DealRecord.total`): the last card
    played before it says, and a deal
    that ends before any card is played ends on 0, where every deal starts. A stored
    tournament keeps only its latest events (`cards.SNAPSHOT_LOG`): a deal whose cards were
    cut off is left out."""
    totals: dict[int, int] = {}
    total: int | None = None
    for event in events:
        if isinstance(event, cards.Played):
            total = event.total
        elif isinstance(event, cards.DealStarted):
            total = 0
        elif isinstance(event, cards.DealRecord):
            if total is not None:
                totals[event.number] = total
            total = None
    return totals


def build_table(
    view: cards.CardView,
    names: Sequence[str],
    computers: Sequence[bool],
    claimed: Sequence[bool],
) -> Table:
    seats = tuple(
        SeatRow(
            position=seat,
            name=name,
            tokens=view.tokens[seat],
            cards=view.cards[seat],
            out=view.out[seat],
            to_move=view.to_move == seat,
            won=seat in view.winners,
            computer=computers[seat],
            claimed=claimed[seat],
        )
        for seat, name in enumerate(names)
    )
    my_turn = view.seat is not None and view.to_move == view.seat
    hand = None
    if view.hand is not None:
        hand = tuple(_hand_card(code, view, my_turn) for code in view.hand)
    return Table(
        view=view,
        seats=seats,
        pile_top=None if view.pile_top is None else face(view.pile_top),
        hand=hand,
        log=tuple(
            LogLine(
                describe(event, names),
                view.log_start + place,
                computers[seat] if seat is not None else False,
            )
            for place, event, seat in reversed(_worth_saying(view.log))
        ),
        deals=_deal_rows(view.deals, view.log, names),
        my_turn=my_turn,
    )


def _deal_rows(
    records: Sequence[cards.DealRecord], log: Sequence[cards.Event], names: Sequence[str]
) -> tuple[DealRow, ...]:
    # The record keeps its total; a deal stored before it did is read off the kept log.
    totals = ended_on(log) if any(record.total is None for record in records) else {}
    return tuple(
        deal_row(record, names, totals.get(record.number) if record.total is None else record.total)
        for record in records
    )


def _worth_saying(log: Sequence[cards.Event]) -> list[tuple[int, cards.Event, int | None]]:
    """The latest events a table wants to read, each with its place in the log and the seat
    that made it (None for the deal's own events): every card, loss and deal, but not each
    ordinary draw (a card played is always followed by one)."""
    said: list[tuple[int, cards.Event, int | None]] = []
    for number in range(len(log) - 1, -1, -1):
        event = log[number]
        if isinstance(event, cards.Drew) and event.count:
            continue
        seat = event.seat if isinstance(event, cards.Played | cards.Drew | cards.Lost) else None
        said.append((number, event, seat))
        if len(said) == LOG_SHOWN:
            break
    return said[::-1]


def _hand_card(code: str, view: cards.CardView, my_turn: bool) -> HandCard:
    moves = [move for move in view.legal if move.card == code] if my_turn else []
    choices = tuple(_choice(move, view) for move in moves)
    why_not = ""
    if my_turn and not choices:
        why_not = _why_not(code, view)
    return HandCard(face(code), choices, why_not)


def _choice(move: cards.Move, view: cards.CardView) -> Choice:
    card = cards.Card.from_code(move.card)
    if card.is_joker:
        label = (
            _("Reverse – keep the Joker’s colour")
            if move.colour is None
            else _("Reverse, %(colour)s") % {"colour": _colour_name(move.colour)}
        )
        return Choice(f"{move.card}:{move.colour or ''}", label)
    total, _colour = cards.resolve(view.total, view.colour, move)
    if move.value is None:
        return Choice(move.card, _("Total %(total)s") % {"total": total})
    if card.is_jack:
        # Twenty-one of them: short enough for a grid that fits a phone with the total in view.
        shown = f"{move.value:+d}".replace("-", "−")
        return Choice(f"{move.card}:{move.value}", f"{shown} → {total}")
    return Choice(
        f"{move.card}:{move.value}",
        _("%(value)s: total %(total)s") % {"value": move.value, "total": total},
    )


def _why_not(code: str, view: cards.CardView) -> str:
    card = cards.Card.from_code(code)
    try:
        cards.resolve(view.total, view.colour, cards.Move(code, 1 if card.is_ace else None))
    except RuleError as error:
        return rule_error_message(error)
    return _("This card cannot be played now.")


def _colour_name(colour: str) -> str:
    return _("red") if colour == cards.RED else _("black")


def _deal_why(record: cards.DealRecord, names: Sequence[str]) -> str:
    losers = join_names([names[seat] for seat in record.losers])
    if record.reason == cards.STOCK_RAN_OUT:
        return _("Deal %(number)s: the stock ran out, and %(names)s each gave up a token.") % {
            "number": record.number,
            "names": losers,
        }
    return _("Deal %(number)s: %(name)s had no card that fits and gave up a token.") % {
        "number": record.number,
        "name": losers,
    }


def _deal_over(record: cards.DealRecord, names: Sequence[str], total: int | None) -> str:
    """The deal's end as news, for the banner: the total the loser had no card for."""
    losers = join_names([names[seat] for seat in record.losers])
    if record.reason == cards.STOCK_RAN_OUT:
        return _(
            "Deal %(number)s is over: the stock ran out, and %(names)s each give up a token."
        ) % {"number": record.number, "names": losers}
    if total is None:  # its cards are no longer in the kept log: an old deal, never news
        return _(
            "Deal %(number)s is over: %(name)s had no card that fits and gives up a token."
        ) % {"number": record.number, "name": losers}
    return _(
        "Deal %(number)s is over: %(name)s had no card for %(total)s and gives up a token."
    ) % {"number": record.number, "name": losers, "total": total}


def describe(event: cards.Event, names: Sequence[str]) -> str:
    """One public event in words, for every phone at the table."""
    if isinstance(event, cards.Played):
        card = face(event.card)
        if card.joker:
            if event.declared:
                return _("%(name)s reversed the play and named %(colour)s.") % {
                    "name": names[event.seat],
                    "colour": _colour_name(event.declared),
                }
            return _("%(name)s reversed the play.") % {"name": names[event.seat]}
        return _("%(name)s played %(card)s: total %(total)s.") % {
            "name": names[event.seat],
            "card": f"{card.rank}{card.suit}",
            "total": event.total,
        }
    if isinstance(event, cards.Drew):
        if event.count:
            return _("%(name)s drew a card.") % {"name": names[event.seat]}
        return _("%(name)s had nothing to draw.") % {"name": names[event.seat]}
    if isinstance(event, cards.Restocked):
        return ngettext(
            "The pile was shuffled into a new stock of %(count)s card.",
            "The pile was shuffled into a new stock of %(count)s cards.",
            event.count,
        ) % {"count": event.count}
    if isinstance(event, cards.Lost):
        if event.reason == cards.STOCK_RAN_OUT:
            return _("The stock ran out: %(name)s gives up a token.") % {"name": names[event.seat]}
        return _("%(name)s has no card that fits the total and gives up a token.") % {
            "name": names[event.seat]
        }
    if isinstance(event, cards.DealRecord):
        return _("Deal %(number)s is over.") % {"number": event.number}
    if isinstance(event, cards.DealStarted):
        return _("Deal %(number)s: %(name)s starts.") % {
            "number": event.number,
            "name": names[event.starter],
        }
    return _("%(names)s won the tournament!") % {
        "names": join_names([names[seat] for seat in event.winners])
    }


def parse_move(raw: str) -> cards.Move:
    """The form's `move` ("AH:11", "XR:black", "XR:", "7H") as an engine move. Raises a
    `RuleError` with a player's sentence for anything else."""
    code, _sep, rest = raw.partition(":")
    data: dict[str, object] = {"card": code}
    if code.startswith("X"):
        data["colour"] = rest or None
    elif rest:
        short_number = len(rest) <= 3 and rest.removeprefix("-").isdigit()
        data["value"] = int(rest) if short_number else rest
    return cards.Move.from_dict(data)
