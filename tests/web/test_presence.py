"""Who is at the table: a seat's phone with the page open is here, one whose stream stopped
beating is asleep, for every kind; and presence never changes the game's version."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import presence
from games.models import Game, Seat
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_the_table_sees_who_is_here_whose_phone_sleeps_and_who_has_not_come() -> None:
    game = make_game(players=["Anna", "Ben", "Cleo"])
    Seat.objects.filter(game=game, position=0).update(seen_at=timezone.now())
    long_ago = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(game=game, position=1).update(seen_at=long_ago)
    html = Client().get(f"/g/{game.pk}/present").content.decode()
    assert "● </span> Anna" not in html and "Anna" in html
    assert 'class="seat-presence here" data-seat="0"' in html
    assert "Ben’s phone is asleep" in html and "Cleo: not here yet" in html
    danish = Client(headers={"Accept-Language": "da"}).get(f"/g/{game.pk}/present")
    assert "Bens telefon sover" in danish.content.decode()


def test_a_seats_stream_beats_on_the_seat_and_leaves_the_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = make_game(players=["Anna", "Ben"])
    version = Game.objects.get(pk=game.pk).version
    monkeypatch.setattr("games.push.HEARTBEAT_SECONDS", 0.0)
    chunks = list(presence.beating_sync(iter([b"a", b"b"]), game.pk, 1))
    assert chunks == [b"a", b"b"]
    ben = Seat.objects.get(game=game, position=1)
    assert ben.seen_at is not None and timezone.now() - ben.seen_at < timedelta(seconds=5)
    assert Seat.objects.get(game=game, position=0).seen_at is None
    assert Game.objects.get(pk=game.pk).version == version


def test_every_game_page_asks_who_is_at_the_table() -> None:
    game = make_game()
    assert f'hx-get="/g/{game.pk}/present"' in Client().get(f"/g/{game.pk}/").content.decode()
