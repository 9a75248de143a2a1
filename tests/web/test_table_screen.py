"""The table screen (/g/<id>/table): the watcher's page of any kind, for a laptop or a TV in
the middle of the table, with no controls and no secret, whoever opens it."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", ["thirty", "cards"])
def test_the_table_screen_is_the_watchers_page_even_for_the_host(preset: str) -> None:
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": preset}).status_code == 302
    game = Game.objects.get()
    host_page = host.get(f"/g/{game.pk}/").content.decode()
    assert 'id="seat-links"' in host_page and f"/g/{game.pk}/table" in host_page
    screen = host.get(f"/g/{game.pk}/table")
    page = screen.content.decode()
    assert screen.status_code == 200 and 'id="live-stream"' in page and 'id="join-code"' in page
    # Nothing the host holds: no seat links, no host link, no switches, no turn pad.
    for held in ('id="seat-links"', "/seat#", "/host#", 'id="turn-panel"', "data-autosubmit"):
        assert held not in page
    assert Client().get(f"/g/{game.pk}/table").content.decode().count('id="turn-signal"') == 1
