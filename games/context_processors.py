"""What every template may need to know."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def pace(request: HttpRequest) -> dict[str, str]:
    """The turn pad's cool-down, for `data-cooldown` (static/thirty.js reads it)."""
    return {"cooldown_ms": str(settings.THIRTY_COOLDOWN_MS)}
