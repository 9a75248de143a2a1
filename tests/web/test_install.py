"""The web app manifest and the service worker: what a phone needs to install the app."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_start_and_its_icons(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Thirty" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert sizes == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_manifest_speaks_the_readers_language(client: Client) -> None:
    manifest = json.loads(
        client.get("/manifest.webmanifest", headers={"accept-language": "da"}).content
    )
    assert manifest["lang"] == "da" and "terning" in manifest["description"]


def test_the_service_worker_is_served_from_the_root(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("fetch"' in response.content


def test_every_page_links_the_manifest_and_an_offline_notice(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'data-service-worker="/sw.js"' in html
    assert 'id="offline"' in html and "<script>" not in html  # no inline script anywhere
