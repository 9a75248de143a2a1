"""Production settings and the optional instance password."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client, override_settings

from games.models import Game
from tests.factories import make_game

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
    assert "['thirty.example.org'] ['https://thirty.example.org'] True 31536000" in printed


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = os.environ | {"DEBUG": "false", "SECRET_KEY": ""}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


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


def test_serve_makes_a_secret_key_once_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from thirty.serve import ensure_secret_key

    # Set (empty) first, so that the environment is put back as it was afterwards.
    monkeypatch.setenv("SECRET_KEY", "")
    monkeypatch.setenv("SECRET_KEY_FILE", "")
    ensure_secret_key(tmp_path / "data")
    path = tmp_path / "data" / "secret_key"
    key = path.read_text()
    assert len(key) >= 50 and (path.stat().st_mode & 0o777) == 0o600
    assert os.environ["SECRET_KEY_FILE"] == str(path)
    monkeypatch.setenv("SECRET_KEY_FILE", "")
    ensure_secret_key(tmp_path / "data")
    assert path.read_text() == key
    # A key that is set wins, and no file is made.
    monkeypatch.setenv("SECRET_KEY", "given")
    monkeypatch.setenv("SECRET_KEY_FILE", "")
    ensure_secret_key(tmp_path / "other")
    assert not (tmp_path / "other").exists()


def test_make_serve_has_no_fixed_secret_key() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "SECRET_KEY=" not in makefile


def healthcheck_command() -> str:
    """The HEALTHCHECK command of the Dockerfile, exactly as the image runs it."""
    line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if "HEALTHCHECK" in line
    )
    return line.split(" CMD ", 1)[1]


@pytest.mark.django_db(transaction=True)
def test_the_docker_healthcheck_passes_whatever_the_site_url() -> None:
    """The production server with SITE_URL naming the real host, asked on 127.0.0.1 by
    the Dockerfile's own command."""
    from tests.web.test_two_servers import database_url, free_port

    port = str(free_port())
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"} | {
        "DEBUG": "false",
        "SITE_URL": "https://thirty.example.org",
        "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        "DATABASE_URL": database_url(),
        "DB_CONN_MAX_AGE": "0",
        "HOST": "127.0.0.1",
        "PORT": port,
        "WEB_WORKERS": "1",
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "thirty.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            check = subprocess.run(
                ["sh", "-c", healthcheck_command()], env=env, capture_output=True, timeout=10
            )
            if check.returncode == 0:
                break
            assert time.monotonic() < deadline, check.stderr.decode()[-500:]
            time.sleep(0.3)
        # Any other path on that host is still refused.
        refused = subprocess.run(
            ["sh", "-c", healthcheck_command().replace("/healthz", "/rules/")],
            env=env,
            capture_output=True,
            timeout=10,
        )
        assert refused.returncode != 0 and b"400" in refused.stderr
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.django_db
def test_the_host_page_and_claim_pages_are_never_cached(client: Client) -> None:
    from games.access import host_cookie_name

    game = make_game()
    for path in (f"/g/{game.pk}/host", f"/g/{game.pk}/seat"):
        assert "no-store" in client.get(path)["Cache-Control"]
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    page = client.get(f"/g/{game.pk}/")
    assert "no-store" in page["Cache-Control"]
    assert "camera=()" in page["Permissions-Policy"]


@pytest.mark.django_db
@pytest.mark.usefixtures("current_translations")
@override_settings(THIRTY_PASSWORD="open sesame", THIRTY_GUESS_RATE="3/m")
def test_wrong_passwords_are_limited_per_address(client: Client) -> None:
    for _ in range(3):
        assert client.post("/unlock", {"password": "wrong", "next": "/"}).status_code == 403
    refused = client.post("/unlock", {"password": "open sesame", "next": "/"})
    assert refused.status_code == 429 and "Too many wrong" in refused.content.decode()
    api = client.post(
        "/api/games",
        json.dumps({"players": ["A", "B"]}),
        content_type="application/json",
        headers={"Authorization": "Bearer open sesame", "Accept-Language": "da"},
    )
    # Blocked before the password is even compared: a right guess looks like a wrong one.
    assert api.status_code == 429 and "For mange" in api.json()["error"]
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/unlock", {"password": "open sesame", "next": "/"}).status_code == 302


@pytest.mark.django_db
@override_settings(THIRTY_GUESS_RATE="3/m")
def test_wrong_host_keys_are_limited_per_address(client: Client) -> None:
    game = make_game()
    for _ in range(3):
        response = client.post(
            f"/api/games/{game.pk}/turns",
            json.dumps({"total": 20}),
            content_type="application/json",
            headers={"X-Host-Key": "guess"},
        )
        assert response.status_code == 403
    response = client.post(
        f"/api/games/{game.pk}/turns",
        json.dumps({"total": 20}),
        content_type="application/json",
        headers={"X-Host-Key": game.host_key},  # type: ignore[attr-defined]
    )
    assert response.status_code == 429 and response.json()["error"]
    assert client.post(f"/g/{game.pk}/host", {"key": "guess"}).status_code == 429
    assert client.get(f"/api/games/{game.pk}").status_code == 200  # reading needs no key


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy


def test_templates_have_no_inline_script_style_or_handler() -> None:
    """The policy allows only files: anything inline would be blocked in the browser."""
    import re

    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template
        assert not re.search(r"<style\b", text), template
        assert not re.search(r"""\s(on[a-z]+|style)=["']""", text), template
