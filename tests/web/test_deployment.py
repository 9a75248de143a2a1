"""Production settings and the optional instance password."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
