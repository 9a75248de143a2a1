"""Limits on what one client can hold open in a server process: event streams per address,
and the time a request body may take to arrive (thirty/asgi.py applies both).

A phone holds one stream per open game page; a few hundred from one address is a whole
house of phones behind one router. More is a program holding connections, and each costs
memory and a file descriptor. A body that trickles in holds a connection and a buffer while
it does; a phone sends a form in well under a second.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

STREAMS_PER_ADDRESS = int(os.getenv("THIRTY_STREAMS_PER_ADDRESS", "300"))
BODY_SECONDS = float(os.getenv("THIRTY_BODY_SECONDS", "10"))
TRUSTED_PROXIES = int(os.getenv("THIRTY_TRUSTED_PROXIES", "0"))


def client_address(remote: str, forwarded_for: str, proxies: int) -> str:
    """The connection's own address or, behind `proxies` trusted proxies, the address the
    first of them was reached from: each appends what it saw to X-Forwarded-For, so that is
    the `proxies`-th from the right. Whatever stands further left the client wrote itself."""
    if not proxies:
        return remote
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    return hops[-proxies] if len(hops) >= proxies else ""


class StreamCount:
    """Open streams per client address, in this process."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: Counter[str] = Counter()

    @contextmanager
    def held(self, address: str) -> Iterator[bool]:
        """Whether `address` may open one more stream; counted while the block runs."""
        if self.open[address] >= self.most:
            yield False
            return
        self.open[address] += 1
        try:
            yield True
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
