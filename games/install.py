"""What a phone needs to keep Thirty on its home screen: the web app manifest and the
service worker, which must be served from the site's root to cover every page."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1d2b36"
BACKGROUND = "#f7f4ee"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static(f"icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    icons.append({**icons[-1], "purpose": "maskable"})
    icons.append({"src": static("die.svg"), "sizes": "any", "type": "image/svg+xml"})
    response = JsonResponse(
        {
            "name": "Thirty",
            "short_name": "Thirty",
            "description": _("Live score sheets for dice night."),
            "lang": get_language(),
            "start_url": reverse("home"),
            "scope": "/",
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": THEME_COLOUR,
            "icons": icons,
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _service_worker() -> bytes:
    return (Path(settings.BASE_DIR) / "static" / "sw.js").read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_service_worker(), content_type="text/javascript; charset=utf-8")
    # Served from the root, so it may control every page; asked for again on each visit.
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
