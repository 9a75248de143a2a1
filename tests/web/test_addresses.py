"""The addresses the app answers to and hands out: a refused address gets a page naming the
fix, loopback stays open beside SITE_URL, links never point where no phone can reach, and the
production server speaks HTTPS itself when given a certificate and its key."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.test import Client, override_settings

from games import cache
from tests.factories import make_game
from tests.servers import free_port, server_env, serving, wait_until_healthy

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_a_refused_address_names_site_url_and_the_addresses_it_answers_to() -> None:
    with override_settings(
        SITE_URL="https://thirty.example.org", ALLOWED_HOSTS=["thirty.example.org", "localhost"]
    ):
        page = Client().get("/", headers={"Host": "192.168.1.20:8000"})
        api = Client().get("/api/games/abc", headers={"Host": "192.168.1.20:8000"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "192.168.1.20:8000" in text and "SITE_URL" in text
    assert "https://thirty.example.org" in text and "<code>localhost</code>" in text
    assert api.status_code == 400 and "SITE_URL" in api.json()["error"]
    danish = Client(headers={"Accept-Language": "da"}).get("/", headers={"Host": "10.0.0.9"})
    assert danish.status_code == 400 and "SITE_URL" in danish.content.decode()
    assert "adresse" in danish.content.decode()


def test_loopback_stays_allowed_when_site_url_is_set() -> None:
    printed = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.ALLOWED_HOSTS)"],
        cwd=ROOT,
        env=os.environ
        | {"SITE_URL": "https://thirty.example.org", "DJANGO_SETTINGS_MODULE": "thirty.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "'thirty.example.org'" in printed and "'127.0.0.1'" in printed
    assert "'localhost'" in printed


def test_links_carry_the_network_address_only_when_the_server_listens_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("games.links.lan_addresses", lambda: ["192.168.1.20"])
    game = make_game()
    loopback = {"Host": "127.0.0.1:8000"}
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"], THIRTY_LISTENS_ON_LAN=True):
        shared = Client().get(f"/g/{game.pk}/", headers=loopback).content.decode()
    assert f"http://192.168.1.20:8000/g/{game.pk}/" in shared
    cache.clear()  # the watcher's page is kept per version; the setting is the server's own
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"], THIRTY_LISTENS_ON_LAN=False):
        alone = Client().get(f"/g/{game.pk}/", headers=loopback).content.decode()
    assert "192.168.1.20" not in alone and f"http://127.0.0.1:8000/g/{game.pk}/" in alone


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, and its key in PKCS#8 (what granian reads)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Thirty test")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def test_the_server_speaks_https_with_a_certificate_and_links_stay_on_loopback(
    tmp_path: Path,
) -> None:
    cert, key = _certificate(tmp_path)
    port = free_port()
    env = server_env(
        {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "THIRTY_DATA_DIR": str(tmp_path),
            "CERT": str(cert),
            "KEY": str(key),
            "WEB_WORKERS": "1",
        }
    )
    trusted = ssl.create_default_context(cafile=str(cert))
    base = f"https://127.0.0.1:{port}"

    def fetch(path: str, body: dict[str, object] | None = None) -> tuple[int, str]:
        request = urllib.request.Request(
            base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10, context=trusted) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    with serving([sys.executable, "-m", "thirty.serve"], env) as server:
        wait_until_healthy(server, lambda path: fetch(path)[0])
        status, created = fetch("/api/games", {"players": ["Anna", "Ben"]})
        assert status == 201
        game = json.loads(created)["id"]
        status, page = fetch(f"/g/{game}/")
        # Listening on loopback only, the share link stays there, and says https.
        assert status == 200 and f"{base}/g/{game}/" in page
    printed = server.stdout.read().decode()  # type: ignore[union-attr]
    assert f"Thirty is serving https://127.0.0.1:{port}/ (this machine only)" in printed
