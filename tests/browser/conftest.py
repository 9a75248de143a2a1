"""Browser tests: a real Chromium drives the pages the way a host and a watcher use them.

They need Chromium at /usr/bin/chromium; without it they are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings

# Playwright's sync API keeps an event loop running in the test thread, where Django would
# otherwise refuse database work (the live server's set-up and tear-down).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
HERE = Path(__file__).resolve().parent
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# How long a watcher may wait for a change: the page polls every second.
LIVE_TIMEOUT_MS = 5_000


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {
        "executable_path": str(CHROMIUM),
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason="Chromium not installed: apt-get install chromium")
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture
def open_browser(browser: Any, live_server: Any) -> Generator[Callable[..., Any]]:
    """Open a fresh browser (its own cookies) on the live server: `open_browser(PHONE)`."""
    contexts: list[Any] = []

    def open_page(viewport: dict[str, int] = LAPTOP, *, locale: str = "en-GB") -> Any:
        """`locale` is the browser's language: what it sends as Accept-Language."""
        context = browser.new_context(viewport=viewport, base_url=live_server.url, locale=locale)
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def compiled_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's catalogues compiled now, so the pages show today's translations."""
    locale = Path(settings.BASE_DIR) / "locale"
    if shutil.which("msgfmt") is None:
        if (locale / "da" / "LC_MESSAGES" / "django.mo").exists():
            return locale
        pytest.skip("msgfmt not found and no compiled Danish catalogue")
    target = tmp_path_factory.mktemp("locale")
    for po in locale.glob("*/LC_MESSAGES/django.po"):
        mo = target / po.relative_to(locale).with_suffix(".mo")
        mo.parent.mkdir(parents=True)
        subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
    return target


@pytest.fixture
def danish(compiled_locale: Path) -> Iterator[None]:
    """The live server translates with those catalogues (it runs in this process)."""
    with override_settings(LOCALE_PATHS=[compiled_locale]):
        yield
