"""A card game's chart of tokens deal by deal, and its replay with every hand once the
tournament is over (never before)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.kinds.cards import tournaments
from games.models import Game, Secret
from games.rules import IllegalTurnError, cards
from games.store import Player
from tests.statements import count_statements

pytestmark = pytest.mark.django_db


def computers_game(tokens: int = 2) -> Game:
    """Three computer seats play a whole tournament as soon as it is created."""
    game, _ = tournaments.create_card_game(
        "Robots",
        [Player("Ada", True), Player("Bo", True), Player("Cy", True)],
        cards.CardRules(tokens=tokens),
    )
    game.refresh_from_db()
    assert game.finished
    return game


def game_in_play() -> tuple[Game, str]:
    game, host_key = tournaments.create_card_game(
        "Live", [Player("Anna"), Player("Robot", True)], cards.CardRules(tokens=3)
    )
    return game, host_key


def test_the_chart_shows_each_seats_tokens_after_each_deal(client: Client) -> None:
    game = computers_game()
    deals = game.turn_count
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f"/g/{game.pk}/chart.svg?turn={deals}&amp;lang=en" in page
    assert (
        "Tokens deal by deal" in page and "Chart of each player’s tokens after every deal" in page
    )
    svg = client.get(f"/g/{game.pk}/chart.svg?turn={deals}").content.decode()
    assert "<svg" in svg and "Tokens left" in svg and "★" in svg  # the winner's line
    first = client.get(f"/g/{game.pk}/chart.svg?turn=1").content.decode()
    assert "★" not in first  # the winner is not known after the first deal


def test_the_chart_lines_are_the_tokens_left() -> None:
    from games.kinds.cards.charts import card_lines

    drawn = card_lines(["A", "B"], 2, [(1, 0), (0, 1), (1, 0)], winners=(1,))
    assert [line.values for line in drawn] == [(2, 1, 1, 0), (2, 2, 1, 1)]
    assert [line.out for line in drawn] == [True, False] and drawn[1].won


def test_a_deal_is_replayed_with_every_hand_dealt(client: Client) -> None:
    game = computers_game()
    seed = Secret.objects.get(game=game).seed
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f'href="/g/{game.pk}/replay?deal=1"' in page
    html = client.get(f"/g/{game.pk}/replay?deal=1").content.decode()
    assert f"Deal 1 of {game.turn_count}" in html
    dealt = cards.Tournament.start(cards.CardRules(tokens=2), 3, seed).deal.hands
    shown = re.findall(r'data-card="([^"]+)"', html)
    assert shown == [card.code for hand in dealt for card in hand]
    assert 'id="deal-1"' in html and 'id="deal-2"' not in html  # the sheet after deal 1
    assert f"/g/{game.pk}/chart.svg?turn=1&amp;lang=en" in html
    assert "Ada played" in html or "Bo played" in html or "Cy played" in html
    last = client.get(f"/g/{game.pk}/replay?deal=999").content.decode()
    assert f"Deal {game.turn_count} of {game.turn_count}" in last and 'rel="next"' not in last


def test_a_step_costs_the_same_at_the_first_deal_as_at_the_last(client: Client) -> None:
    game = computers_game(tokens=3)

    def statements(deal: int) -> int:
        with count_statements() as seen:
            assert client.get(f"/g/{game.pk}/replay?deal={deal}").status_code == 200
        return len(seen)

    statements(1)  # the deals are remembered from the first step on
    assert statements(1) == statements(game.turn_count)


def test_no_hand_is_shown_before_the_tournament_is_over(client: Client) -> None:
    game, _ = game_in_play()
    response = client.get(f"/g/{game.pk}/replay?deal=1")
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    with pytest.raises(IllegalTurnError):
        tournaments.card_deals(game)
    # Not even when the page claims it is over: the store reads the game afresh.
    game.finished = True
    with pytest.raises(IllegalTurnError):
        tournaments.card_deals(game)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "data-card" not in page.split('id="chart"')[1]  # the chart shows no card
    assert "Replay the deals" not in page


def test_a_chart_before_the_first_deal_is_over_says_so(client: Client) -> None:
    game, _ = game_in_play()
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "The chart starts when the first deal is over." in page
    svg = client.get(f"/g/{game.pk}/chart.svg?turn=0")
    assert svg.status_code == 200 and b"<svg" in svg.content
