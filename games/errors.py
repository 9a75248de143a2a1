"""The app's own error pages, in the reader's language: 400 (naming the fix for an address
the instance does not answer to), 403 (and a failed CSRF check), 404 and 500. Django's 403
view already renders its template with the request; these views add what it cannot do: JSON
for the API, a game link that leads nowhere, and a 500 page that needs neither the database
nor a working request context."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        if request.path.startswith("/api/games/"):
            return JsonResponse({"error": _("There is no such game.")}, status=404)
        return JsonResponse({"error": _("There is nothing at this address.")}, status=404)
    game_link = request.path.startswith("/g/")
    return render(request, "404.html", {"game_link": game_link}, status=404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django could not take. For an address this instance does not answer to, name
    the fix: the setting that says which addresses it answers to, and those addresses."""
    if not isinstance(exception, DisallowedHost):
        return render(request, "400.html", status=400)
    context = {
        "asked": request.META.get("HTTP_HOST", ""),
        "site_url": settings.SITE_URL,
        "allowed": [host for host in settings.ALLOWED_HOSTS if host],
    }
    if _is_api(request):
        message = _(
            "This instance does not answer to %(asked)s. It answers to: %(allowed)s. Its"
            " address is set by SITE_URL."
        ) % {"asked": context["asked"], "allowed": ", ".join(context["allowed"])}
        return JsonResponse({"error": message}, status=400)
    return render(request, "400_host.html", context, status=400)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """Something broke: say so in the reader's language, from the language cookie or the
    browser's Accept-Language (never the database, which may be what broke), on a page that
    stands alone."""
    try:
        language = translation.get_language_from_request(request)
        with translation.override(language):
            if _is_api(request):
                return JsonResponse(
                    {"error": _("Something went wrong on the server. Try again in a moment.")},
                    status=500,
                )
            return HttpResponseServerError(
                render_to_string("500.html", {"LANGUAGE_CODE": translation.get_language()})
            )
    except Exception:  # the error page itself must never fail
        logger.exception("The 500 page could not be drawn")
        return HttpResponseServerError(
            "<!doctype html><title>500</title><h1>Server error (500)</h1>",
            content_type="text/html",
        )
