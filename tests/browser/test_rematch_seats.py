"""A rematch keeps every seat: when the host starts one after a card tournament, each seat's
phone follows into the same player's seat with its own hand and no new link, and the host's
page and address move to the new game."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.kinds.cards import tournaments
from games.models import Game
from games.rules import cards
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, create_card_game, play_first_legal_cards

PLAYERS = ["Anna", "Ben", "Cleo"]
NOT_TAKEN = {"en": "seat not taken", "da": "ikke taget endnu"}


def hand(page: Any) -> set[str]:
    return set(
        page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def last_card_is_next(state: cards.Tournament) -> bool:
    """Whether the first legal card of whoever is to move ends the tournament."""
    seat = state.to_move()
    return seat is not None and state.play(state.legal_moves()[0], seat)[0].finished


@pytest.mark.slow
def test_every_seats_phone_follows_the_rematch_into_its_own_seat_with_its_hand(
    open_browser: Callable[..., Any],
) -> None:
    # A table of both languages: the host's phone in Danish, the seats' in English and Danish.
    language = DANISH
    host = open_browser(PHONE, locale=language.locale)
    create_card_game(host, PLAYERS, tokens=1, language=language)
    game = Game.objects.get()
    links = [host.locator(f"#seat-link-{seat}").input_value() for seat in (1, 2, 3)]
    # The tournament up to its last card, before the seats' phones open: they follow that card
    # live. Following every move is test_card_game's; here it only cost each move rendered on
    # four phones (about half of this test's CPU time).
    play_first_legal_cards(game, until=last_card_is_next)
    phones = []
    for link, own in zip(links, (ENGLISH, DANISH, ENGLISH), strict=True):
        phone = open_browser(PHONE, locale=own.locale)
        phone.goto(link)
        expect(phone.locator("#hand")).to_be_visible()
        phones.append(phone)
    old_address = phones[0].url
    # The card that ends the tournament, with every phone open.
    play_first_legal_cards(game, until=lambda state: state.finished)
    for page in (host, *phones):  # each page follows it live
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v",
            arg=game.version,
            timeout=LIVE_TIMEOUT_MS * 3,
        )
    host.get_by_role("button", name=language.rematch).click()
    # The host's page and its address are the rematch's.
    expect(host).not_to_have_url(re.compile(re.escape(game.pk)))
    rematch = Game.objects.get(rematch_of=game)
    expect(host).to_have_url(re.compile(f"/g/{re.escape(rematch.pk)}/$"))
    expect(host.locator("h1")).to_be_visible()
    expect(host.locator("#hand")).to_have_count(0)  # the host's key shows no hand
    # Every phone is in the same player's seat there, with that seat's hand and only it.
    dealt = tournaments.load_tournament(rematch).deal.hands
    for seat, phone in enumerate(phones):
        expect(phone).to_have_url(re.compile(f"/g/{re.escape(rematch.pk)}/"), timeout=15_000)
        assert phone.url != old_address
        expect(phone.locator("#turn-signal")).to_have_attribute("data-my-seat", str(seat))
        expect(phone.locator("#hand [data-card]")).to_have_count(len(dealt[seat]))
        assert hand(phone) == {card.code for card in dealt[seat]}
    # No new link was needed: the table on the host's page has every seat taken (the seats
    # were taken as the page opened, and on a busy machine the last claim may come late).
    expect(host.locator("#card-area .card-seats li")).to_have_count(len(PLAYERS))
    expect(
        host.locator("#card-area .card-seats .tag", has_text=NOT_TAKEN[language.code])
    ).to_have_count(0, timeout=LIVE_TIMEOUT_MS * 3)
