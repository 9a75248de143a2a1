"""A limit on wrong guesses of secrets (the instance password, host and seat keys), per
client address.

A person mistypes a password a few times; a program trying passwords makes thousands of
guesses. Only wrong answers count and only wrong answers are refused: a right host or seat
key always works, so one stale phone cannot lock out a table that shares its address, and a
phone that lost a race to claim a seat has guessed nothing. The password is the exception:
it is short enough to be guessed, so a client that used up its guesses is not told whether
its next try was right.

The counts live in the database (`WrongGuesses`), one row per client and window of the
limit, counted up in a single UPDATE: every process shares them, a restart does not reset
them, and wrong guesses sent at the same moment are every one counted. (A cache's `incr`
reads and then writes, so guesses sent at once were lost.) Behind reverse proxies the client
is the address the first trusted proxy saw (`THIRTY_TRUSTED_PROXIES`).
"""

from __future__ import annotations

import ipaddress
import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from games.models import WrongGuesses
from thirty import limits

# The units of THIRTY_GUESS_RATE ("30/10m": 30 wrong guesses in a window of 10 minutes).
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def client_address(request: HttpRequest) -> str:
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


def rate() -> tuple[int, int]:
    """The limit and its window in seconds, from THIRTY_GUESS_RATE ("30/10m", "5/h")."""
    limit, _slash, period = str(settings.THIRTY_GUESS_RATE).partition("/")
    count = period.rstrip("smhd") or "1"
    return int(limit), int(count) * SECONDS[period[-1:] or "s"]


def _window() -> int:
    return int(time.time()) // rate()[1]


def blocked(request: HttpRequest) -> bool:
    """Whether this client has used up its wrong guesses for now."""
    counted = (
        WrongGuesses.objects.filter(client=client_address(request), window=_window())
        .values_list("count", flat=True)
        .first()
    )
    return counted is not None and counted >= rate()[0]


def wrong_guess(request: HttpRequest) -> None:
    """Count one wrong guess of this client: one UPDATE, or the window's first row."""
    client, window = client_address(request), _window()
    this_window = WrongGuesses.objects.filter(client=client, window=window)
    if this_window.update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            WrongGuesses.objects.create(client=client, window=window, count=1)
    except IntegrityError:
        this_window.update(count=F("count") + 1)  # another request made the row first
        return
    # A client's first wrong guess in a window: its windows gone by are no longer needed.
    WrongGuesses.objects.filter(client=client, window__lt=window).delete()


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
