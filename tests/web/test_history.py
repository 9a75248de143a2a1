"""The history: search and filters, pages, its cost with thousands of games, and the host
renaming, deleting and restoring a game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import cache, store
from games.access import host_cookie_name
from games.models import Game, Seat, Turn
from games.names import name_key
from games.rules import dice as dice_rules
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def names_listed(client: Client, query: str = "") -> list[str]:
    html = client.get(f"/history/?{query}").content.decode()
    return [part.split("</span>")[0] for part in html.split('<span class="game-name">')[1:]]


@pytest.fixture
def games() -> dict[str, Game]:
    friday = play(make_game(name="Friday", players=["Anna", "Ben"]), RuleTurn(20))
    won = make_game(name="Won", players=["anna ", "Cleo"], rules={"start_points": 1})
    won = play(won, RuleTurn(33, 1))
    thirty_s = play(
        make_game(name="Sunday", players=["Dan", "Eva"], rules={"preset": "30s"}), RuleTurn(30)
    )
    make_game(name="Never played", players=["Anna", "Ben"])
    Game.objects.filter(pk=thirty_s.pk).update(created_at=timezone.now() - timedelta(days=40))
    return {"friday": friday, "won": won, "30s": thirty_s}


def test_it_lists_only_games_played_newest_first(client: Client, games: dict[str, Game]) -> None:
    assert names_listed(client) == ["Won", "Friday", "Sunday"]


def test_it_finds_a_player_ignoring_case_and_spaces(client: Client, games: dict[str, Game]) -> None:
    assert names_listed(client, "player=+ANNA+") == ["Won", "Friday"]
    assert names_listed(client, "player=cle") == ["Won"]


def test_it_filters_by_kind_status_and_date(client: Client, games: dict[str, Game]) -> None:
    assert names_listed(client, "kind=30s") == ["Sunday"]
    assert names_listed(client, "kind=thirty&status=finished") == ["Won"]
    assert names_listed(client, "status=playing") == ["Friday", "Sunday"]
    today = timezone.localdate().isoformat()
    assert names_listed(client, f"since={today}") == ["Won", "Friday"]
    old = (timezone.localdate() - timedelta(days=30)).isoformat()
    assert names_listed(client, f"until={old}") == ["Sunday"]
    assert names_listed(client, "kind=poker") == ["Won", "Friday", "Sunday"]  # ignored


def test_the_store_keeps_whether_a_game_is_over(games: dict[str, Game]) -> None:
    won = games["won"]
    assert won.finished and won.turn_count == 1
    store.undo(won.pk)
    won.refresh_from_db()
    assert not won.finished and won.turn_count == 0


def _many_games(count: int) -> None:
    """`count` played games with two seats and one turn each, built in bulk."""
    now = timezone.now()
    ruleset = dice_rules.RuleSet().to_dict()
    new = Game.objects.bulk_create(
        Game(
            id=f"bulk{number:06d}",
            name=f"Game {number}",
            rules_data=ruleset,
            host_key_hash="x",
            turn_count=1,
            finished=number % 3 == 0,
        )
        for number in range(count)
    )
    Game.objects.filter(pk__in=[game.pk for game in new]).update(created_at=now)
    Seat.objects.bulk_create(
        Seat(game=game, position=position, name=name, name_key=name_key(name))
        for game in new
        for position, name in enumerate(["Anna", f"Ben {game.pk}"])
    )
    Turn.objects.bulk_create(
        Turn(game=game, number=1, roller=0, effect="missed", data={"total": 20}) for game in new
    )
    if connection.vendor == "postgresql":
        # As autovacuum does on a live database after a big change: without statistics the
        # planner takes thousands of freshly written rows for one, and its plan for a
        # player's games then visits every seat once per game.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game, games_seat, games_turn")


@pytest.mark.slow
def test_history_and_player_pages_cost_the_same_with_5000_games_as_with_30(
    client: Client,
) -> None:
    """One build of 5,000 games (a few seconds) serves both pages."""

    def statements(url: str) -> int:
        cache.clear()
        with count_statements() as seen:
            response = client.get(url)
        assert response.status_code == 200
        return len(seen)

    history = ("/history/", "/history/?player=anna&status=playing")
    _many_games(30)
    few = [statements(url) for url in (*history, "/history/?page=2", "/players/Anna/")]
    Game.objects.all().delete()
    _many_games(5000)
    many = [statements(url) for url in (*history, "/history/?page=250", "/players/Anna/")]
    assert few == many and max(many[:3]) <= 4 and many[3] <= 6
    html = client.get("/history/?page=250").content.decode()
    assert "5,000 games" in html or "5000 games" in html
    assert "Page 250 of 250" in html
    player = client.get("/players/anna/").content.decode()
    assert "5,000 games played" in player or "5000 games played" in player


def as_host(client: Client, game: Game) -> Client:
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    return client


def test_the_host_renames_a_game(client: Client, games: dict[str, Game]) -> None:
    game = games["friday"]
    assert client.post(f"/g/{game.pk}/rename", {"name": "Nope"}).status_code == 403
    as_host(client, game)
    assert "Rename the game" in client.get(f"/g/{game.pk}/rename").content.decode()
    refused = client.post(f"/g/{game.pk}/rename", {"name": "   "})
    assert "1 to 80 characters" in refused.content.decode()
    client.post(f"/g/{game.pk}/rename", {"name": "  Friday   at Helle’s "})
    renamed = Game.objects.get(pk=game.pk)
    assert renamed.name == "Friday at Helle’s" and renamed.version > game.version


def test_the_host_deletes_a_game_and_can_bring_it_back(
    client: Client, games: dict[str, Game]
) -> None:
    game = games["friday"]
    assert client.post(f"/g/{game.pk}/delete").status_code == 403
    as_host(client, game)
    assert (
        "You can bring it back for 10 minutes"
        in client.get(f"/g/{game.pk}/delete").content.decode()
    )
    response = client.post(f"/g/{game.pk}/delete")
    assert response["Location"] == f"/?deleted={game.pk}"
    assert client.get(f"/g/{game.pk}/").status_code == 404
    assert client.get(f"/g/{game.pk}/live?v=1").status_code == 404
    assert client.get(f"/api/games/{game.pk}").status_code == 404
    assert names_listed(client) == ["Won", "Sunday"]
    home = client.get(response["Location"]).content.decode()
    assert "“Friday” was deleted." in home and f'action="/g/{game.pk}/restore"' in home

    client.post(f"/g/{game.pk}/restore")
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert names_listed(client) == ["Won", "Friday", "Sunday"]


def test_a_deleted_game_cannot_come_back_after_ten_minutes(
    client: Client, games: dict[str, Game]
) -> None:
    game = games["friday"]
    as_host(client, game)
    store.delete_game(game.pk)
    Game.everything.filter(pk=game.pk).update(
        deleted_at=timezone.now() - timedelta(minutes=store.RESTORE_MINUTES, seconds=1)
    )
    assert client.post(f"/g/{game.pk}/restore").status_code == 410
    assert client.get(f"/g/{game.pk}/").status_code == 404
    # Someone else's browser never sees the offer to restore it.
    other = Client()
    assert "was deleted" not in other.get(f"/?deleted={game.pk}").content.decode()


def test_a_page_seen_before_adds_up_nothing_again(client: Client, games: dict[str, Game]) -> None:
    cache.clear()
    with count_statements() as first:
        client.get("/history/")
    with count_statements() as again:
        client.get("/history/")
    assert len(again) == len(first) - 1  # the seats' sums come from memory
    play(games["friday"], RuleTurn(20))  # a new version of one game is added up afresh
    html = client.get("/history/").content.decode()
    assert "2 turns" in html
