"""Players entering their own turns with their seat's link, where the host allows it."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.access import host_cookie_name, seat_cookie_name
from games.models import Game, Turn, seat_key
from tests.factories import make_game

pytestmark = pytest.mark.django_db

ANNA, BEN = 0, 1


def seat_phone(game: Game, seat: int) -> Client:
    """A phone that opened the seat's link: it holds the seat's key in a cookie."""
    phone = Client()
    key = seat_key(game.host_key, game.pk, seat)  # type: ignore[attr-defined]
    response = phone.post(f"/g/{game.pk}/seat", {"key": key})
    assert response.status_code == 302
    assert phone.cookies[seat_cookie_name(game)].value == key
    return phone


def allow(game: Game, allowed: bool = True) -> None:
    host = Client()
    host.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    assert host.post(f"/g/{game.pk}/seats", {"allowed": "on" if allowed else ""}).status_code == 302
    game.refresh_from_db()


def test_a_player_enters_their_own_turn_and_only_theirs() -> None:
    game = make_game()
    allow(game)
    anna, ben = seat_phone(game, ANNA), seat_phone(game, BEN)
    assert "Ben" in ben.get(f"/g/{game.pk}/").content.decode()
    refused = ben.post(f"/g/{game.pk}/turn", {"total": "20", "v": game.version})
    assert refused.status_code == 422 and "not your turn" in refused.content.decode()
    assert anna.post(f"/g/{game.pk}/turn", {"total": "20", "v": game.version}).status_code == 302
    assert list(Turn.objects.values_list("roller", flat=True)) == [ANNA]
    page = ben.get(f"/g/{game.pk}/").content.decode()
    assert 'name="total" value="36"' in page  # now it is Ben's turn: his form is there
    assert ben.post(f"/g/{game.pk}/undo").status_code == 403  # only the host undoes


def test_seat_links_only_watch_when_the_host_switches_seat_play_off() -> None:
    game = make_game()
    allow(game, False)
    anna = seat_phone(game, ANNA)
    page = anna.get(f"/g/{game.pk}/").content.decode()
    assert "The host enters the turns in this game." in page
    assert anna.post(f"/g/{game.pk}/turn", {"total": "20"}).status_code == 422
    assert Turn.objects.count() == 0


def test_seat_play_is_on_in_a_new_game() -> None:
    game = make_game()
    anna = seat_phone(game, ANNA)
    assert anna.post(f"/g/{game.pk}/turn", {"total": "20"}).status_code == 302
    assert Turn.objects.count() == 1


def test_a_wrong_or_foreign_seat_key_is_refused() -> None:
    game, other = make_game(), make_game()
    allow(game)
    stranger = Client()
    key = seat_key(other.host_key, other.pk, ANNA)  # type: ignore[attr-defined]
    assert stranger.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 403
    stranger.cookies[seat_cookie_name(game)] = "forged"
    assert stranger.post(f"/g/{game.pk}/turn", {"total": "20"}).status_code == 403
    assert Turn.objects.count() == 0


def test_the_host_sees_every_seats_link() -> None:
    game = make_game()
    allow(game)
    host = Client()
    host.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    page = host.get(f"/g/{game.pk}/").content.decode()
    for seat in range(4):
        assert f"/g/{game.pk}/seat#{seat_key(game.host_key, game.pk, seat)}" in page  # type: ignore[attr-defined]


def test_the_api_takes_a_turn_with_a_seat_key_on_that_seats_turn() -> None:
    game = make_game()
    allow(game)
    client = Client()
    url = f"/api/games/{game.pk}/turns"
    ben = seat_key(game.host_key, game.pk, BEN)  # type: ignore[attr-defined]
    body = json.dumps({"total": 20})
    refused = client.post(url, body, content_type="application/json", headers={"X-Seat-Key": ben})
    assert refused.status_code == 403 and "not this seat's turn" in refused.json()["error"]
    anna = seat_key(game.host_key, game.pk, ANNA)  # type: ignore[attr-defined]
    done = client.post(url, body, content_type="application/json", headers={"X-Seat-Key": anna})
    assert done.status_code == 201 and done.json()["next_roller"] == 2
