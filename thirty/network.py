"""Where phones at the table can reach this machine.

At a real table the app runs on a laptop on the same Wi-Fi as the phones, so a share link or a
QR code must carry the laptop's address on that network, never 127.0.0.1 (DESIGN.md, "At a
real table"). Nothing here sends a packet.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import socket

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")
# A documentation address (RFC 5737): asking the system how it would route there names the
# interface of the default route, which is the Wi-Fi or LAN one on a laptop.
_PROBE = ("192.0.2.1", 9)


@functools.cache
def lan_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses other than loopback, the default route's first.

    Read once per process: `ALLOWED_HOSTS` is fixed at start too, so a laptop that moves to
    another network restarts the app.
    """
    found: list[str] = []
    try:
        # A UDP socket's connect() only chooses a route and a source address; it sends nothing.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            found.append(probe.getsockname()[0])
    except OSError:
        pass  # no network at all: loopback only
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in usable:
            usable.append(address)
    return tuple(usable)


def is_loopback(hostname: str) -> bool:
    if hostname in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(hostname.strip("[]")).is_loopback
    except ValueError:
        return False
