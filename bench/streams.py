"""Many phones holding a game's event stream open: `make bench` runs a few of these.

    streams.py --port PORT --game ID --count N [--fetch | --pages]

Opens N streams (`/g/<id>/events`), each on its own connection, and prints `ready N` once
every stream has had its first event. With --fetch each stream then does what the page
did before its stream carried updates: on an event it asks `/live?v=..&n=..&t=..` on its
own kept connection and takes the next v/n/t from the answer. With --pages each stream is
opened as the page opens it today (`/g/<id>/events?v=..&n=..&t=..`), so that every event
carries the update itself. A line `stop` on stdin ends it; it then prints one JSON line:
when each version arrived on each stream (and, with --fetch, when its update was in), as
Unix times, plus counts of errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import time
from collections import defaultdict
from typing import Any

import follow

HOST = "127.0.0.1"


class Phones:
    def __init__(self, port: int, game: str, fetch: bool, pages: bool) -> None:
        self.port = port
        self.game = game
        self.fetch = fetch
        self.pages = pages
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.fetched: dict[int, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.ready = 0
        self.start: follow.LiveState | None = None

    async def phone(self, connected: asyncio.Event) -> None:
        live = self.start
        connection = follow.Connection(self.port) if self.fetch else None
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        except OSError as error:
            self.errors.append(f"connect: {error}")
            connected.set()
            return
        first = True
        path = f"/g/{self.game}/events"
        if self.pages and live is not None:
            path = live.url().replace("/live?", "/events?")
        try:
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
            while True:
                line = await reader.readline()
                if not line:
                    raise ConnectionError("the stream ended")
                # Chunked transfer: chunk sizes come as lines of their own; the event lines
                # are what matters here.
                if b"data: " not in line:
                    continue
                now = time.time()
                version = int(json.loads(line.split(b"data: ", 1)[1])["version"])
                self.arrivals[version].append(now)
                if first:
                    first = False
                    self.ready += 1
                    connected.set()
                    continue
                if connection is not None and live is not None:
                    reply = await connection.request("GET", live.url())
                    if reply.status == 200:
                        found = follow.parse_live(reply.body.decode("utf-8", "replace"))
                        live = found or live
                    self.fetched[version].append(time.time())
        except (OSError, ValueError, asyncio.IncompleteReadError) as error:
            self.errors.append(f"{type(error).__name__}: {error}")
        finally:
            connected.set()
            writer.close()
            if connection is not None:
                connection.close()

    async def run(self, count: int) -> dict[str, Any]:
        page = await follow.Connection(self.port).request("GET", f"/g/{self.game}/")
        self.start = follow.parse_live(page.body.decode("utf-8", "replace"))
        tasks = []
        for _ in range(count):
            connected = asyncio.Event()
            tasks.append(asyncio.create_task(self.phone(connected)))
            await connected.wait()  # one after the other, as phones arrive
        print(f"ready {self.ready} errors {len(self.errors)}", flush=True)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()

        def read_stdin() -> None:
            if sys.stdin.readline().strip() in ("stop", ""):
                stop.set()

        loop.add_reader(sys.stdin.fileno(), read_stdin)
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "ready": self.ready,
            "errors": self.errors[:5],
            "error_count": len(self.errors),
            "arrivals": self.arrivals,
            "fetched": self.fetched,
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--fetch", action="store_true")
    parser.add_argument("--pages", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 3 * args.count + 64)), hard))
    result = asyncio.run(Phones(args.port, args.game, args.fetch, args.pages).run(args.count))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
