"""A rematch keeps the table: every phone that held a seat follows into the rematch in the
same player's seat, with no new link, for every kind of game; nobody else gets a seat."""

from __future__ import annotations

import pytest
from django.test import Client

from games import claims
from games.access import host_cookie_name, seat_cookie_name, seat_for_key
from games.models import Game, Seat

pytestmark = pytest.mark.django_db
CARD_IN_HAND = 'data-card="'


def create(host: Client, preset: str) -> Game:
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": preset}).status_code == 302
    game = Game.objects.order_by("-created_at").first()
    assert game is not None
    return game


def seat_phone(host: Client, game: Game, seat: int) -> Client:
    key = claims.seat_link_keys(game, host.cookies[host_cookie_name(game)].value)[seat].key
    phone = Client()
    assert phone.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 302
    return phone


@pytest.mark.parametrize("preset", ["thirty", "cards"])
def test_a_phone_that_held_a_seat_follows_into_the_rematch_in_the_same_seat(preset: str) -> None:
    host = Client()
    game = create(host, preset)
    ben = seat_phone(host, game, 1)
    watcher = Client()
    forged = Client()
    forged.cookies[seat_cookie_name(game)] = "not-a-key"
    version = Game.objects.get(pk=game.pk).version
    assert host.post(f"/g/{game.pk}/rematch").status_code == 302
    rematch = Game.objects.get(rematch_of=game)

    followed = ben.get(f"/g/{game.pk}/live", {"v": str(version)})
    assert followed["HX-Redirect"] == f"/g/{rematch.pk}/"
    key = ben.cookies[seat_cookie_name(rematch)].value
    assert seat_for_key(rematch, key) == 1  # Ben's seat, and no other
    page = ben.get(f"/g/{rematch.pk}/").content.decode()
    if preset == "cards":
        assert page.count(CARD_IN_HAND) == 3  # his own hand, claimed for this phone
    # Anna never opened her link: her seat in the rematch waits for its link as before.
    anna = Seat.objects.get(game=rematch, position=0)
    assert anna.joined_at is None and seat_phone(host, rematch, 0)

    for other in (watcher, forged):
        answer = other.get(f"/g/{game.pk}/live", {"v": str(version)})
        assert answer["HX-Redirect"] == f"/g/{rematch.pk}/"
        assert seat_cookie_name(rematch) not in answer.cookies


def test_the_sealed_link_opens_only_with_the_seats_own_key() -> None:
    host = Client()
    game = create(host, "cards")
    seat_phone(host, game, 1)
    assert host.post(f"/g/{game.pk}/rematch").status_code == 302
    held = Seat.objects.get(game=game, position=1)
    assert held.rematch_link and claims.open_for_seat(held, "a guess") is None
    # The host's key opens no hand: it cannot open the sealed link either.
    assert claims.open_for_seat(held, host.cookies[host_cookie_name(game)].value) is None
