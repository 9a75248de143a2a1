"""The end of a card deal is a banner on every phone, for a few seconds or until tapped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import store
from games.kinds.cards import tournaments
from games.models import Game
from games.rules import cards
from tests.browser.conftest import PHONE
from tests.browser.helpers import DANISH, ENGLISH, Language


def play_until_a_deal_ends(game: Game) -> None:
    """Play the first legal card of whoever is to move, as their phones would, until the
    first deal is over."""
    while True:
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.deals:
            return
        seat = state.to_move()
        assert seat is not None
        store.play(game.pk, seat, state.legal_moves()[0], version=game.version)


@pytest.mark.parametrize(
    ("language", "deal_one"), [(ENGLISH, "Deal 1:"), (DANISH, "Runde 1:")], ids=["en", "da"]
)
def test_every_phone_sees_the_deal_end_for_a_few_seconds(
    open_browser: Callable[..., Any], live_server: Any, language: Language, deal_one: str
) -> None:
    players = [store.Player("Anna"), store.Player("Ben")]
    game, _ = tournaments.create_card_game("Cards", players, cards.CardRules(tokens=2))
    watcher = open_browser(PHONE, locale=language.locale)
    watcher.goto(f"/g/{game.pk}/")
    expect(watcher.locator("#card-area")).to_be_visible()
    expect(watcher.locator("#deal-banner")).to_have_count(0)
    play_until_a_deal_ends(game)
    banner = watcher.locator("#deal-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(deal_one)
    expect(banner).to_be_hidden(timeout=8_000)  # it goes by itself
    # A phone that opens the page later is not shown an old deal's end.
    later = open_browser(PHONE, locale=language.locale)
    later.goto(f"/g/{game.pk}/")
    expect(later.locator("#deal-banner")).to_be_hidden()


def test_the_deal_banner_goes_when_tapped(open_browser: Callable[..., Any]) -> None:
    players = [store.Player("Anna"), store.Player("Ben")]
    game, _ = tournaments.create_card_game("Cards", players, cards.CardRules(tokens=2))
    watcher = open_browser(PHONE)
    watcher.goto(f"/g/{game.pk}/")
    expect(watcher.locator("#card-area")).to_be_visible()
    play_until_a_deal_ends(game)
    expect(watcher.locator("#deal-banner")).to_be_visible()
    watcher.locator("#deal-banner button").click()
    expect(watcher.locator("#deal-banner")).to_be_hidden()
