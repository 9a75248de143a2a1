"""The card game on the pages: create it, claim seats, play cards from each phone, and a
watcher who follows the table without ever seeing a hand."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client

from games import claims, store
from games.access import host_cookie_name
from games.kinds.cards import tournaments
from games.models import Game, Move, Seat, Turn
from tests.budget import dev_profile, postgresql_pass

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]+)"')


def create(
    client: Client, players: list[str], computers: list[bool] | None = None, **rules: Any
) -> Game:
    kinds = ["computer" if c else "person" for c in (computers or [False] * len(players))]
    form = {
        "player": players,
        "seat_kind": kinds,
        "preset": "cards",
        "tokens": str(rules.get("tokens", 5)),
        "create": "1",
    } | {key: "on" for key, on in rules.items() if key != "tokens" and on}
    response = client.post("/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.order_by("-created_at").first()  # type: ignore[return-value]


def claim_link_key(game: Game, host: Client, seat: int) -> str:
    """The key in seat `seat`'s link (seats from 0), as the host's page shows it."""
    links = claims.seat_link_keys(game, host.cookies[host_cookie_name(game)].value)
    return next(link.key for link in links if link.position == seat)


def seat_phone(game: Game, host: Client, seat: int) -> Client:
    """A phone that opened seat `seat`'s link (seats from 0) and claimed it."""
    key = claim_link_key(game, host, seat)
    phone = Client()
    assert phone.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 302
    return phone


def shown_cards(html: str) -> set[str]:
    return set(CARD.findall(html))


def test_a_card_game_is_created_from_the_home_page_with_its_variants() -> None:
    host = Client()
    game = create(host, ["Anna", "Ben", "Cleo"], tokens=3, queens=True)
    assert game.kind == "cards" and game.rules_data == {
        "preset": "cards",
        "tokens": 3,
        "fewer_jacks": False,
        "queens": True,
        "single_stock": False,
    }
    assert len(game.seed_sha256) == 64
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "Total" in page and "3 tokens" in page
    assert shown_cards(page) == set()  # the host's key shows nobody's hand


def test_each_phone_sees_only_its_own_hand_and_plays_on_its_turn() -> None:
    host = Client()
    game = create(host, ["Anna", "Ben"])
    anna, ben = seat_phone(game, host, 0), seat_phone(game, host, 1)
    state = tournaments.load_tournament(game)
    hands = [{c.code for c in hand} for hand in state.deal.hands]
    anna_page = anna.get(f"/g/{game.pk}/").content.decode()
    assert shown_cards(anna_page) == hands[0]
    assert shown_cards(ben.get(f"/g/{game.pk}/").content.decode()) == hands[1]
    assert shown_cards(Client().get(f"/g/{game.pk}/").content.decode()) == set()
    # A number card, which stays on the pile: a Joker, or a Jack played as 0, may clear it.
    legal = state.legal_moves()
    move = next((move for move in legal if move.card[0] not in "JX"), legal[0])
    value = move.card + (f":{move.value}" if move.value is not None else "")
    if move.card.startswith("X"):
        value = f"{move.card}:{move.colour or ''}"
    assert ben.post(f"/g/{game.pk}/move", {"move": value}).status_code == 422  # not his turn
    game.refresh_from_db()
    assert anna.post(f"/g/{game.pk}/move", {"move": value, "v": game.version}).status_code == 302
    assert Move.objects.filter(game=game).count() == 1
    watcher = Client().get(f"/g/{game.pk}/").content.decode()
    assert shown_cards(watcher) == {move.card}  # the card on the pile, face up


def test_a_seat_link_is_claimed_once_and_the_host_can_reissue_it() -> None:
    host = Client()
    game = create(host, ["Anna", "Ben"])
    key = claim_link_key(game, host, 0)
    first, second = Client(), Client()
    assert first.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 302
    assert second.post(f"/g/{game.pk}/seat", {"key": key}).status_code == 403
    assert Seat.objects.get(game=game, position=0).joined_at is not None
    version = Game.objects.get(pk=game.pk).version
    assert host.post(f"/g/{game.pk}/seats/1/reissue").status_code == 302
    assert Game.objects.get(pk=game.pk).version == version + 1  # every phone sees it
    # The claimed phone's key stops working; the new link can be claimed.
    assert 'id="hand"' not in first.get(f"/g/{game.pk}/").content.decode()
    new_key = claim_link_key(game, host, 0)
    assert new_key != key
    assert second.post(f"/g/{game.pk}/seat", {"key": new_key}).status_code == 302


