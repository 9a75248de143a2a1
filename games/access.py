"""Who may change a game: the host, recognised by the key kept in their browser."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.models import Game

HOST_COOKIE_AGE = 60 * 60 * 24 * 365


def host_cookie_name(game: Game) -> str:
    return f"thirty_host_{game.pk}"


def is_host(request: HttpRequest, game: Game) -> bool:
    return game.check_host_key(request.COOKIES.get(host_cookie_name(game)))


def remember_host(response: HttpResponse, game: Game, key: str) -> None:
    response.set_cookie(
        host_cookie_name(game),
        key,
        max_age=HOST_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SITE_URL.startswith("https://"),
    )
