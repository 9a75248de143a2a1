"""A short code to type instead of scanning: shown beside the QR code, five letters without
look-alikes, it opens the game's page (what its link opens, no more) for a day, and every
wrong code counts against the guess limit."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games import join_codes
from games.models import Game, JoinCode
from tests.factories import make_game

pytestmark = pytest.mark.django_db
SHOWN = re.compile(r'id="join-code">([A-Z]{5})<')


def shown_code(client: Client, game: Game) -> str:
    found = SHOWN.search(client.get(f"/g/{game.pk}/").content.decode())
    assert found is not None
    return found.group(1)


def test_the_code_beside_the_qr_code_opens_the_game_as_its_link_does() -> None:
    game = make_game()
    code = shown_code(Client(), game)
    assert set(code) <= set("ACDEFHJKMNPRTUVWXY") and shown_code(Client(), game) == code
    laptop = Client()
    for typed in (code, code.lower(), f" {code[:2]} {code[2:]} ", f"{code[:2]}-{code[2:]}"):
        opened = laptop.post("/join", {"code": typed})
        assert opened.status_code == 302 and opened["Location"] == f"/g/{game.pk}/"
    # It opens the watcher's page: no seat, no host.
    page = laptop.get(f"/g/{game.pk}/").content.decode()
    assert 'data-my-seat=""' in page and 'id="seat-links"' not in page
    assert "/join" in Client().get("/join").content.decode()


def test_no_look_alike_letter_is_ever_in_a_code() -> None:
    codes = {join_codes.join_code(make_game(players=["A", "B"])) for _ in range(40)}
    assert not set("".join(codes)) & set("ILOQSZBG0125") and all(len(c) == 5 for c in codes)


def test_a_wrong_or_old_code_opens_nothing_and_counts_as_a_guess() -> None:
    game = make_game()
    code = join_codes.join_code(game)
    wrong = Client().post("/join", {"code": "XXXXX" if code != "XXXXX" else "YYYYY"})
    assert wrong.status_code == 404 and "No game has that code now" in wrong.content.decode()
    # A day later the code is spent, and the game gets a new one when it is shown again.
    JoinCode.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert Client().post("/join", {"code": code}).status_code == 404
    assert join_codes.game_for_code(join_codes.join_code(game)) == game.pk
    # A deleted game's code opens nothing.
    fresh = join_codes.join_code(game)
    Game.objects.filter(pk=game.pk).update(deleted_at=timezone.now())
    assert Client().post("/join", {"code": fresh}).status_code == 404


# A day's window: the count starts again with each window of the clock (games/guesses.py),
# which a test this short then almost never straddles.
@override_settings(THIRTY_GUESS_RATE="3/1d")
def test_guessing_codes_is_limited_like_guessing_keys() -> None:
    guesser = Client()
    for _ in range(3):
        assert guesser.post("/join", {"code": "AAAAA"}).status_code == 404
    assert guesser.post("/join", {"code": "AAAAA"}).status_code == 429


def test_the_join_page_reads_in_danish() -> None:
    page = Client(headers={"Accept-Language": "da"}).get("/join").content.decode()
    assert "Kode" in page
