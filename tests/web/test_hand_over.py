"""A seat handed to the computer when its player leaves, and back to a person: for every
kind, the computer plays at once on the seat's turn, the old phone loses the seat, the sheet
marks the computer's turns, and the person gets a new link."""

from __future__ import annotations

import pytest
from django.test import Client

from games import claims
from games.access import host_cookie_name, seat_cookie_name, seat_for_key
from games.kinds.cards import tournaments
from games.kinds.dice import moves as dice_moves
from games.models import Game, Move, Seat, Turn
from games.rules.dice.rolled import Action

pytestmark = pytest.mark.django_db


def create(host: Client, preset: str) -> Game:
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": preset}).status_code == 302
    game = Game.objects.get()
    return game


def seat_phone(host: Client, game: Game, seat: int) -> Client:
    links = claims.seat_link_keys(game, host.cookies[host_cookie_name(game)].value)
    key = next(link.key for link in links if link.position == seat)
    phone = Client()
    assert phone.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 302
    return phone


def hand(host: Client, game: Game, seat: int, to: str) -> None:
    answer = host.post(f"/g/{game.pk}/seats/{seat + 1}/hand-over", {"to": to})
    assert answer.status_code == 302


def test_a_dice_seat_handed_to_the_computer_is_played_at_once_and_marked() -> None:
    host = Client()
    game = create(host, "thirty")
    anna = seat_phone(host, game, 0)
    old_key = anna.cookies[seat_cookie_name(game)].value
    assert "Let the computer play for Anna" in host.get(f"/g/{game.pk}/").content.decode()
    assert Client().post(f"/g/{game.pk}/seats/1/hand-over", {"to": "computer"}).status_code == 403

    hand(host, game, 0, "computer")  # Anna's turn: the computer rolls it at once
    turn = Turn.objects.get(game=game)
    assert turn.roller == 0 and turn.by_computer and turn.data["rolls"]
    assert seat_for_key(game, old_key) is None  # Anna's phone no longer plays her seat
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert 'class="by-computer"' in page and "Give Anna’s seat to a person" in page

    hand(host, game, 0, "person")
    assert not Seat.objects.get(game=game, position=0).computer
    fresh = seat_phone(host, game, 0)  # the new link the host's page shows
    assert seat_for_key(game, fresh.cookies[seat_cookie_name(game)].value) == 0
    assert seat_for_key(game, old_key) is None


def test_a_card_seat_handed_to_the_computer_plays_and_its_phone_sees_no_hand() -> None:
    host = Client()
    game = create(host, "cards")
    anna = seat_phone(host, game, 0)
    assert 'id="hand"' in anna.get(f"/g/{game.pk}/").content.decode()
    hand(host, game, 0, "computer")
    game.refresh_from_db()
    assert Move.objects.filter(game=game, seat=0).count() == 1  # its card, played at once
    assert tournaments.load_tournament(game).to_move() == 1
    assert 'id="hand"' not in anna.get(f"/g/{game.pk}/").content.decode()  # a watcher now
    hand(host, game, 0, "person")
    back = seat_phone(host, game, 0)
    assert 'id="hand"' in back.get(f"/g/{game.pk}/").content.decode()


def test_the_phone_that_lost_its_seat_is_told_why_once() -> None:
    host = Client()
    game = create(host, "cards")
    anna = seat_phone(host, game, 0)
    ben = seat_phone(host, game, 1)
    version = Game.objects.get(pk=game.pk).version
    hand(host, game, 0, "computer")
    live = anna.get(f"/g/{game.pk}/live", {"v": str(version)}).content.decode()
    assert "The host gave your seat to the computer" in live
    assert 'id="seat-notice" hx-swap-oob="true"' in live
    # Told once: the key's cookie goes with that answer, and the phone simply follows.
    assert "gave your seat" not in anna.get(f"/g/{game.pk}/").content.decode()
    assert host.post(f"/g/{game.pk}/seats/2/reissue").status_code == 302
    page = ben.get(f"/g/{game.pk}/").content.decode()
    assert "The host gave Ben’s seat a new link" in page and 'id="hand"' not in page
    # A watcher's copy of the page never carries another phone's notice.
    assert "new link" not in Client().get(f"/g/{game.pk}/").content.decode()


def test_a_new_link_for_a_lost_phone_is_asked_first() -> None:
    host = Client()
    game = create(host, "cards")
    ben = seat_phone(host, game, 1)
    asked = host.get(f"/g/{game.pk}/seats/2/reissue")
    page = asked.content.decode()
    assert asked.status_code == 200 and "Give Ben’s seat a new link?" in page
    assert 'id="hand"' in ben.get(f"/g/{game.pk}/").content.decode()  # nothing changed yet
    assert Client().get(f"/g/{game.pk}/seats/2/reissue").status_code == 403
    assert host.post(f"/g/{game.pk}/seats/2/reissue").status_code == 302
    assert 'id="hand"' not in ben.get(f"/g/{game.pk}/").content.decode()


def test_the_phone_whose_turn_the_host_took_back_is_told_once() -> None:
    host = Client()
    game = create(host, "thirty")
    anna = seat_phone(host, game, 0)
    ben = seat_phone(host, game, 1)
    assert host.post(f"/g/{game.pk}/turn", {"total": "25"}).status_code in (200, 302)
    assert host.post(f"/g/{game.pk}/turn", {"total": "28"}).status_code in (200, 302)
    seen = Game.objects.get(pk=game.pk).version
    assert host.post(f"/g/{game.pk}/undo").status_code in (200, 302)
    assert Turn.objects.filter(game=game).count() == 1
    told = "The host took back your turn (28)."
    live = ben.get(f"/g/{game.pk}/live", {"v": str(seen), "n": "2"}).content.decode()
    assert told in live and 'id="seat-notice" hx-swap-oob="true"' in live
    # Only Ben's phone, and only by an update from before the undo: told once.
    assert told not in anna.get(f"/g/{game.pk}/live", {"v": str(seen), "n": "2"}).content.decode()
    assert told not in Client().get(f"/g/{game.pk}/live", {"v": str(seen)}).content.decode()
    now = Game.objects.get(pk=game.pk).version
    assert host.post(f"/g/{game.pk}/turn", {"total": "20"}).status_code in (200, 302)
    assert told not in ben.get(f"/g/{game.pk}/live", {"v": str(now), "n": "1"}).content.decode()


def test_a_link_reissued_twice_before_a_claim_still_tells_the_phone_that_lost_it() -> None:
    host = Client()
    game = create(host, "cards")
    ben = seat_phone(host, game, 1)
    for _ in range(2):  # the host taps "new link" again before Ben has claimed the first
        assert host.post(f"/g/{game.pk}/seats/2/reissue").status_code == 302
    page = ben.get(f"/g/{game.pk}/")
    assert page.status_code == 200
    assert "The host gave Ben’s seat a new link" in page.content.decode()


def test_a_seat_is_not_handed_over_in_the_middle_of_a_turn_and_the_host_is_told_why() -> None:
    host = Client()
    game = create(host, "thirty")
    dice_moves.roll(game.pk, Action())  # Anna's turn with the app's dice: rolled once, not done
    answer = host.post(f"/g/{game.pk}/seats/1/hand-over", {"to": "computer"})
    assert answer.status_code == 409
    # The same sentence for every kind of game: it names no dice.
    assert answer.content.decode() == (
        "A turn is under way: finish it first, then hand the seat over."
    )
    assert not Seat.objects.get(game=game, position=0).computer