def test_one_person_plays_a_whole_tournament_against_computers() -> None:
    host = Client()
    game = create(host, ["Anna", "Robot", "Droid"], [False, True, True], tokens=1)
    anna = seat_phone(game, host, 0)
    for _ in range(500):
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.finished:
            break
        assert state.to_move() == 0  # the computers have played already
        move = state.legal_moves()[0]
        value = f"{move.card}:{move.value}" if move.value is not None else move.card
        if move.card.startswith("X"):
            value = f"{move.card}:{move.colour or ''}"
        assert (
            anna.post(f"/g/{game.pk}/move", {"move": value, "v": game.version}).status_code == 302
        )
    assert state.finished
    page = Client().get(f"/g/{game.pk}/").content.decode()
    seed = state.view(None).seed
    assert "wins the tournament" in page and seed is not None and seed in page
    rows = Turn.objects.filter(game=game).count()
    assert rows == len(state.deals) >= 2  # one sheet row per deal


def test_any_process_resumes_a_card_game_from_its_kept_state() -> None:
    from games import cache
    from games.models import Secret

    host = Client()
    game = create(host, ["Anna", "Robot"], [False, True])
    for _ in range(5):
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        store.play(game.pk, 0, state.legal_moves()[0], version=game.version)
    game.refresh_from_db()
    written = tournaments.load_tournament(game)
    cache.clear()  # another process: nothing in its memory
    resumed = tournaments.load_tournament(game)
    assert resumed.deal == written.deal and resumed.tokens == written.tokens
    assert Secret.objects.get(game=game).state_version == game.version
    # A game kept before states were kept is replayed from its seed and moves instead.
    Secret.objects.filter(game=game).update(state=None)
    cache.clear()
    assert tournaments.load_tournament(game).deal == written.deal


def test_a_card_table_reads_its_seats_once_for_every_part_that_names_them() -> None:
    """The table's seats, its turn signal and the sheet all name the seats: a worker that
    has not drawn this version reads them in one statement for a watcher's page and update,
    as the dice sheet does, and the same late in the tournament as early."""
    from games import cache
    from tests.statements import count_statements

    game = create(Client(), ["Anna", "Robot", "Droid"], [False, True, True], tokens=5)
    watcher = Client()
    for _ in range(2):
        for url in (f"/g/{game.pk}/", f"/g/{game.pk}/live?v=0"):
            cache.clear()
            with count_statements() as seen:
                assert watcher.get(url).status_code == 200
            seat_reads = [sql for sql in seen if 'FROM "games_seat"' in sql]
            assert len(seat_reads) == 1, (url, seat_reads)
        for _ in range(6):  # later in the tournament
            game.refresh_from_db()
            state = tournaments.load_tournament(game)
            store.play(game.pk, 0, state.legal_moves()[0], version=game.version)


PACED = re.compile(r'data-pace="move-(\d+)"')


def paced_moves(phone: Client, game: Game) -> set[int]:
    """The numbers of the computers' moves the table page marks for pacing."""
    return {int(number) for number in PACED.findall(phone.get(f"/g/{game.pk}/").content.decode())}


def test_a_computers_move_keeps_its_number_on_every_phone_however_long_the_tournament() -> None:
    """Each phone shows a computer's move once, at a table's pace, by the number the page
    gives it: the number must be new for each new move, also once the kept state holds only
    the latest events (`cards.SNAPSHOT_LOG`), and the same in a process that resumed the
    tournament from its kept state as in the one that played it."""
    from games import cache
    from games.rules import cards

    game = create(Client(), ["Anna", "Robot", "Droid"], [False, True, True], tokens=5)
    watcher = Client()
    seen: set[int] = set()
    for _ in range(60):
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.finished:
            break
        store.play(game.pk, 0, state.legal_moves()[0], version=game.version)
        shown = paced_moves(watcher, game)
        newest = max(shown)
        # The computers' answer is numbered after every move a phone was shown before.
        assert newest > max(seen, default=-1), (newest, sorted(seen))
        seen |= shown
        cache.clear()  # another process, which resumes from the kept state
        assert paced_moves(watcher, game) == shown
    assert max(seen) > cards.SNAPSHOT_LOG + 10, "the tournament ended before its log was cut"


