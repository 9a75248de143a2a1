"""The addresses the app hands out: share links, seat links and QR codes.

They are opened on other devices, so they use `SITE_URL` when it is set, and otherwise the
address the request came to, except that a loopback address (the host opened the app as
127.0.0.1 on the laptop itself) is replaced by the machine's address on the local network,
if the server listens there: a link to an address nobody can reach would be no link.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

from thirty.network import is_loopback, lan_addresses


def public_url(request: HttpRequest, path: str) -> str:
    if settings.SITE_URL:
        return settings.SITE_URL + path
    host = request.get_host()
    domain, port = split_domain_port(host)
    if is_loopback(domain) and settings.THIRTY_LISTENS_ON_LAN:
        addresses = lan_addresses()
        if addresses:
            host = addresses[0] + (f":{port}" if port else "")
    return f"{request.scheme}://{host}{path}"
