"""Draw the home-screen icons (static/icon-192.png and icon-512.png) from static/die.svg.

    .venv/bin/python scripts/icons.py

Run once when the die changes; the PNGs are committed. Uses the same Chromium as the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from scripts/: the project's own modules

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SIZES = (192, 512)
DIE_SHARE = 0.7  # the die fills the middle 70 %: inside the safe zone of a round mask


def page_for(size: int, svg: str) -> str:
    inner = int(size * DIE_SHARE)
    die = svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
    return (
        f'<html><body style="margin:0;background:#1d2b36;display:grid;place-items:center;'
        f'width:{size}px;height:{size}px">{die}</body></html>'
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "static" / "die.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for size in SIZES:
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(page_for(size, svg))
                path = ROOT / "static" / f"icon-{size}.png"
                page.screenshot(path=str(path))
                page.close()
                print(path)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
