"""What a person does on the pages, in a few words each, for the browser tests."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import claims, store
from games.kinds.cards import tournaments
from games.models import Game
from games.rules import cards

PHONE = {"width": 390, "height": 844}  # a phone held upright, as at the table


def wait_until(
    page: Any,
    condition: Callable[[], bool],
    seconds: float = 5.0,
    why: Callable[[], str] = lambda: "waited in vain",
) -> None:
    """Wait for something the server or the test sees (not the page: `expect` waits for
    that), letting Playwright hear the pages meanwhile; fail with `why()` if it never comes."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, why()
        page.wait_for_timeout(50)


def play_first_legal_cards(
    game: Game, until: Callable[[cards.Tournament], bool]
) -> cards.Tournament:
    """Whoever is to move plays their first legal card, as their phone would, until `until`
    holds of the tournament; answers the tournament as it then stands (`game` read with it)."""
    while True:
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if until(state):
            return state
        seat = state.to_move()
        assert seat is not None
        store.play(game.pk, seat, state.legal_moves()[0], version=game.version)


def pause_the_clock(page: Any) -> None:
    """Stop the page's clock (installed with `page.clock.install()`) about where it is now,
    to move it on by hand after (`page.clock.run_for`, `fast_forward`). Playwright stops it
    at a given time and refuses one already past: the time read from the page moves on while
    the command travels (more so on a busy machine), so it is taken a little ahead, and
    further ahead if even that has passed."""
    for ahead_ms in (100, 400, 1_000):
        try:
            page.clock.pause_at((page.evaluate("Date.now()") + ahead_ms) / 1_000)  # seconds
            return
        except PlaywrightError as error:
            if "to the past" not in error.message:
                raise
    raise AssertionError("the page's clock ran ahead of every time it was to stop at")


@dataclass(frozen=True)
class Language:
    """The words a page shows in one language, copied from the catalogue (for Danish,
    locale/da/LC_MESSAGES/django.po), so a test reads what a person reads."""

    code: str  # <html lang>
    locale: str  # the browser's own language, sent as Accept-Language
    new_game: str
    add_player: str
    starting_points: str
    start: str
    share_link: str
    follow: str
    rules_summary: str  # "{points}" stands for the starting points
    points_left: str
    next_to_roll: str  # "{name}" stands for a player
    turn: str
    total: str
    hunt: str  # "{total}" and "{margin}" stand for the numbers
    hit: str  # what a row says about a hunt of two dice that hit
    wins: str
    rematch: str
    rules: str
    card_game: str  # the card game's choice on the home page
    tokens: str  # its number of tokens each

    def __str__(self) -> str:  # the test id
        return self.code


ENGLISH = Language(
    code="en",
    locale="en-GB",
    new_game="New game",
    add_player="Add player",
    starting_points="Starting points",
    start="Start the game",
    share_link="Link to this game",
    follow="Follow on your phone",
    rules_summary="Thirty · {points} points each",
    points_left="Points left",
    next_to_roll="Next to roll: {name}",
    turn="{name}’s turn",
    total="Total of the dice kept",
    hunt="{total}: how many dice showed {margin}?",
    hit="{roller} rolled {total} and hunted {margin}s: 2 dice found → {victim} −2.",
    wins="{name} wins!",
    rematch="Rematch",
    rules="Rules",
    card_game="Thirty, the card game",
    tokens="Tokens each",
)

DANISH = Language(
    code="da",
    locale="da-DK",
    new_game="Nyt spil",
    add_player="Tilføj spiller",
    starting_points="Startpoint",
    start="Start spillet",
    share_link="Link til dette spil",
    follow="Følg med på telefonen",
    rules_summary="Tredive · {points} point til hver",
    points_left="Point tilbage",
    next_to_roll="Næste spiller: {name}",
    turn="{name} slår",
    total="Total for de beholdte terninger",
    hunt="{total}: hvor mange terninger viste {margin}?",
    hit="{roller} slog {total} og jagtede {margin}'ere: 2 terninger fundet → {victim} −2.",
    wins="{name} vinder!",
    rematch="Omkamp",
    rules="Regler",
    card_game="Tredive med kort",
    tokens="Poletter til hver",
)


