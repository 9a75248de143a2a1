"""Production settings and the optional instance password."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client, override_settings

from games.models import Game
from tests.factories import make_game
from tests.servers import free_port, server_env, serving, wait_until_healthy
from thirty.network import lan_addresses

ROOT = Path(__file__).resolve().parents[2]


def test_production_settings_pass_the_deploy_check() -> None:
    # The test run itself allows async-unsafe calls for the browser tests; production must not.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"} | {
        "DEBUG": "false",
        "SITE_URL": "https://thirty.example.org",
        "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    printed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings as s; import django; django.setup();"
            "print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS,"
            " s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)",
        ],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "thirty.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    # The site's own name, and this machine's (a health check, the host on the server).
    hosts = "['thirty.example.org', 'localhost', '127.0.0.1', '[::1]', '::1']"
    assert f"{hosts} ['https://thirty.example.org'] True 31536000" in printed


def test_without_a_secret_key_one_is_made_once_and_kept_private(tmp_path: Path) -> None:
    env = os.environ | {"DEBUG": "false", "SECRET_KEY": "", "THIRTY_DATA_DIR": str(tmp_path)}
    read_key = [
        sys.executable,
        "-c",
        "import django; django.setup(); from django.conf import settings as s; print(s.SECRET_KEY)",
    ]

    def key() -> str:
        result = subprocess.run(
            read_key,
            cwd=ROOT,
            env=env | {"DJANGO_SETTINGS_MODULE": "thirty.settings"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    first = key()
    assert len(first) >= 50 and first == key()  # the same key after a restart
    kept = tmp_path / "secret_key"
    assert kept.read_text().strip() == first
    assert kept.stat().st_mode & 0o077 == 0  # readable by its owner only


@pytest.mark.django_db
@override_settings(THIRTY_PASSWORD="open sesame")
def test_the_instance_password_guards_history_and_creation_but_not_game_links(
    client: Client,
) -> None:
    game = make_game()
    assert client.get("/")["Location"].startswith("/unlock")
    refused = client.post(
        "/api/games", json.dumps({"players": ["A", "B"]}), content_type="application/json"
    )
    assert refused.status_code == 401 and Game.objects.count() == 1
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert client.post("/unlock", {"password": "wrong", "next": "/"}).status_code == 403
    assert client.post("/unlock", {"password": "open sesame", "next": "/"}).status_code == 302
    assert client.get("/").status_code == 200
    created = client.post(
        "/api/games",
        json.dumps({"players": ["A", "B"]}),
        content_type="application/json",
        headers={"Authorization": "Bearer open sesame"},
    )
    assert created.status_code == 201


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_make_run_serves_phones_on_the_lan_address_with_debug_off(tmp_path: Path) -> None:
    addresses = lan_addresses()
    if not addresses:
        pytest.skip("this machine has no address but loopback: no network for phones to use")
    lan = addresses[0]
    port = free_port()
    env = server_env({"PORT": str(port), "THIRTY_DATA_DIR": str(tmp_path)})
    with serving(["make", "run"], env) as server:
        base = f"http://{lan}:{port}"
        wait_until_healthy(server, lambda path: _get(base + path)[0])
        request = urllib.request.Request(
            f"{base}/api/games",
            data=json.dumps({"players": ["Anna", "Ben"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            game = json.loads(response.read())
        # Opened on the laptop itself or on a phone, the share link is the LAN address.
        for host in (lan, "127.0.0.1"):
            status, page = _get(f"http://{host}:{port}/g/{game['id']}/")
            assert status == 200 and f"{base}/g/{game['id']}/" in page
        status, page = _get(f"{base}/no-such-page")
        assert status == 404 and "Traceback" not in page and "URLconf" not in page  # DEBUG off
        assert (tmp_path / "secret_key").exists() and (tmp_path / "thirty.sqlite3").exists()


def test_a_second_server_on_a_port_in_use_refuses_to_start(tmp_path: Path) -> None:
    with socket.socket() as first:
        first.bind(("127.0.0.1", 0))
        first.listen()
        port = first.getsockname()[1]
        env = os.environ | {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "THIRTY_DATA_DIR": str(tmp_path),
        }
        started = subprocess.run(
            [sys.executable, "-m", "thirty.serve"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert started.returncode != 0
    assert f"Port {port} is already in use" in started.stderr
    assert not (tmp_path / "thirty.sqlite3").exists()  # it stopped before touching anything


def test_a_refused_host_name_is_logged_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    stream = io.StringIO()
    handler = logging.getLogger("django.security.DisallowedHost").handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)
    try:
        assert Client().get("/", headers={"Host": "old-name.example"}).status_code == 400
    finally:
        handler.setStream(sys.stderr)
    logged = stream.getvalue().strip().splitlines()
    assert len(logged) == 1 and "old-name.example" in logged[0]
