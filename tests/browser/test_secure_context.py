"""Phones on the Wi-Fi: a page opened by a name that is not this machine's (how a phone opens
`make run`) is no secure context, and still keeps the screen on from a tap, copies its links
and tells the host what the phones miss; through the repository's Caddy configuration the
same page is a secure context, and its event stream gets through. Where a browser refuses its
share sheet over plain http, Share copies the link instead."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.kinds.dice import moves as dice_moves
from games.rules import dice as dice_rules
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import DANISH, PHONE, create_game
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
NAME = "thirty.test"  # a name only this test's browser resolves, to 127.0.0.1
WORDS = {"en": {"copied": "Copied", "share": "Share"}, "da": {"copied": "Kopieret", "share": "Del"}}
# Notes each text the page copies (the selected part of the field the copy came from).
WATCH_COPIES = """() => {
  window.copied = [];
  document.addEventListener("copy", () => {
    const field = document.activeElement;
    window.copied.push(field.value.slice(field.selectionStart, field.selectionEnd));
  });
}"""
# A share sheet that the browser refuses, as some do outside a secure context.
REFUSED_SHARE = """navigator.share = () =>
  Promise.reject(new DOMException("Sharing needs a secure context.", "NotAllowedError"));"""


@pytest.fixture
def lan_browser(browser_type: Any) -> Iterator[Any]:
    """Chromium that resolves `NAME` to this machine, as a phone resolves the laptop's
    address: a page opened that way over http is no secure context."""
    browser = browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
    )
    yield browser
    browser.close()


@pytest.mark.waits
def test_on_plain_http_the_screen_stays_on_from_a_tap_and_share_falls_back_to_copy(
    lan_browser: Any, live_server: Any, settings: Any
) -> None:
    # In Danish: the copy button's words in both languages are read in test_table_journeys.py.
    language = DANISH
    port = live_server.url.rsplit(":", 1)[1]
    base = f"http://{NAME}:{port}"
    settings.ALLOWED_HOSTS = [NAME]
    settings.SITE_URL = base
    settings.CSRF_TRUSTED_ORIGINS = [base]
    context = lan_browser.new_context(viewport=PHONE, base_url=base, locale=language.locale)
    try:
        page = context.new_page()
        blocked: list[str] = []
        page.on(
            "console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None
        )
        create_game(page, ["Anna", "Ben"], language=language)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        # The host's page says in one line what the phones miss, and where to read more.
        notice = page.locator("[data-insecure-notice]")
        expect(notice).to_be_visible()
        expect(notice.get_by_role("link")).to_have_attribute("href", "/https/")
        # Nothing keeps the screen on before a tap; the first tap starts the silent video.
        assert page.locator("html").get_attribute("data-awake") is None
        page.locator("h1").click()
        expect(page.locator("html")).to_have_attribute("data-awake", "video")
        # Copy works without the Clipboard API.
        page.evaluate(WATCH_COPIES)
        copy = page.locator("#share [data-copy]")
        copy.click()
        expect(copy).to_have_attribute("data-result", "copied")
        link = page.locator("#share-url").input_value()
        assert page.evaluate("window.copied") == [link]
        # No share sheet over plain http here: only Copy is offered.
        share = page.locator("#share [data-share]")
        expect(share).to_be_hidden()
        # A browser that offers a share sheet but refuses it over plain http: tapping Share copies
        # the link instead, and says so.
        context.add_init_script(REFUSED_SHARE)
        page.reload()
        page.evaluate(WATCH_COPIES)
        expect(share).to_be_visible()
        share.click()
        expect(share).to_have_text(WORDS[language.code]["copied"])
        expect(share).to_have_attribute("data-result", "copied")
        assert page.evaluate("window.copied") == [link]
        expect(share).to_have_text(WORDS[language.code]["share"])  # its own word again
        page.goto("/https/")
        expect(page.locator("h1")).to_be_visible()
        assert "make run" in page.locator("main").inner_text()
    finally:
        context.close()
    assert not blocked, blocked


def _caddy(tmp: Path, port: int, upstream: str) -> subprocess.Popen[bytes]:
    options = "\n".join(
        [
            "local_certs",
            "skip_install_trust",
            "admin off",
            "auto_https disable_redirects",
            "grace_period 1s",  # a phone's stream stays open: stop without waiting on it
        ]
    )
    env = os.environ | {
        "XDG_DATA_HOME": str(tmp / "data"),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "SITE_ADDRESS": f"https://{NAME}:{port}",
        "UPSTREAM": upstream,
        "CADDY_OPTIONS": options,
    }
    return subprocess.Popen(
        ["caddy", "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _stream_through(port: int, root_ca: Path, path: str, wanted: bytes) -> bytes:
    """Read the event stream through the proxy, checking its certificate against Caddy's own
    authority, until `wanted` arrives."""
    trusted = ssl.create_default_context(cafile=str(root_ca))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        trusted.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        tls.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {NAME}:{port}\r\nAccept: text/event-stream\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        received = b""
        deadline = time.monotonic() + 10
        while wanted not in received and time.monotonic() < deadline:
            received += tls.recv(4096)
        return received


@pytest.mark.skipif(
    shutil.which("caddy") is None, reason="Caddy not installed: apt-get install caddy"
)
def test_through_the_caddy_configuration_the_page_is_secure_and_the_stream_gets_through(
    lan_browser: Any, live_server: Any, settings: Any, tmp_path: Path
) -> None:
    port = free_port()
    base = f"https://{NAME}:{port}"
    settings.ALLOWED_HOSTS = [NAME]
    settings.SITE_URL = base
    settings.CSRF_TRUSTED_ORIGINS = [base]
    caddy = _caddy(tmp_path, port, live_server.url.removeprefix("http://"))
    root_ca = tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    try:
        deadline = time.monotonic() + 30
        while not root_ca.exists() or _unreachable(port):
            assert caddy.poll() is None, caddy.stderr.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "Caddy did not start"
            time.sleep(0.2)
        # Caddy's local authority signed the page's certificate; the browser is told to
        # accept it (Chromium keeps its own store of authorities, which this test leaves be).
        context = lan_browser.new_context(viewport=PHONE, base_url=base, ignore_https_errors=True)
        page = context.new_page()
        create_game(page, ["Anna", "Ben"])
        assert page.evaluate("window.isSecureContext") is True
        assert page.evaluate("'wakeLock' in navigator") is True
        expect(page.locator("[data-insecure-notice]")).to_be_hidden()
        game_id = page.url.split("/g/")[1].split("/")[0]
        version = int(page.locator("body").get_attribute("data-version") or 0)
        # A turn recorded elsewhere reaches a phone's event stream through the proxy.
        dice_moves.record_turn(game_id, dice_rules.Turn(20))
        received = _stream_through(port, root_ca, f"/g/{game_id}/events?v={version}", b"event:")
        assert b"200" in received.split(b"\r\n", 1)[0], received[:200]
        assert b"text/event-stream" in received and b"event:" in received
        context.close()
    finally:
        os.killpg(caddy.pid, signal.SIGTERM)
        try:
            caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(caddy.pid, signal.SIGKILL)
            caddy.wait(timeout=10)


def _unreachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return False
    except OSError:
        return True
