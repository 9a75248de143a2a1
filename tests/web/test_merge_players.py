"""Merging two spellings of a player: every game's seat takes the name, except in games that
have both spellings, and every number adds up as before."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from games import cache
from games.kinds.cards import tournaments
from games.models import Game, Seat
from games.players import COUNTS, PlayerStats, player_stats
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play
from tests.web.test_players import thirty_game, thirty_s_game

pytestmark = pytest.mark.django_db
DA = {"Accept-Language": "da"}


def ana_game() -> Game:
    """Start 3. Ana 32: 2 twos, Ben −2. Ben 20. Ana 34: 1 four, Ben −1 and out: Ana wins."""
    game = make_game(players=["Ana", "Ben"], rules={"start_points": 3})
    return play(game, RuleTurn(32, 2), RuleTurn(20), RuleTurn(34, 1))


def numbers(stats: PlayerStats | None) -> dict[str, tuple[int, ...]]:
    assert stats is not None
    return {
        kind.kind: tuple(getattr(kind, count) for count in COUNTS) for kind in stats.kinds.values()
    }


def versions() -> dict[str, int]:
    return dict(Game.objects.values_list("pk", "version"))


def merge(client: Client, name: str, other: str) -> str:
    """Ask, check the confirmation page, confirm: the address the merge leads to."""
    asked = client.get(f"/players/{name}/merge", {"other": other})
    assert asked.status_code == 200, asked.content.decode()
    assert "Merge the names" in asked.content.decode()
    done = client.post(f"/players/{name}/merge", {"other": other})
    assert done.status_code == 302
    return str(done["Location"])


def test_the_numbers_after_a_merge_are_the_sum_of_both_players(client: Client) -> None:
    thirty, thirty_s, ana = thirty_game(), thirty_s_game(), ana_game()
    anna_before, ana_before = numbers(player_stats("Anna")), numbers(player_stats("Ana"))
    # Worked out by hand from the games' docstrings, in the order of COUNTS: played,
    # finished, won, damage dealt, damage taken, turns, turns that beat the target.
    assert anna_before == {"thirty": (1, 1, 0, 2, 7, 2, 1), "30s": (1, 1, 0, 10, 30, 3, 1)}
    assert ana_before == {"thirty": (1, 1, 1, 3, 0, 2, 2)}

    where = merge(client, "anna", " ana ")
    assert where.startswith("/players/ANNA/?merged=")  # the name as their latest game wrote it
    after = player_stats("Anna")
    assert numbers(after) == {"thirty": (2, 2, 1, 5, 7, 4, 3), "30s": (1, 1, 0, 10, 30, 3, 1)}
    assert after is not None and after.played == 3 and after.won == 1
    assert player_stats("Ana") is None
    assert client.get("/players/Ana/").status_code == 404

    assert list(Seat.objects.filter(game=ana).values_list("name", "name_key")) == [
        ("ANNA", "anna"),
        ("Ben", "ben"),
    ]
    page = client.get(where).content.decode()
    assert "“ana” is now ANNA in 1 game." in page
    sheet = client.get(f"/g/{ana.pk}/").content.decode()
    assert 'href="/players/ANNA/"' in sheet and ">Ana<" not in sheet
    # The other games already had the name: untouched.
    assert Game.objects.get(pk=thirty.pk).version == thirty.version
    assert Game.objects.get(pk=thirty_s.pk).version == thirty_s.version


def test_a_game_with_both_spellings_is_left_as_it_is_and_named(client: Client) -> None:
    both = play(make_game(name="Both", players=["Anna", "Ana", "Ben"]), RuleTurn(20))
    alone = ana_game()
    before = versions()
    where = merge(client, "Anna", "Ana")
    assert Game.objects.get(pk=both.pk).version == before[both.pk]
    assert Game.objects.get(pk=alone.pk).version == before[alone.pk] + 1
    assert sorted(Seat.objects.filter(game=both).values_list("name", flat=True)) == [
        "Ana",
        "Anna",
        "Ben",
    ]
    page = client.get(where).content.decode()
    assert "One game has both names and stays as it is" in page
    assert f'href="/g/{both.pk}/">Both</a>' in page
    ana = player_stats("Ana")
    assert ana is not None and ana.played == 1  # only the game with both names is left


def test_the_confirmation_page_says_what_will_change_and_changes_nothing(client: Client) -> None:
    make_game(name="Both", players=["Anna", "Ana"])
    play(make_game(players=["Anna", "Ben"]), RuleTurn(20))
    ana_game()
    before = versions()
    html = client.get("/players/Anna/merge?other=Ana").content.decode()
    assert "Merge “Ana” into Anna?" in html
    assert "In 1 game, the player called “Ana” will be called Anna." in html
    assert "One game has both names" in html and 'name="csrfmiddlewaretoken"' in html
    assert versions() == before


@pytest.mark.parametrize(
    ("other", "english"),
    [
        (" anna ", "“anna” is already how Anna is written: there is nothing to merge."),
        ("Zed", "Nobody called “Zed” has played here."),
        ("   ", "Write the other spelling of the name."),
        ("Cleo", "“Cleo” only played in games where Anna played too."),
    ],
)
def test_a_merge_that_cannot_be_is_refused_with_a_sentence(
    client: Client, other: str, english: str
) -> None:
    thirty_game()
    ana_game()
    before = versions()
    for method in (client.get, client.post):
        response = method("/players/Anna/merge", {"other": other})
        assert response.status_code == 422
        assert english in response.content.decode()
    assert versions() == before
    assert Seat.objects.filter(name="Anna").count() == 1


@pytest.mark.usefixtures("current_translations")
def test_the_refusal_and_the_confirmation_speak_danish(client: Client) -> None:
    thirty_game()
    ana_game()
    refused = client.get("/players/Anna/merge?other=Zed", headers=DA).content.decode()
    assert "Ingen ved navn »Zed« har spillet her." in refused
    same = client.get("/players/Anna/merge?other=ANNA", headers=DA).content.decode()
    assert "Anna staves allerede »ANNA«" in same
    asked = client.get("/players/Anna/merge?other=Ana", headers=DA).content.decode()
    assert "Slå »Ana« sammen med Anna?" in asked
    where = client.post("/players/Anna/merge", {"other": "Ana"}, headers=DA)["Location"]
    assert "»Ana« hedder nu Anna i 1 spil." in client.get(where, headers=DA).content.decode()


def test_a_merge_needs_a_post_with_the_csrf_token() -> None:
    ana_game()
    thirty_game()
    browser = Client(enforce_csrf_checks=True)
    before = versions()
    assert browser.post("/players/Anna/merge", {"other": "Ana"}).status_code == 403
    assert versions() == before and player_stats("Ana") is not None


@override_settings(THIRTY_PASSWORD="open sesame")
def test_with_the_instance_password_a_merge_needs_it_too(client: Client) -> None:
    ana_game()
    thirty_game()
    before = versions()
    refused = client.post("/players/Anna/merge", {"other": "Ana"})
    assert refused.status_code == 302 and refused["Location"].startswith("/unlock")
    assert client.get("/players/Anna/")["Location"].startswith("/unlock")
    assert client.get("/history/")["Location"].startswith("/unlock")
    assert versions() == before
    client.post("/unlock", {"password": "open sesame", "next": "/"})
    assert client.post("/players/Anna/merge", {"other": "Ana"}).status_code == 302
    assert player_stats("Ana") is None


def test_a_merged_game_tells_its_phones(client: Client) -> None:
    game = ana_game()
    thirty_game()
    seen = cache.current_version(game.pk)
    client.post("/players/Anna/merge", {"other": "Ana"})
    assert cache.current_version(game.pk) == (seen or 0) + 1
    update = client.get(f"/g/{game.pk}/live?v={seen}&n=0").content.decode()
    assert "Anna" in update and ">Ana<" not in update


def test_a_made_up_note_claims_no_merge(client: Client) -> None:
    thirty_game()
    html = client.get("/players/Anna/?merged=forged").content.decode()
    assert "is now" not in html


def test_a_merged_card_game_keeps_its_state_at_the_new_version(client: Client) -> None:
    from games import store
    from games.models import Secret
    from games.rules import cards

    game, _ = tournaments.create_card_game(
        "Cards",
        [store.Player("Ana"), store.Player("Bot", computer=True)],
        cards.CardRules(),
    )
    thirty_game()
    client.post("/players/Anna/merge", {"other": "Ana"})
    game.refresh_from_db()
    secret = Secret.objects.get(game=game)
    assert secret.state_version == game.version
    assert Seat.objects.get(game=game, position=0).name == "Anna"
