"""Small middleware: the health check, headers every answer carries, and key cookies that
open nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games import guesses
from games.access import STALE_COOKIES
from games.models import GameIdConverter
from games.web.game import unchanged

Handler = Callable[[HttpRequest], HttpResponse]

# The page uses none of these browser features; saying so keeps any injected content from them.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
)


class HealthCheckMiddleware:
    """Answers /healthz before anything reads the Host header.

    The Docker HEALTHCHECK calls http://127.0.0.1:PORT/healthz from inside the container,
    and ALLOWED_HOSTS (derived from SITE_URL) would refuse that host with a 400. The answer
    says only that the process is up, so it may be given to any host.
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz" and request.method in ("GET", "HEAD"):
            return HttpResponse("ok", content_type="text/plain")
        return self.get_response(request)


# A phone's poll of a game (thirty/urls.py, "live"), and the version it says it shows. Read
# straight from the query string: Django's QueryDict costs as much as the rest of the answer.
# A query written any other way (`v=%34%32`) simply goes on to the view.
LIVE_PATH = re.compile(rf"/g/(?P<game_id>{GameIdConverter.regex})/live")
VERSION_IN_QUERY = re.compile(r"(?:^|&)v=(?P<version>\d{1,9})(?:&|$)")


class UnchangedLiveMiddleware:
    """Answers a phone's poll of a game that has not changed since the phone's version (an
    empty 204), as soon as the host is checked: every phone that follows a game asks every
    second, and that answer needs nothing the rest of the stack does (no cookie, no form,
    no page). A changed game goes on to the view (games.web.game.live)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "GET"
            and (path := LIVE_PATH.fullmatch(request.path_info))
            and (query := VERSION_IN_QUERY.search(request.META.get("QUERY_STRING", "")))
            and unchanged(request, path["game_id"], int(query["version"]))
        ):
            return HttpResponse(status=204)
        return self.get_response(request)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class StaleKeyCookieMiddleware:
    """Deletes the key cookies a request held that opened nothing (games/access.py), and
    answers 429 when such a cookie came from a client that has used up its wrong guesses."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name in request.__dict__.get(STALE_COOKIES, ()):
            response.delete_cookie(name, samesite="Lax")
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, guesses.TooManyGuessesError):
            return guesses.too_many(request)
        return None
