"""Who is at the table: which seats have a phone with the game's page open now, and whose
phone went quiet (asleep, or closed), for every kind of game.

A seat's phone holds the page's event stream open (`games.web.game.events`), which beats
every `games.push.HEARTBEAT_SECONDS` while nothing happens. Each beat of a seat's stream
notes the time on the seat (`Seat.seen_at`), at most once per beat, so presence costs one
small write per seat every twenty seconds and no change to the game's version: nobody's
move is refused because a phone came or went.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import push
from games.models import Game, Seat


@dataclass(frozen=True)
class Presence:
    """One person's seat as the table sees it: here now, quiet (seen, but not lately), or not
    yet seen at all."""

    position: int
    name: str
    here: bool
    quiet: bool


def seen(game_id: str, position: int) -> None:
    Seat.objects.filter(game_id=game_id, position=position).update(seen_at=timezone.now())


def _seen_and_let_go(game_id: str, position: int) -> None:
    try:
        seen(game_id, position)
    finally:
        if not connection.in_atomic_block:
            connection.close()  # a stream's thread holds no connection while it waits


def table_presence(game: Game) -> list[Presence]:
    """Every person's seat (the computer's are always there), in seat order."""
    quiet_after = timezone.now() - timedelta(seconds=settings.THIRTY_PRESENCE_QUIET_SECONDS)
    rows = Seat.objects.filter(game=game, computer=False).order_by("position")
    return [
        Presence(
            position,
            name,
            here=seen_at is not None and seen_at >= quiet_after,
            quiet=seen_at is not None and seen_at < quiet_after,
        )
        for position, name, seen_at in rows.values_list("position", "name", "seen_at")
    ]


def _due(last: float) -> bool:
    return time.monotonic() - last >= push.HEARTBEAT_SECONDS * 0.9


async def beating(stream: AsyncIterator[bytes], game_id: str, seat: int) -> AsyncIterator[bytes]:
    """A seat's stream that notes the seat as seen when it opens and at every beat after."""
    note = sync_to_async(_seen_and_let_go, thread_sensitive=False)
    await note(game_id, seat)
    last = time.monotonic()
    async for chunk in stream:
        yield chunk
        if _due(last):
            await note(game_id, seat)
            last = time.monotonic()


def beating_sync(stream: Iterator[bytes], game_id: str, seat: int) -> Iterator[bytes]:
    """The same for a stream held by a thread."""
    _seen_and_let_go(game_id, seat)
    last = time.monotonic()
    for chunk in stream:
        yield chunk
        if _due(last):
            _seen_and_let_go(game_id, seat)
            last = time.monotonic()
