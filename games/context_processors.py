"""What every template may need to know."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def pace(request: HttpRequest) -> dict[str, str]:
    """The turn pad's cool-down, for `data-cooldown` (static/thirty.js reads it), how often
    a game's page asks who is at the table (a third of the time a phone takes to go quiet),
    and how far apart a phone shows a computer's moves (`data-pace-ms`)."""
    presence = max(1.0, settings.THIRTY_PRESENCE_QUIET_SECONDS / 3)
    return {
        "cooldown_ms": str(settings.THIRTY_COOLDOWN_MS),
        "presence_seconds": f"{presence:g}",
        "pace_ms": str(settings.THIRTY_PACE_MS),
    }
