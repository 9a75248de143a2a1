"""A page's event stream: each change's update itself, so a phone shows it without asking.

A program's stream (`/api/games/<id>/events`), and a page's that does not say what it shows,
carry only versions (`event: version`, see `games.web.game.events`). A page's stream that says
what the page shows (`/g/<id>/events?v=..&n=..&t=..&k=..`, the same marks as its `/live` poll)
carries instead, for every change, the update `/live` would have answered that page:

    id: 43
    event: update
    data: {"version": 43, "since": 42, "html": "..."}

`since` is the version the update was made from (null when it applies to any older page: a
card table, or dice rows that replace all the page's rows); a page that shows another
version asks `/live` instead. The first event says where the page stands: an `update`
without `html` when the page is current, else a `version` event, and the page catches up
through `/live` as after any cut. Where no update can be made (a rematch), the stream sends
the version too.

A watcher's update is made once per change and event loop, and shared by every watcher's
stream; a seat's or the host's is made for that stream alone and never shared.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass

log = logging.getLogger(__name__)

RETRY = b"retry: 1000\n"
HEARTBEAT = b": keep-alive\n\n"


@dataclass(frozen=True)
class Mark:
    """What a page shows: the version, and for dice the rows it has (count, last id) and
    the chart's key (`key`, a short mark of it: games/kinds/dice/pages.py)."""

    version: int
    count: int = 0
    last: int | None = None
    key: str = ""


@dataclass(frozen=True)
class Update:
    """A live update as `/live` answers it and a page's stream pushes it."""

    body: str
    version: int
    count: int = 0
    last: int | None = None
    whole: bool = False  # applies to whatever older version the page shows
    key: str = ""

    def mark(self) -> Mark:
        return Mark(self.version, self.count, self.last, self.key)


@dataclass(frozen=True)
class Pushed:
    """An update as its stream sends it, and what the page shows once it has it."""

    event: bytes
    mark: Mark


def version_event(version: int) -> bytes:
    return f'id: {version}\nevent: version\ndata: {{"version": {version}}}\n\n'.encode()


def ready_event(version: int) -> bytes:
    """The page is current: nothing to show, but the stream is seen to work."""
    return f'id: {version}\nevent: update\ndata: {{"version": {version}}}\n\n'.encode()


def pushed(update: Update, since: Mark) -> Pushed:
    data = {
        "version": update.version,
        "since": None if update.whole else since.version,
        "html": update.body,
    }
    # json.dumps escapes every line break, so the whole update is one `data:` line.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    event = f"id: {update.version}\nevent: update\ndata: {text}\n\n".encode()
    return Pushed(event, update.mark())


# What a stream asks for each change: the update since `mark`, None where there is none.
Make = Callable[[Mark], Pushed | None]
MakeAsync = Callable[[Mark], Awaitable[Pushed | None]]


class _Follower:
    """What one stream sends for each version it hears, shared by the async stream and the
    threaded one: `heard` answers the event to send at once, or None when the update since
    `mark` must be made first (`made` then answers the event)."""

    def __init__(self, start: Mark) -> None:
        self.mark, self.first = start, True

    def heard(self, new: int | None) -> bytes | None:
        if new is None:
            return HEARTBEAT
        if new <= self.mark.version and not self.first:
            return b""  # already shown: nothing to send
        if self.first and new == self.mark.version:
            self.first = False
            return ready_event(new)
        return None

    def made(self, new: int, made: Pushed | None) -> bytes:
        # A page that connects behind (it was cut off) catches up through `/live`, as it
        # always has; the update it missed is still made, so that the stream knows what the
        # page will show next (and a watcher's `/live` finds it made).
        first, self.first = self.first, False
        if made is not None:
            self.mark = made.mark
        if first or made is None:
            return version_event(made.mark.version if made is not None else new)
        return made.event


async def stream(
    start: Mark, versions: AsyncIterator[int | None], make: MakeAsync
) -> AsyncIterator[bytes]:
    yield RETRY
    follower = _Follower(start)
    async for new in versions:
        if (event := follower.heard(new)) is None:
            assert new is not None
            try:
                made = await make(follower.mark)
            except Exception:  # the page's poll still works: tell it the version instead
                log.exception("the update for a page's stream failed")
                made = None
            event = follower.made(new, made)
        if event:
            yield event


def stream_sync(start: Mark, versions: Iterator[int | None], make: Make) -> Iterator[bytes]:
    """The same for a thread (see `games.push.Hub.versions_sync`)."""
    yield RETRY
    follower = _Follower(start)
    for new in versions:
        if (event := follower.heard(new)) is None:
            assert new is not None
            try:
                made = make(follower.mark)
            except Exception:  # the page's poll still works: tell it the version instead
                log.exception("the update for a page's stream failed")
                made = None
            event = follower.made(new, made)
        if event:
            yield event


class Flights:
    """Work shared by the streams of one event loop: the first stream that needs a value
    starts it, the others wait for the same result, so a thousand watchers' streams cost
    one update and no thread hop each. Results are kept for the latest few keys."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._futures: OrderedDict[Hashable, asyncio.Future[Pushed | None]] = OrderedDict()

    def get(
        self, key: Hashable, start: Callable[[], Awaitable[Pushed | None]]
    ) -> asyncio.Future[Pushed | None]:
        future = self._futures.get(key)
        if future is None:
            future = asyncio.ensure_future(start())
            self._futures[key] = future
            future.add_done_callback(lambda done: self._forget_failed(key, done))
            while len(self._futures) > self._size:
                self._futures.popitem(last=False)
        return future

    def _forget_failed(self, key: Hashable, done: asyncio.Future[Pushed | None]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._futures.get(key) is done:
            del self._futures[key]


_flights: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Flights] = (
    weakref.WeakKeyDictionary()
)


def flights() -> Flights:
    """The running event loop's shared work (a worker process may run more than one loop)."""
    loop = asyncio.get_running_loop()
    found = _flights.get(loop)
    if found is None:
        found = _flights[loop] = Flights()
    return found