def create_game(
    page: Any,
    players: list[str],
    *,
    start_points: int | None = None,
    language: Language = ENGLISH,
) -> str:
    """Fill the home page form as a host does and start the game; returns the share link."""
    page.goto("/")
    expect(page.locator("h1")).to_have_text(language.new_game)
    inputs = page.locator('#create-form input[name="player"]')
    while inputs.count() < len(players):
        count = inputs.count()
        page.get_by_role("button", name=language.add_player).click()
        expect(inputs).to_have_count(count + 1)
    for index, name in enumerate(players):
        inputs.nth(index).fill(name)
    if start_points is not None:
        # The label starts with these words; other labels may contain them further on.
        label = re.compile("^" + re.escape(language.starting_points))
        page.get_by_label(label).fill(str(start_points))
    return start(page, language)


def create_card_game(
    page: Any, players: list[str], *, tokens: int, language: Language = ENGLISH
) -> str:
    """Fill the home page form for the card game, every seat a person's, and start it;
    returns the share link. The host's page then shows each seat's link (#seat-link-N)."""
    page.goto("/")
    page.get_by_label(re.compile(re.escape(language.card_game))).check()
    inputs = page.locator('#create-form input[name="player"]')
    while inputs.count() < len(players):
        count = inputs.count()
        page.get_by_role("button", name=language.add_player).click()
        expect(inputs).to_have_count(count + 1)
    for index, name in enumerate(players):
        inputs.nth(index).fill(name)
    page.get_by_label(re.compile("^" + re.escape(language.tokens))).fill(str(tokens))
    return start(page, language)


def start(page: Any, language: Language = ENGLISH) -> str:
    page.get_by_role("button", name=language.start).click()
    expect(page).to_have_url(re.compile(r"/g/[^/]+/\?new=1$"))
    link: str = page.get_by_label(language.share_link).input_value()
    return link


def tap(page: Any, label: str) -> None:
    """Tap one of the turn form's big buttons."""
    page.locator("#turn-panel").get_by_role("button", name=label, exact=True).click()


def press(page: Any, key: str) -> None:
    """Press a key once the page's own script listens: a page shows its text before its
    deferred scripts have run, and a key pressed in between would go unheard."""
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press(key)


def footer(page: Any, seat: int) -> Any:
    """The points shown under a player's column (seats counted from 1)."""
    return page.locator("#sheet-foot td").nth(seat - 1)


def ask(page: Any) -> Any:
    """The question the turn form asks now."""
    return page.locator("#turn-panel .ask")


def card_seat_phones(
    open_browser: Callable[..., Any],
    game: Game,
    host_key: str,
    language: Language = ENGLISH,
    *,
    hooks: str = "",
) -> dict[int, Any]:
    """A phone of its own for each person's seat of a card game (seats from 0), each opened on
    its seat's link as the host hands it out, and showing its hand. `hooks` is a script each
    phone runs before every page (what it records)."""
    phones: dict[int, Any] = {}
    for link in claims.seat_link_keys(game, host_key):
        page = open_browser(PHONE, locale=language.locale)
        if hooks:
            page.add_init_script(hooks)
        page.goto(f"/g/{game.pk}/seat#{link.key}")
        expect(page.locator("#hand")).to_be_visible()
        phones[link.position] = page
    return phones


def play_a_card(phone: Any) -> None:
    """Tap the first card this phone can play; an Ace, Jack or Joker opens its choices, and
    the first of them is tapped."""
    card = phone.locator("#hand .playable").first
    opens_choices = card.evaluate("el => el.tagName === 'SUMMARY'")
    card.click()
    if opens_choices:
        phone.locator("#hand details[open] .choice-list button").first.click()
