"""A limit on wrong guesses of secrets (the instance password, host and seat keys), per
client address.

A person mistypes a password a few times; a program trying passwords makes thousands of
guesses. Only wrong guesses count, so a table that shares one address (a home network)
never meets the limit by playing.

The counts live in Django's cache, which here is each process's own memory: enough for a
single machine, where a client can make at most the limit times the number of worker
processes in each period, and counts start again when the server restarts. Behind a
reverse proxy, set RATELIMIT_IP_META_KEY to the header that carries the client's address,
or every client counts as the proxy.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

GROUP = "thirty.wrong-guesses"


def client_address(group: str, request: HttpRequest) -> str:
    """Who is guessing: the client's address, or its /64 network for IPv6, where one
    machine commonly holds a whole network of addresses."""
    raw = str(request.META.get(settings.RATELIMIT_IP_META_KEY or "REMOTE_ADDR", ""))
    try:
        address = ipaddress.ip_address(raw.split(",")[0].strip())
    except ValueError:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def blocked(request: HttpRequest) -> bool:
    """Whether this client has used up its wrong guesses for now."""
    usage = get_usage(request, group=GROUP, key=client_address, rate=settings.THIRTY_GUESS_RATE)
    return usage is not None and usage["count"] >= usage["limit"]


def wrong_guess(request: HttpRequest) -> None:
    get_usage(
        request, group=GROUP, key=client_address, rate=settings.THIRTY_GUESS_RATE, increment=True
    )


def too_many(request: HttpRequest) -> HttpResponse:
    message = _("Too many wrong passwords or keys from your address. Try again in a few minutes.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"error": message}, status=429)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = "600"
    return response
