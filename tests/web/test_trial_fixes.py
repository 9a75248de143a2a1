"""What a first evening at a real table tripped over, each fixed where a player met it."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games import claims
from games.access import host_cookie_name
from games.kinds.cards.table import build_table
from games.kinds.dice import moves as dice_moves
from games.models import Game, Seat, Secret
from games.names import default_game_name
from games.rules import cards
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_a_computer_seat_left_without_a_name_is_named_and_kept() -> None:
    form = {
        "player": ["Anna", "", "", "Computer 1"],
        "seat_kind": ["person", "computer", "person", "computer"],
        "create": "1",
    }
    assert Client().post("/", form | {"preset": "thirty"}).status_code == 302
    seats = list(Seat.objects.filter(game=Game.objects.get()).values_list("name", "computer"))
    # The empty person's row is no seat; the nameless computer's is, with a name of its own
    # that no player already has.
    assert seats == [("Anna", False), ("Computer 2", True), ("Computer 1", True)]


def test_a_second_phone_on_a_claimed_seat_link_is_told_the_seat_is_taken() -> None:
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": "cards"}).status_code == 302
    game = Game.objects.get()
    key = claims.seat_link_keys(game, host.cookies[host_cookie_name(game)].value)[0].key
    assert Client().post(f"/g/{game.pk}/seat", {"key": key}).status_code == 302
    second = Client().post(f"/g/{game.pk}/seat", {"key": key})
    page = second.content.decode()
    assert second.status_code == 403 and 'id="seat-taken"' in page
    assert "ask the host for a new link" in page and 'name="key"' not in page
    assert "does not belong" not in page


def test_every_kind_s_page_and_update_carry_whose_turn_it_is() -> None:
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    for preset in ("thirty", "cards"):
        assert host.post("/", form | {"preset": preset}).status_code == 302
        game = Game.objects.order_by("-created_at").first()
        assert game is not None
        page = host.get(f"/g/{game.pk}/").content.decode()
        assert 'id="turn-signal"' in page and 'data-seat="0"' in page
        assert 'data-announce="Anna’s turn"' in page and 'data-my-seat=""' in page
        live = Client().get(f"/g/{game.pk}/live", {"v": "0"}).content.decode()
        assert 'id="turn-signal"' in live and 'hx-swap-oob="true"' in live


def test_a_dice_game_shows_its_seed_at_the_end_without_a_reload() -> None:
    game = make_game(players=["Anna", "Ben"], rules={"start_points": 1})
    version = Game.objects.get(pk=game.pk).version
    watcher = Client()
    assert "dice-seed" in watcher.get(f"/g/{game.pk}/").content.decode()
    dice_moves.record_turn(game.pk, RuleTurn(33, 1))  # Ben loses his only point: the game is over
    live = watcher.get(f"/g/{game.pk}/live", {"v": str(version), "n": "0", "t": ""})
    body = live.content.decode()
    seed = Secret.objects.get(game=game).seed
    assert 'id="dice-seed"' in body and 'hx-swap-oob="true"' in body and seed in body


def test_the_jacks_values_are_a_compact_grid_under_the_total_now() -> None:
    start = cards.Tournament.start(cards.CardRules(), 2, "00" * 32)
    jack = cards.Card.from_code("JH")
    hands = ((jack, *start.deal.hands[0][1:]), start.deal.hands[1])
    state = dataclasses.replace(start, deal=dataclasses.replace(start.deal, hands=hands))
    with translation.override("en"):
        table = build_table(state.view(0), ["Anna", "Ben"], [False, False], [True, True])
    choices = next(card.choices for card in table.hand or () if card.face.code == "JH")
    assert len(choices) == 11 and [c.label for c in choices][:2] == ["+0 → 0", "+1 → 1"]
    with translation.override("en"):
        html = render_to_string(
            "games/card_hand.html", {"table": table, "game": make_game(), "oob": True}
        )
    assert 'class="choice-list compact"' in html and "Total now: 0." in html


def test_a_name_the_app_made_up_reads_in_each_readers_language() -> None:
    host = Client(headers={"Accept-Language": "en"})
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": "thirty"}).status_code == 302
    game = Game.objects.get()
    assert game.name_default is not None
    day = date.fromisoformat(game.name_default["day"])
    danish = Client(headers={"Accept-Language": "da"}).get(f"/g/{game.pk}/").content.decode()
    english = Client(headers={"Accept-Language": "en"}).get(f"/g/{game.pk}/").content.decode()
    with translation.override("da"):
        assert f"<h1>{default_game_name(['Anna', 'Ben'], day)}</h1>" in danish
        assert " og Ben" in default_game_name(["Anna", "Ben"], day)
    with translation.override("en"):
        assert f"<h1>{default_game_name(['Anna', 'Ben'], day)}</h1>" in english
    # The API keeps the name as it was made; a name the host gives is the same for everyone.
    assert Client().get(f"/api/games/{game.pk}").json()["name"] == game.name
    assert host.post(f"/g/{game.pk}/rename", {"name": "Fredag"}).status_code == 302
    again = Client(headers={"Accept-Language": "da"}).get(f"/g/{game.pk}/").content.decode()
    assert "<h1>Fredag</h1>" in again
