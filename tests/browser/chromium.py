"""How this project starts Debian's Chromium headless: for the browser tests and for
scripts/screenshots.py alike. The networking flags stop it reaching for hosts that a
closed network refuses."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
