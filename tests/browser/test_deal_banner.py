"""The end of a card deal is a banner on every phone, for a few seconds or until tapped: who
gave up a token, and the total they had no card for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from games import store
from games.kinds.cards import tournaments
from games.models import Game
from games.rules import cards
from tests.browser.helpers import (
    DANISH,
    ENGLISH,
    PHONE,
    Language,
    pause_the_clock,
    play_first_legal_cards,
)

# What the banner says, in each language (locale/da/LC_MESSAGES/django.po).
OVER = {
    "en": "Deal 1 is over: {name} had no card for {total} and gives up a token.",
    "da": "Runde 1 er slut: {name} havde intet kort, der kunne spilles på {total}, og afleverer"
    " en polet.",
}
STOCK_OUT = {
    "en": "Deal 1 is over: the stock ran out, and {names} each give up a token.",
    "da": "Runde 1 er slut: trækbunken er brugt op, og {names} afleverer hver en polet.",
}
# How long the banner stays, unless tapped (static/thirty.js).
DEAL_BANNER_MS = 5_000
NAMES = ("Anna", "Ben")
LANGUAGES = (ENGLISH, DANISH)
BOTH = {"en": "Anna and Ben", "da": "Anna og Ben"}


def what_the_table_saw(game: Game, language: Language) -> str:
    """The first deal's end as the players at the table saw it: who lost, and the total on
    the pile when they could not play (the last card played before the deal ended)."""
    log = tournaments.load_tournament(game).view(None).log
    end = next(number for number, event in enumerate(log) if isinstance(event, cards.DealRecord))
    record = log[end]
    assert isinstance(record, cards.DealRecord)
    if record.reason == cards.STOCK_RAN_OUT:
        return STOCK_OUT[language.code].format(names=BOTH[language.code])
    played = [event for event in log[:end] if isinstance(event, cards.Played)]
    total = played[-1].total if played else 0
    return OVER[language.code].format(name=NAMES[record.losers[0]], total=total)


def new_game() -> Game:
    players = [store.Player(name) for name in NAMES]
    game, _ = tournaments.create_card_game("Cards", players, cards.CardRules(tokens=2))
    return game


def test_every_phone_sees_the_deal_end_with_its_total_for_a_few_seconds(
    open_browser: Callable[..., Any],
) -> None:
    game = new_game()
    watchers = {language: open_browser(PHONE, locale=language.locale) for language in LANGUAGES}
    for watcher in watchers.values():
        # The phones' clocks run as usual, but the test moves them on rather than waiting.
        watcher.clock.install()
        watcher.goto(f"/g/{game.pk}/")
        expect(watcher.locator("#card-area")).to_be_visible()
        expect(watcher.locator("#deal-banner")).to_have_count(0)
    play_first_legal_cards(game, until=lambda state: bool(state.deals))
    for language, watcher in watchers.items():  # each phone in its own language
        banner = watcher.locator("#deal-banner")
        expect(banner).to_be_visible()
        expect(banner.locator("p")).to_have_text(what_the_table_saw(game, language))
    # It stays up for five seconds and then goes by itself. Each phone's clock stops just
    # after its banner came, and moves on only when told: three seconds on, it is still up;
    # five, and it has gone.
    for watcher in watchers.values():
        pause_the_clock(watcher)
        watcher.clock.fast_forward(DEAL_BANNER_MS - 2_000)
        expect(watcher.locator("#deal-banner")).to_be_visible()
    for watcher in watchers.values():
        watcher.clock.fast_forward(2_100)
        expect(watcher.locator("#deal-banner")).to_be_hidden()
    # A phone that opens the page later is not shown an old deal's end.
    later = open_browser(PHONE, locale=DANISH.locale)
    later.goto(f"/g/{game.pk}/")
    expect(later.locator("#deal-banner")).to_be_hidden()


def test_the_deal_banner_goes_when_tapped(open_browser: Callable[..., Any]) -> None:
    language = ENGLISH  # the test above reads it in both
    game = new_game()
    watcher = open_browser(PHONE, locale=language.locale)
    watcher.goto(f"/g/{game.pk}/")
    expect(watcher.locator("#card-area")).to_be_visible()
    play_first_legal_cards(game, until=lambda state: bool(state.deals))
    banner = watcher.locator("#deal-banner")
    expect(banner).to_be_visible()
    expect(banner.locator("p")).to_have_text(what_the_table_saw(game, language))
    banner.get_by_role("button", name="OK").click()  # "OK" in Danish too
    expect(banner).to_be_hidden()
    # It stays gone while the table is drawn again with the next moves.
    version = int(watcher.evaluate("document.body.dataset.version"))
    game.refresh_from_db()
    state = tournaments.load_tournament(game)
    seat = state.to_move()
    assert seat is not None
    # A move after which the deal goes on (one that ends it too shows that deal's banner).
    move = next(
        move
        for move in state.legal_moves()
        if state.play(move, seat)[0].deal.number == state.deal.number
    )
    store.play(game.pk, seat, move, version=game.version)
    watcher.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    expect(banner).to_be_hidden()