@pytest.mark.slow
def test_a_table_of_four_with_a_computer_plays_a_tournament_to_the_end() -> None:
    # Five tokens each (the usual game) on SQLite. The PostgreSQL pass and `make test-fast`
    # play two: each deal sends the database the same statements and locks, and two tokens
    # still take several deals and end the tournament (tests/budget.py).
    host = Client()
    tokens = 2 if postgresql_pass() or dev_profile() else 5
    players = ["Anna", "Ben", "Cleo", "Robot"]
    game = create(host, players, [False, False, False, True], tokens=tokens)
    phones = [seat_phone(game, host, seat) for seat in range(3)]
    watcher = Client()
    for number in range(3000):
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.finished:
            break
        seat = state.to_move()
        assert seat is not None and seat < 3  # the computer never waits for anyone
        phone = phones[seat]
        if number % 10 == 0:  # the whole leak test is in test_card_api.py: a look now and then
            page = phone.get(f"/g/{game.pk}/").content.decode()
            hands = enumerate(state.deal.hands)
            others = {c.code for s, hand in hands if s != seat for c in hand}
            assert not shown_cards(page) & others
        move = state.legal_moves()[0]
        value = f"{move.card}:{move.value}" if move.value is not None else move.card
        if move.card.startswith("X"):
            value = f"{move.card}:{move.colour or ''}"
        response = phone.post(f"/g/{game.pk}/move", {"move": value, "v": game.version})
        assert response.status_code == 302
    assert state.finished and sum(t > 0 for t in state.tokens) <= 1
    assert len(state.deals) >= tokens  # a seat gives up at most one token a deal
    page = watcher.get(f"/g/{game.pk}/").content.decode()
    assert "wins the tournament" in page or "share the win" in page
    assert Turn.objects.filter(game=game).count() == len(state.deals)
    csv = watcher.get(f"/g/{game.pk}/sheet.csv").content.decode().splitlines()
    assert csv[0] == "Deal,Anna,Ben,Cleo,Robot" and len(csv) == len(state.deals) + 2
    assert csv[-1].split(",")[1:] == [str(t) for t in state.tokens]


def test_the_deal_banner_names_the_total_the_loser_had_no_card_for() -> None:
    from games.kinds.cards.table import build_table
    from games.rules import cards

    game, _ = tournaments.create_card_game(
        "Cards", [store.Player("Anna"), store.Player("Ben")], cards.CardRules(tokens=2)
    )
    while True:  # each player plays their first legal card until the first deal is over
        game.refresh_from_db()
        state = tournaments.load_tournament(game)
        if state.deals:
            break
        store.play(game.pk, state.to_move() or 0, state.legal_moves()[0], version=game.version)
    view = state.view(None)
    end = next(i for i, event in enumerate(view.log) if isinstance(event, cards.DealRecord))
    record = view.log[end]
    assert isinstance(record, cards.DealRecord)
    loser = ["Anna", "Ben"][record.losers[0]]
    played = [event.total for event in view.log[:end] if isinstance(event, cards.Played)]
    page = Client().get(f"/g/{game.pk}/").content.decode()
    banner = page.split('id="deal-banner"')[1].split("</p>")[0]
    if record.reason == cards.NO_LEGAL_PLAY:
        total = played[-1] if played else 0
        assert f"Deal 1 is over: {loser} had no card for {total} and gives up a token." in banner
    else:
        assert "Deal 1 is over: the stock ran out, and Anna and Ben each give up a token." in banner
    # The record keeps the total, so a deal whose cards the kept log no longer holds is told
    # with it all the same; a record stored before records kept it, and whose cards are gone,
    # is told without a total, never a wrong one.
    trimmed = replace(view, log=view.log[end:])
    over = build_table(trimmed, ["Anna", "Ben"], [False, False], [True, True]).deals[0].over
    old = replace(trimmed, deals=tuple(replace(d, total=None) for d in trimmed.deals))
    old_over = build_table(old, ["Anna", "Ben"], [False, False], [True, True]).deals[0].over
    if record.reason == cards.NO_LEGAL_PLAY:
        total = played[-1] if played else 0
        assert over == f"Deal 1 is over: {loser} had no card for {total} and gives up a token."
        assert old_over == f"Deal 1 is over: {loser} had no card that fits and gives up a token."
