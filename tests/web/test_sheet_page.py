"""The game page, the turn form, undo, rematch and the live refresh."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import cache, store
from games.access import host_cookie_name, seat_cookie_name
from games.kinds.dice import moves as dice_moves
from games.kinds.dice.explain import explain_row
from games.models import Game, Turn
from games.rules.dice import Turn as RuleTurn
from games.store.seats import reissue_seat
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def test_it_shows_the_sheet_with_cells_footer_and_next_roller(watcher: Client, game: Game) -> None:
    play(game, RuleTurn(33, 2))
    html = watcher.get(f"/g/{game.pk}/").content.decode()
    assert 'id="turn-1"' in html and "Points left" in html
    assert '<th scope="col" class="seat next" title="Ben"><span>Ben</span></th>' in html
    assert ">28</td>" in html
    assert "turn-panel" not in html  # a watcher gets no turn form


def test_the_host_enters_a_turn_in_two_steps(host: Client, game: Game) -> None:
    step = host.post(f"/g/{game.pk}/turn", {"total": "33", "v": game.version})
    assert step.status_code == 200 and "how many dice showed 3" in step.content.decode()
    assert Turn.objects.count() == 0
    done = host.post(f"/g/{game.pk}/turn", {"total": "33", "hunt": "2", "v": game.version})
    assert done.status_code == 302
    assert Turn.objects.get().effect == "hit"


def test_the_turn_form_offers_only_allowed_hunt_counts(client: Client, db: None) -> None:
    g = make_game(rules={"hunt_dice": "margin"})
    client.cookies[host_cookie_name(g)] = g.host_key  # type: ignore[attr-defined]
    html = client.post(f"/g/{g.pk}/turn", {"total": "32"}).content.decode()
    assert 'name="hunt" value="2"' in html and 'name="hunt" value="3"' not in html


def test_a_stale_form_is_refused_with_a_sentence(host: Client, game: Game) -> None:
    version = game.version
    host.post(f"/g/{game.pk}/turn", {"total": "20", "v": version})
    again = host.post(f"/g/{game.pk}/turn", {"total": "20", "v": version})
    assert again.status_code == 422 and "changed the game first" in again.content.decode()
    assert Turn.objects.count() == 1


def test_a_watcher_cannot_enter_or_undo_turns(watcher: Client, game: Game) -> None:
    assert watcher.post(f"/g/{game.pk}/turn", {"total": "20"}).status_code == 403
    play(game, RuleTurn(20))
    assert watcher.post(f"/g/{game.pk}/undo").status_code == 403
    assert Turn.objects.count() == 1


def test_undo_asks_first_then_removes_the_last_turn(host: Client, game: Game) -> None:
    play(game, RuleTurn(20), RuleTurn(33, 1))
    confirm = host.get(f"/g/{game.pk}/undo")
    # It names the turn it takes back: Ben's 33, which took one point from Cleo.
    assert "Undo Ben’s 33 (Cleo −1)?" in confirm.content.decode()
    host.post(f"/g/{game.pk}/undo")
    assert list(Turn.objects.values_list("number", flat=True)) == [1]


def test_live_refresh_is_empty_and_costs_one_query_when_nothing_changed(
    watcher: Client, game: Game
) -> None:
    with count_statements() as statements:
        response = watcher.get(f"/g/{game.pk}/live?v={game.version}&n=0&t=")
    assert response.status_code == 204 and response.content == b""
    assert len(statements) == 1 and statements[0].startswith("SELECT version FROM games_game")


@pytest.mark.parametrize(
    "query",
    [
        "v={v}&n=0&t=",  # as the page asks: answered before the page's middleware
        "n=0&t=&v={v}",  # the marks in another order
        "v={escaped}&n=0&t=",  # the version's digits written as escapes: the view reads them
    ],
)
def test_an_unchanged_game_is_an_empty_answer_however_the_poll_is_written(
    watcher: Client, game: Game, query: str
) -> None:
    escaped = "".join(f"%{ord(digit):02X}" for digit in str(game.version))
    url = f"/g/{game.pk}/live?" + query.format(v=game.version, escaped=escaped)
    response = watcher.get(url)
    assert response.status_code == 204 and response.content == b""


def test_a_poll_of_a_changed_deleted_or_unknown_game(watcher: Client, game: Game) -> None:
    seen = game.version
    play(game, RuleTurn(25))
    with count_statements() as statements:
        changed = watcher.get(f"/g/{game.pk}/live?v={seen}&n=0&t=")
    assert changed.status_code == 200 and "25" in changed.content.decode()
    # The middleware read the version; the view does not read it again.
    assert sum(sql.startswith("SELECT version FROM games_game") for sql in statements) == 1
    store.delete_game(game.pk)
    game.refresh_from_db()
    assert watcher.get(f"/g/{game.pk}/live?v={game.version}&n=1&t=").status_code == 404
    assert watcher.get("/g/NoSuchGame/live?v=1&n=0&t=").status_code == 404


def test_a_watchers_update_after_a_turn_costs_a_few_statements_however_long_the_game() -> None:
    """What every following phone is sent after a turn (in its stream's event, or by `/live`)
    is read in a fixed handful of statements, the same at turn 120 as at turn 3: the version;
    the game with its rematch; the seats; the new row with the phone's last one, to see that
    it still stands; the position; the last rolls; the turns' times for the time to go."""

    def statements_after(turns: int) -> list[str]:
        game = make_game(rules={"start_points": 99})
        play(game, *[RuleTurn(20)] * turns)
        last = Turn.objects.filter(game=game).order_by("-number").values_list("pk", flat=True)
        seen, shown = game.version, last.first()
        play(game, RuleTurn(20))
        cache.clear()  # as in a process that has not drawn this version yet
        with count_statements() as statements:
            update = Client().get(f"/g/{game.pk}/live?v={seen}&n={turns}&t={shown}")
        assert update.status_code == 200 and f'id="turn-{turns + 1}"' in update.content.decode()
        return statements

    early, late = statements_after(3), statements_after(120)
    assert len(early) == len(late) <= 7, late


@pytest.mark.usefixtures("template_records")  # reads the answer's templates or context
@pytest.mark.parametrize("language", ["en", "da"])
def test_the_page_after_a_turn_draws_only_the_new_row(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row never changes once written: a worker that drew the page before a turn explains
    and draws just the new row after it, in the reader's language, and sends the same page as
    a worker that remembers nothing. A row an undo removed is not shown again in place of the
    turn played after it."""
    explained: list[int] = []

    def counted(row: Any, *args: Any) -> str:
        explained.append(row.turn.total)
        return explain_row(row, *args)

    monkeypatch.setattr("games.kinds.dice.sheet.explain_row", counted)
    game = make_game(rules={"start_points": 99}, players=["Anna", "Ben", "Cleo"])
    play(game, *[RuleTurn(20), RuleTurn(33, 1), RuleTurn(36, 0)] * 10)
    phone = Client(headers={"accept-language": language})
    cache.clear()
    first = phone.get(f"/g/{game.pk}/")
    assert rows_drawn(first) == 30 and len(explained) == 30
    play(game, RuleTurn(34, 2))
    explained.clear()
    after = phone.get(f"/g/{game.pk}/")
    assert rows_drawn(after) == 1 and explained == [34]
    cache.clear()
    anew = phone.get(f"/g/{game.pk}/")
    assert rows_drawn(anew) == 31
    html = after.content.decode()
    assert html.count('<tr id="turn-') == 31
    assert strip_tokens(html) == strip_tokens(anew.content.decode())
    said = "Anna rolled 34" if language == "en" else "Anna slog 34"
    assert said in html
    store.undo(game.pk)
    play(Game.objects.get(pk=game.pk), RuleTurn(12))
    html = phone.get(f"/g/{game.pk}/").content.decode()
    assert html.count('<tr id="turn-') == 31
    assert said not in html
    assert ("Anna rolled 12" if language == "en" else "Anna slog 12") in html


def rows_drawn(response: Any) -> int:
    return sum(template.name == "games/sheet_row.html" for template in response.templates)


def strip_tokens(html: str) -> str:
    """A page without its CSRF tokens (64 letters and digits), which differ on every answer."""
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "", html)


def test_live_refresh_sends_only_the_new_rows(watcher: Client, game: Game) -> None:
    play(game, *[RuleTurn(20)] * 5)
    last = Turn.objects.get(number=5)
    version = Game.objects.get(pk=game.pk).version
    play(game, RuleTurn(33, 1))
    html = watcher.get(f"/g/{game.pk}/live?v={version}&n=5&t={last.pk}").content.decode()
    assert 'id="turn-6"' in html and 'id="turn-5"' not in html
    assert 'hx-swap-oob="beforeend:#sheet-rows"' in html


def test_live_refresh_replaces_the_rows_after_an_undo(watcher: Client, game: Game) -> None:
    play(game, RuleTurn(20), RuleTurn(20))
    last = Turn.objects.get(number=2)
    version = Game.objects.get(pk=game.pk).version
    Turn.objects.filter(number=2).delete()
    Game.objects.filter(pk=game.pk).update(version=version + 1)
    html = watcher.get(f"/g/{game.pk}/live?v={version}&n=2&t={last.pk}").content.decode()
    assert '<tbody id="sheet-rows" hx-swap-oob="true">' in html and 'id="turn-2"' not in html


def test_live_refresh_notices_an_undone_row_replaced_by_a_new_one(
    watcher: Client, game: Game
) -> None:
    play(game, RuleTurn(20), RuleTurn(20))
    seen = Turn.objects.get(number=2)
    version = Game.objects.get(pk=game.pk).version
    store.undo(game.pk)
    dice_moves.record_turn(game.pk, RuleTurn(33, 2))
    url = f"/g/{game.pk}/live?v={version}&n=2&t={seen.pk}"
    html = watcher.get(url).content.decode()
    assert '<tbody id="sheet-rows" hx-swap-oob="true">' in html
    assert "hunted 3s: 2 dice found" in html


def _queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code in (200, 204)
    return len(queries)


def test_page_query_counts_do_not_grow_with_the_game(host: Client, game: Game) -> None:
    play(game, *[RuleTurn(20)] * 3)
    short = _queries_for(host, f"/g/{game.pk}/")
    short_live = _queries_for(host, f"/g/{game.pk}/live?v=1&n=1&t={Turn.objects.get(number=1).pk}")
    play(game, *[RuleTurn(25)] * 60)
    assert _queries_for(host, f"/g/{game.pk}/") == short
    assert (
        _queries_for(host, f"/g/{game.pk}/live?v=1&n=1&t={Turn.objects.get(number=1).pk}")
        == short_live
    )
    cache.clear()  # the history remembers its lines: count them added up
    home_short = _queries_for(host, "/")
    [make_game() for _ in range(5)]
    cache.clear()
    assert _queries_for(host, "/") == home_short


def test_a_watchers_page_once_rendered_costs_one_query_and_a_seat_still_gets_its_own(
    client: Client, game: Game
) -> None:
    play(game, *[RuleTurn(20)] * 3)
    url = f"/g/{game.pk}/"
    first = client.get(url).content.decode()
    with count_statements() as statements:
        again = client.get(url)
    assert again.status_code == 200
    assert len(statements) == 1 and statements[0].startswith("SELECT version FROM games_game")
    assert again.content.decode().count('<tr id="turn-') == first.count('<tr id="turn-') == 3
    # The next turn is a new version: its page is rendered afresh, with the new row.
    play(game, RuleTurn(25))
    assert client.get(url).content.decode().count('<tr id="turn-') == 4
    # A phone that holds a seat's key never gets the watchers' copy.
    seat = Client()
    seat.cookies[seat_cookie_name(game)] = reissue_seat(game, 0, game.host_key)  # type: ignore[attr-defined]
    assert 'id="turn-sound"' in seat.get(url).content.decode()
    assert 'id="turn-sound"' not in client.get(url).content.decode()
    store.delete_game(game.pk)
    assert client.get(url).status_code == 404


def test_player_names_stay_text(watcher: Client, db: None) -> None:
    g = make_game(players=["<script>alert(1)</script>", "Ben"])
    html = watcher.get(f"/g/{g.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_home_page_lists_games_newest_first_with_status_and_winner(
    client: Client, db: None
) -> None:
    old = make_game(name="Old one", players=["Anna", "Ben"], rules={"start_points": 1})
    play(old, RuleTurn(31, 1))
    play(make_game(name="New one"), RuleTurn(20))
    make_game(name="Never played")
    html = client.get("/").content.decode()
    assert html.index("New one") < html.index("Old one")
    assert "Won by Anna" in html and "In play" in html
    assert "Never played" not in html  # no turns: not a game played


def test_your_games_are_the_ones_this_browser_created_or_followed(client: Client, db: None) -> None:
    followed = make_game(name="Followed here")
    make_game(name="Someone else's")
    client.get(f"/g/{followed.pk}/")
    created = client.post(
        "/", {"player": ["Anna", "Ben"], "preset": "thirty", "set_aside": "any", "create": "1"}
    )
    assert created.status_code == 302
    html = client.get("/").content.decode()
    mine = html.split("Your games")[1].split("History")[0]
    assert ": Anna and Ben" in mine and "Followed here" in mine and "Not started" in mine
    assert "Someone else" not in html
    assert mine.index(": Anna and Ben") < mine.index("Followed here")  # newest first


def test_the_create_form_adds_reorders_and_creates(client: Client, db: None) -> None:
    form: dict[str, Any] = {"player": ["Anna", "Ben"], "preset": "thirty", "set_aside": "any"}
    added = client.post("/", form | {"add": "1"}).content.decode()
    assert added.count('name="player"') == 3
    moved = client.post("/", form | {"up": "1"}).content.decode()
    assert moved.index('value="Ben"') < moved.index('value="Anna"')
    created = client.post(
        "/",
        form
        | {
            "create": "1",
            "start_points": "20",
            "target": "31",
            "on_failure": "shortfall",
            "hunt_margin": "on",
        },
    )
    assert created.status_code == 302
    game = Game.objects.get()
    assert game.rules_data["start_points"] == 20 and game.rules_data["hunt_dice"] == "margin"
    assert game.rules_data["on_failure"] == "shortfall" and game.rules_data["target"] == 31
    follow = client.get(created["Location"]).content.decode()
    # Until someone joins, sharing comes first; the host link is tucked away with a warning.
    assert follow.index("Follow on your phone") < follow.index('id="sheet"')
    assert "Host link" in follow and "Keep it private" in follow and "turn-panel" in follow


def test_the_create_form_ignores_rows_left_empty(client: Client, db: None) -> None:
    form = {"player": ["Anna", "", "Ben", ""], "preset": "thirty", "set_aside": "any"}
    form["create"] = "1"
    assert client.post("/", form).status_code == 302
    assert list(Game.objects.get().seats.values_list("name", flat=True)) == ["Anna", "Ben"]
    spaces = client.post("/", form | {"player": ["Anna", "   ", "Ben"]})
    assert spaces.status_code == 200 and "cannot be blank" in spaces.content.decode()


def test_the_create_form_refuses_bad_players_with_a_sentence(client: Client, db: None) -> None:
    response = client.post(
        "/", {"player": ["Anna", "anna"], "preset": "thirty", "set_aside": "any", "create": "1"}
    )
    assert response.status_code == 200 and "different name" in response.content.decode()
    assert Game.objects.count() == 0


def test_rematch_starts_a_new_game_with_the_same_seats_and_rules(client: Client, db: None) -> None:
    g = make_game(players=["Anna", "Ben", "Cleo"], rules={"start_points": 12, "on_failure": "one"})
    assert client.post(f"/g/{g.pk}/rematch").status_code == 403  # only the host starts it
    assert Game.objects.count() == 1
    client.cookies[host_cookie_name(g)] = g.host_key  # type: ignore[attr-defined]
    response = client.post(f"/g/{g.pk}/rematch")
    new = Game.objects.exclude(pk=g.pk).get()
    assert response["Location"] == f"/g/{new.pk}/"
    assert list(new.seats.values_list("name", flat=True)) == ["Anna", "Ben", "Cleo"]
    assert new.rules_data == g.rules_data and new.rematch_of == g


def test_the_host_link_makes_another_browser_the_host(client: Client, game: Game) -> None:
    assert client.post(f"/g/{game.pk}/host", {"key": "wrong"}).status_code == 403
    response = client.post(f"/g/{game.pk}/host", {"key": game.host_key})  # type: ignore[attr-defined]
    assert response.status_code == 302
    assert "turn-panel" in client.get(f"/g/{game.pk}/").content.decode()


def test_the_qr_code_is_an_svg_of_the_share_link(client: Client, game: Game) -> None:
    response = client.get(f"/g/{game.pk}/qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert (
        response.content.startswith(b"<svg")
        and b'xmlns="http://www.w3.org/2000/svg"' in response.content
    )


def test_healthz(client: Client) -> None:
    assert client.get("/healthz").content == b"ok"


def test_a_cached_watcher_page_carries_each_phones_own_csrf_token(db: None) -> None:
    game = make_game(players=["Anna", "Ben"], rules={"start_points": 6})
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    pages = [c.get(f"/g/{game.pk}/").content.decode() for c in (first, second)]
    assert all("placeholder" not in page for page in pages)
    tokens = [page.split('"X-CSRFToken": "')[1].split('"')[0] for page in pages]
    assert tokens[0] != tokens[1]
    play(game, RuleTurn(36, 6))  # Anna knocks Ben out: the game is over
    finished = Game.objects.get(pk=game.pk)
    assert "If the host starts a rematch" in first.get(f"/g/{finished.pk}/").content.decode()
    page = second.get(f"/g/{finished.pk}/").content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    # The token is this phone's own (not refused as forged); a watcher may not start a rematch.
    assert (
        second.post(f"/g/{finished.pk}/rematch", {"csrfmiddlewaretoken": token}).status_code == 403
    )


def test_a_rematch_takes_every_following_phone_along(db: None) -> None:
    game = play(make_game(players=["Anna", "Ben"], rules={"start_points": 6}), RuleTurn(36, 6))
    host, phone = Client(), Client()
    host.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    seen = game.version
    assert phone.get(f"/g/{game.pk}/live?v={seen}&n=0&t=").status_code == 204
    response = host.post(f"/g/{game.pk}/rematch", headers={"HX-Request": "true"})
    new = Game.objects.get(rematch_of=game)
    assert response["HX-Redirect"] == f"/g/{new.pk}/"
    moved = phone.get(f"/g/{game.pk}/live?v={seen}&n=0&t=")
    assert moved["HX-Redirect"] == f"/g/{new.pk}/"
    # A second tap goes to the same rematch instead of starting another.
    host.post(f"/g/{game.pk}/rematch")
    assert Game.objects.filter(rematch_of=game).count() == 1
