"""A phone some way off: a TCP proxy that delays every chunk by half a round trip each way.

`make bench` section 6 puts phones a mobile round trip away. Chromium's own network
emulation cannot stand in for that: its latency is a minimum from request to response
headers (CDP `Network.emulateNetworkConditions`), so a request's time on the server hides
inside it, and the chunks of a stream already open are not delayed at all. On a network,
each byte takes its time on the way, whatever the server does, and an event on a stream
travels as far as a response does. So here: each chunk read from either side is written
to the other `delay` seconds later, in order.

    python bench/delay_proxy.py --to 8300 --round-trip-ms 50

prints "ready PORT" once it listens (on a port the system picks, or `--listen`), and serves
until its standard input closes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys


async def carry(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Copy one direction, each chunk `delay` seconds after it arrived, in the order read."""
    loop = asyncio.get_running_loop()
    due: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            at, chunk = await due.get()
            if not chunk:
                break
            await asyncio.sleep(max(0.0, at - loop.time()))
            writer.write(chunk)
            await writer.drain()
        await asyncio.sleep(max(0.0, at - loop.time()))
        writer.close()

    delivering = asyncio.create_task(deliver())
    with contextlib.suppress(ConnectionError):
        while chunk := await reader.read(65536):
            due.put_nowait((loop.time() + delay, chunk))
    due.put_nowait((loop.time() + delay, b""))  # then close, as the other side did
    with contextlib.suppress(ConnectionError):
        await delivering


async def serve(listen: int, to: int, round_trip: float) -> None:
    async def connect(
        phone_reader: asyncio.StreamReader, phone_writer: asyncio.StreamWriter
    ) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", to)
        except OSError:
            phone_writer.close()
            return
        with contextlib.suppress(asyncio.CancelledError):  # the proxy is being stopped
            await asyncio.gather(
                carry(phone_reader, server_writer, round_trip / 2),
                carry(server_reader, phone_writer, round_trip / 2),
            )

    server = await asyncio.start_server(connect, "127.0.0.1", listen)
    print("ready", server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    # Serve until whoever started the proxy closes its standard input (or is gone).
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, default=0)
    parser.add_argument("--to", type=int, required=True)
    parser.add_argument("--round-trip-ms", type=float, required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.listen, args.to, args.round_trip_ms / 1000))


if __name__ == "__main__":
    main()
