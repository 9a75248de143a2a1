"""Every phone knows whose turn it is: the phone whose turn it is vibrates and, in the
background, shows it in the tab's title and icon; every other phone's screen reader hears
whose turn it is. One signal for every kind of game (templates/games/turn_signal.html). A turn
is told once the table has seen what came before it: a deal's end on its banner, and a
computer's moves at the table's pace; meanwhile the phone's hand waits too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import store
from games.kinds.cards import tournaments
from games.rules import cards
from tests.browser.helpers import (
    DANISH,
    ENGLISH,
    PHONE,
    Language,
    card_seat_phones,
    create_game,
    play_a_card,
    play_first_legal_cards,
    tap,
)
from tests.browser.test_computer_pace import WATCH_REVEALS

# What each phone records: the vibrations asked for, and a page that can be sent to the
# background (Playwright's pages are always in front).
PHONE_HOOKS = """
window.vibrations = [];
window.vibratedAt = [];
navigator.vibrate = (pattern) => {
  window.vibrations.push(pattern);
  window.vibratedAt.push(performance.now());
  return true;
};
window.inBackground = false;
Object.defineProperty(document, "visibilityState", {
  get: () => (window.inBackground ? "hidden" : "visible"),
});
"""
WORDS = {
    "en": {"your_turn": "● Your turn · ", "bens_turn": "Ben’s turn", "sound": "Sound on my turn"},
    "da": {
        "your_turn": "● Din tur · ",
        "bens_turn": "Bens tur",
        "sound": "Lyd, når det er min tur",
    },
}


def phone(open_browser: Callable[..., Any], language: Language, link: str) -> Any:
    page = open_browser(PHONE, locale=language.locale)
    page.add_init_script(PHONE_HOOKS)
    page.goto(link)
    expect(page.locator("#turn-signal")).to_have_count(1)
    return page


def test_the_phone_whose_turn_it_is_is_told_and_the_others_hear_whose_it_is(
    open_browser: Callable[..., Any],
) -> None:
    # A table of both languages: the host's and Cleo's phones in Danish, Ben's in English.
    words = WORDS[ENGLISH.code]
    host = open_browser(PHONE, locale=DANISH.locale)
    create_game(host, ["Anna", "Ben", "Cleo"], language=DANISH)
    ben = phone(open_browser, ENGLISH, host.locator("#seat-link-2").input_value())
    cleo = phone(open_browser, DANISH, host.locator("#seat-link-3").input_value())
    title = ben.title()
    # Opening the page is no news: nothing vibrates, and Anna is to roll.
    assert ben.evaluate("window.vibrations") == []
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "false")
    expect(ben.get_by_role("button", name=words["sound"])).to_be_visible()
    host_sound = WORDS[DANISH.code]["sound"]
    expect(host.get_by_role("button", name=host_sound)).to_have_count(0)  # no seat

    ben.evaluate("window.inBackground = true")
    tap(host, "20")  # Anna's turn, entered by the host: now it is Ben's
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "true")
    expect(ben).to_have_title(words["your_turn"] + title)
    assert ben.locator('link[rel="icon"]').get_attribute("href").endswith(".svg")
    assert "die-turn" in (ben.locator('link[rel="icon"]').get_attribute("href") or "")
    assert len(ben.evaluate("window.vibrations")) == 1
    # Cleo's phone only hears it, politely, and does not vibrate.
    expect(cleo.locator("#turn-announce")).to_have_text(WORDS[DANISH.code]["bens_turn"])
    assert cleo.locator("#turn-announce").get_attribute("aria-live") == "polite"
    assert cleo.evaluate("window.vibrations") == []

    # Back in front, the tab is plain again; Ben plays his turn and Cleo's phone is told.
    ben.evaluate(
        "window.inBackground = false; document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(ben).to_have_title(title)
    tap(ben, "20")
    expect(cleo.locator("html")).to_have_attribute("data-your-turn", "true")
    assert len(cleo.evaluate("window.vibrations")) == 1
    expect(ben.locator("html")).to_have_attribute("data-your-turn", "false")
    assert len(ben.evaluate("window.vibrations")) == 1


def test_a_seat_s_phone_follows_the_rematch_in_its_own_seat(
    open_browser: Callable[..., Any],
) -> None:
    # The host's phone in English, Ben's in Danish.
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_game(host, ["Anna", "Ben"], start_points=1)
    ben = phone(open_browser, DANISH, host.locator("#seat-link-2").input_value())
    old = ben.url
    tap(host, "33")
    tap(host, "1")  # Ben is out: the game is over
    host.get_by_role("button", name=ENGLISH.rematch).click()
    expect(ben).not_to_have_url(old, timeout=15_000)
    # In the rematch Ben's phone holds Ben's seat: no new link was handed out.
    expect(ben.locator("#turn-signal")).to_have_attribute("data-my-seat", "1")
    expect(ben.get_by_role("button", name=WORDS[DANISH.code]["sound"])).to_be_visible()
    expect(host.locator("#seat-links")).to_contain_text("Ben")


@pytest.mark.waits  # four seconds of a settle delay
def test_a_rematch_told_while_an_update_settles_is_followed_all_the_same(
    open_browser: Callable[..., Any],
) -> None:
    """htmx sets up what an update brought after its settle delay (20 ms), so a change the
    stream tells only by its version in that moment (as it tells a rematch) reaches no #live:
    the old one has gone and the new one is not listening yet. The page asks for it once the
    update has settled, not at its next poll, which a speaking stream holds back to one every
    30 s. Seen once on a busy machine, in the test above."""
    host = open_browser(PHONE, locale=ENGLISH.locale)
    create_game(host, ["Anna", "Ben"], start_points=1)
    ben = phone(open_browser, ENGLISH, host.locator("#seat-link-2").input_value())
    old = ben.url
    expect(ben.locator("body[data-stream=open]")).to_be_attached()
    tap(host, "33")
    # Ben's phone sets up its next update 4 s after showing it: that moment made long enough
    # for the rematch's version to fall into it on any machine.
    ben.evaluate("htmx.config.defaultSettleDelay = 4000")
    tap(host, "1")  # Ben is out: the game is over
    rematch = host.get_by_role("button", name=ENGLISH.rematch)
    expect(rematch).to_be_visible()
    over = host.locator("body").get_attribute("data-version")
    expect(ben.locator("body")).to_have_attribute("data-version", str(over))
    rematch.click()
    expect(ben).not_to_have_url(old, timeout=15_000)
    expect(ben.locator("#turn-signal")).to_have_attribute("data-my-seat", "1")


@pytest.mark.waits
def test_a_turn_after_the_computers_is_told_once_their_cards_have_been_shown(
    open_browser: Callable[..., Any], settings: Any
) -> None:
    settings.THIRTY_PACE_MS = 600
    players = [store.Player("Anna"), store.Player("Bo", True), store.Player("Cy", True)]
    game, host_key = tournaments.create_card_game("Pace", players, cards.CardRules())
    anna = card_seat_phones(open_browser, game, host_key, DANISH, hooks=PHONE_HOOKS)[0]
    expect(anna.locator("html")).to_have_attribute("data-your-turn", "true")
    anna.evaluate(WATCH_REVEALS)
    play_a_card(anna)
    # The computers answer at once, and it is Anna's turn again; while their cards come in one
    # by one, her hand waits and nothing tells her yet.
    anna.wait_for_function("() => window.reveals.length >= 1")
    pacing, hand_waits, told = anna.evaluate(
        "() => [document.body.classList.contains('pacing'),"
        " !document.querySelector('#hand button:enabled'), window.vibrations.length]"
    )
    assert not pacing or (hand_waits and told == 0)
    anna.wait_for_function("() => !document.body.classList.contains('pacing')", timeout=20_000)
    banner = anna.locator("#deal-banner")
    if banner.is_visible():  # a computer lost the deal: its end is shown first
        banner.get_by_role("button", name="OK").click()
    anna.wait_for_function("() => window.vibrations.length >= 1")
    expect(anna.locator("#hand button:disabled")).to_have_count(0)
    # Told as the last card comes in (in the same moment, give or take the observer's turn).
    last_card_shown = anna.evaluate("window.reveals.at(-1)[1]")
    assert anna.evaluate("window.vibratedAt[0]") >= last_card_shown - 50


@pytest.mark.slow
def test_the_next_deals_first_turn_is_told_once_the_deal_end_is_tapped_away(
    open_browser: Callable[..., Any],
) -> None:
    players = [store.Player("Anna"), store.Player("Ben")]
    game, host_key = tournaments.create_card_game("Cards", players, cards.CardRules(tokens=2))
    phones = card_seat_phones(open_browser, game, host_key, ENGLISH, hooks=PHONE_HOOKS)
    for phone in phones.values():
        phone.evaluate(WATCH_BANNER)
    # Each plays their first legal card, from the table, until the deal is over.
    state = play_first_legal_cards(game, until=lambda state: bool(state.deals))
    starter = state.to_move()
    assert starter is not None
    phone = phones[starter]
    banner = phone.locator("#deal-banner")
    expect(banner).to_be_visible()
    # The deal's end is on the screen: the next deal's first turn waits, its hand too.
    expect(phone.locator("#hand button:enabled")).to_have_count(0)
    banner.get_by_role("button", name="OK").click()
    expect(banner).to_be_hidden()
    phone.wait_for_function("() => window.vibratedAt.some(at => at >= window.tappedAt)")
    expect(phone.locator("#hand button:disabled")).to_have_count(0)
    expect(phone.locator("html")).to_have_attribute("data-your-turn", "true")
    # Nothing was told between the banner coming up and the tap that took it away.
    shown, tapped = phone.evaluate("[window.shownAt, window.tappedAt]")
    assert not [at for at in phone.evaluate("window.vibratedAt") if shown <= at < tapped]


# Notes when the deal banner comes up and when it is tapped away, in page time.
WATCH_BANNER = """() => {
  window.shownAt = null;
  window.tappedAt = null;
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-close-banner]")) window.tappedAt = performance.now();
  }, {capture: true});
  new MutationObserver(() => {
    const banner = document.getElementById("deal-banner");
    if (banner && !banner.hidden && window.shownAt === null) window.shownAt = performance.now();
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""
