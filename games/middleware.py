"""Small middleware: the health check, headers every answer carries, and key cookies that
open nothing."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games import guesses
from games.access import STALE_COOKIES

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
