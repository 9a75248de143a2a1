"""A limit on wrong guesses of secrets (the instance password, host and seat keys), per
client address.

A person mistypes a password a few times; a program trying passwords makes thousands of
guesses. Only wrong answers count and only wrong answers are refused: a right host or seat
key always works, so one stale phone cannot lock out a table that shares its address, and a
phone that lost a race to claim a seat has guessed nothing. The password is the exception:
it is short enough to be guessed, so a client that used up its guesses is not told whether
its next try was right.

The counts live in the database (the "guesses" cache in thirty/settings.py): every process
shares them, and a restart does not reset them. Behind reverse proxies the client is the
address the first trusted proxy saw (`THIRTY_TRUSTED_PROXIES`).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from thirty import limits

GROUP = "thirty.wrong-guesses"


def client_address(group: str, request: HttpRequest) -> str:
    """Who is guessing: the client's address, or its /64 network for IPv6, where one
    machine commonly holds a whole network of addresses."""
    try:
        address = ipaddress.ip_address(_client(request))
    except ValueError:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def _client(request: HttpRequest) -> str:
    return limits.client_address(
        str(request.META.get("REMOTE_ADDR", "")),
        str(request.META.get("HTTP_X_FORWARDED_FOR", "")),
        settings.THIRTY_TRUSTED_PROXIES,
    )


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


class TooManyGuessesError(Exception):
    """A wrong key from a client that has used up its guesses: answered by `too_many`."""
