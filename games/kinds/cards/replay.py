"""A finished card game replayed deal by deal: the hands as dealt, what happened in view of
the table, and the sheet as it stood after the deal.

Built only from `cards.DealStory`, which the engine tells once the tournament is over: the
hands it shows were secret until then."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.kinds.cards.table import (
    DealRow,
    Face,
    SeatRow,
    deal_row,
    describe,
    face,
    tokens_chart_alt,
)
from games.rules import cards


@dataclass(frozen=True)
class HandShown:
    """One seat's cards as the deal gave them; an out seat had none."""

    name: str
    faces: tuple[Face, ...]
    out: bool
    lost: bool  # this seat gave up a token at the end of the deal


@dataclass(frozen=True)
class ReplayStep:
    number: int  # the deal shown, from 1
    total: int  # deals in the tournament
    hands: tuple[HandShown, ...]
    happened: tuple[str, ...]  # the deal in words, first card first
    seats: tuple[SeatRow, ...]  # the tokens after this deal
    deals: tuple[DealRow, ...]  # the sheet up to this deal

    @property
    def chart_alt(self) -> str:
        return tokens_chart_alt(self.seats)


def replay_step(
    stories: Sequence[cards.DealStory],
    names: Sequence[str],
    tokens: int,
    number: int,
    winners: Sequence[int],
) -> ReplayStep:
    """Deal `number` (1 to the number of deals) of a finished tournament."""
    story = stories[number - 1]
    done = stories[:number]
    left = [tokens - sum(s.record.cells[seat] for s in done) for seat in range(len(names))]
    last = number == len(stories)
    seats = tuple(
        SeatRow(
            position=seat,
            name=name,
            tokens=left[seat],
            cards=0,
            out=left[seat] <= 0,
            to_move=False,
            won=last and seat in winners,
            computer=False,
            claimed=True,
        )
        for seat, name in enumerate(names)
    )
    hands = tuple(
        HandShown(
            name,
            tuple(face(code) for code in story.hands[seat]),
            out=not story.hands[seat],
            lost=seat in story.record.losers,
        )
        for seat, name in enumerate(names)
    )
    # Every card and what came of it; a draw follows every card, so only an empty one is news.
    happened = tuple(
        describe(event, names)
        for event in story.events
        if not (isinstance(event, cards.Drew) and event.count)
    )
    return ReplayStep(
        number=number,
        total=len(stories),
        hands=hands,
        happened=happened,
        seats=seats,
        deals=tuple(deal_row(s.record, names, s.record.total) for s in done),
    )
