"""The card game on real phones: the host sets up a table of two people and a computer, each
person claims a seat on their own phone and plays from their hand, and a watcher follows the
table, each phone in its own language (English or Danish). No phone ever shows a card of
another hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.kinds.cards import tournaments
from games.models import Game
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tests.browser.helpers import DANISH, ENGLISH, PHONE, Language

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

WORDS = {
    "en": {"preset": "Thirty, the card game", "computer": "Computer", "total": "Total"},
    "da": {"preset": "Tredive med kort", "computer": "Computer", "total": "Total"},
}


def create_card_game(page: Any, language: Language) -> None:
    words = WORDS[language.code]
    page.goto("/")
    page.get_by_label(re.compile(re.escape(words["preset"]))).check()
    inputs = page.locator('#create-form input[name="player"]')
    for index, name in enumerate(["Anna", "Ben", "Robot"]):
        inputs.nth(index).fill(name)
    page.locator('select[name="seat_kind"]').nth(2).select_option("computer")
    page.locator('#create-form input[name="player"]').nth(3).fill("")
    page.get_by_role("button", name=language.start).click()
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))


def hand_codes(page: Any) -> set[str]:
    return set(
        page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


@pytest.mark.slow
@pytest.mark.journey  # on PostgreSQL too: hidden hands, claimed seats, a computer seat
def test_two_phones_and_a_computer_play_while_a_watcher_follows(
    open_browser: Callable[..., Any],
) -> None:
    # A table of both languages: the host's and Ben's phones in English, Anna's and the
    # watcher's in Danish.
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_card_game(host, ENGLISH)
    game = Game.objects.get()
    assert game.kind == "cards"
    expect(host.locator("#hand")).to_have_count(0)  # the host's key shows no hand
    links = [host.locator(f"#seat-link-{seat}").input_value() for seat in (1, 2)]
    share = host.get_by_label(ENGLISH.share_link).input_value()
    phones = []
    for link, language in zip(links, (DANISH, ENGLISH), strict=True):
        phone = open_browser(PHONE, locale=language.locale)
        phone.goto(link)
        expect(phone.locator("#hand")).to_be_visible()
        phones.append(phone)
    watcher = open_browser(PHONE, locale=DANISH.locale)
    watcher.goto(share)
    expect(watcher.locator("#running-total")).to_be_visible()
    expect(watcher.locator("#hand")).to_have_count(0)

    for _ in range(6):
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.finished:
            break
        seat = state.to_move()
        assert seat in (0, 1)  # the computer has played already
        phone, other = phones[seat], phones[1 - seat]
        # Each phone shows its own hand, and only that.
        expect(phone.locator("#hand [data-card]")).to_have_count(len(state.deal.hands[seat]))
        assert hand_codes(phone) == {card.code for card in state.deal.hands[seat]}
        assert not hand_codes(phone) & {card.code for card in state.deal.hands[1 - seat]}
        before = game.version
        playable = phone.locator("#hand .playable").first
        playable.click(timeout=LIVE_TIMEOUT_MS * 3)
        choice = phone.locator("#hand .choice-list button").first
        if choice.is_visible():
            choice.click()
        for _wait in range(100):
            game.refresh_from_db()
            if game.version > before:
                break
            phone.wait_for_timeout(50)
        after = tournaments.load_tournament(game)
        # Pushed to every phone; a stream that has just reconnected catches up a moment later.
        catch_up = LIVE_TIMEOUT_MS * 3
        expect(watcher.locator("#running-total")).to_have_text(
            str(after.deal.total), timeout=catch_up
        )
        expect(other.locator("#running-total")).to_have_text(
            str(after.deal.total), timeout=catch_up
        )
        for viewer in (watcher, host):
            # Wait until this page shows the move (the host's page may be a moment behind).
            shown = "v => Number(document.body.dataset.version) >= v"
            viewer.wait_for_function(shown, arg=game.version, timeout=catch_up)
            assert not set(
                viewer.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            ) - {c.code for c in after.deal.pile}
