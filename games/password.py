"""The optional instance password (THIRTY_PASSWORD), for instances open to the internet.

It guards what a stranger could abuse: the history and the players' pages, merging two
spellings of a player, and creating or importing games. A game's own link keeps working
without it, so that anyone at the table can follow.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.guesses import blocked, too_many, wrong_guess

COOKIE = "thirty_unlocked"
SALT = "thirty-instance-password"
COOKIE_AGE = 60 * 60 * 24 * 90


def _fingerprint() -> str:
    # The cookie holds a fingerprint of the password, so changing the password locks everyone out.
    return hashlib.sha256(settings.THIRTY_PASSWORD.encode()).hexdigest()[:24]


def _protected(request: HttpRequest) -> bool:
    path = request.path
    if path in ("/", "/import"):
        return True
    # The history, each player's page across games, and merging two spellings of a player.
    if path.startswith(("/history/", "/players/")):
        return True
    if path.startswith("/g/") and path.endswith("/rematch"):
        return True
    return path == "/api/games" and request.method == "POST"


def _unlocked(request: HttpRequest) -> bool:
    bearer = request.headers.get("Authorization", "")
    if bearer.startswith("Bearer "):
        return hmac.compare_digest(bearer[7:].encode(), settings.THIRTY_PASSWORD.encode())
    cookie = request.get_signed_cookie(COOKIE, default="", salt=SALT) or ""
    return hmac.compare_digest(cookie, _fingerprint())


class InstancePasswordMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The headers are read only when there is a password to check: every phone's poll
        # passes through here every second, and reading them builds a mapping of them all.
        if settings.THIRTY_PASSWORD and _protected(request):
            guessing = request.headers.get("Authorization", "").startswith("Bearer ")
            # Checked before the password, so that a blocked client learns nothing from it.
            if guessing and blocked(request):
                return too_many(request)
            if not _unlocked(request):
                if guessing:
                    wrong_guess(request)
                return self._locked(request)
        return self.get_response(request)

    @staticmethod
    def _locked(request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            return JsonResponse(
                {
                    "error": _(
                        "This instance needs its password:"
                        " send it as Authorization: Bearer <password>."
                    )
                },
                status=401,
            )
        return redirect(f"{reverse('unlock')}?next={request.path}")


@require_http_methods(["GET", "POST"])
def unlock(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts=None):
        next_url = "/"
    error = None
    if request.method == "POST":
        if blocked(request):
            return too_many(request)
        given = request.POST.get("password", "")
        if settings.THIRTY_PASSWORD and hmac.compare_digest(
            given.encode(), settings.THIRTY_PASSWORD.encode()
        ):
            response = redirect(next_url)
            response.set_signed_cookie(
                COOKIE,
                _fingerprint(),
                salt=SALT,
                max_age=COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SITE_URL.startswith("https://"),
            )
            return response
        wrong_guess(request)
        error = _("That is not the password of this instance.")
    return render(
        request, "unlock.html", {"next": next_url, "error": error}, status=403 if error else 200
    )
