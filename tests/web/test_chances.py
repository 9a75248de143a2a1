"""The Chances page, its charts, and the create form's estimate of a game's length."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.rules.dice import RuleSet, odds
from games.rules.dice.estimate import estimate

DA = {"accept-language": "da"}

pytestmark = pytest.mark.django_db


def test_it_shows_the_chance_to_beat_the_target_and_draws_the_charts(client: Client) -> None:
    html = client.get("/chances/?preset=thirty&target=32&set_aside=one").content.decode()
    chance = float(odds.turn_odds(32, "one").p_beat) * 100
    shown = re.search(r'class="big-figure">([0-9.]+) %<', html)
    assert shown is not None and abs(float(shown[1]) - chance) <= 0.05
    assert 'src="/chances/totals.svg?preset=thirty&amp;set_aside=one' in html
    assert "target=32" in html and 'src="/chances/targets.svg"' in html


def test_it_needs_no_inline_style_or_script(client: Client) -> None:
    response = client.get("/chances/?preset=30s")
    html = response.content.decode()
    assert " style=" not in html and "<style" not in html
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


@pytest.mark.parametrize("name", ["totals", "targets"])
def test_each_chart_is_an_svg_image_without_script(client: Client, name: str) -> None:
    response = client.get(f"/chances/{name}.svg?preset=30s")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert svg.startswith("<svg") and "<script" not in svg
    policy = response["Content-Security-Policy"]
    assert "script-src 'none'" in policy and "default-src 'none'" in policy


def test_an_unknown_chart_is_not_found(client: Client) -> None:
    assert client.get("/chances/pie.svg").status_code == 404


def test_it_speaks_danish(client: Client) -> None:
    html = client.get("/chances/?preset=30s", headers=DA).content.decode()
    assert "Chancer" in html and "Én tur i 30s" in html
    chart = client.get("/chances/targets.svg", headers=DA).content.decode()
    assert "Præcis én terning pr. slag" in chart


def test_the_rules_page_and_a_dice_game_link_to_it(client: Client) -> None:
    assert 'href="/chances/"' in client.get("/rules/").content.decode()
    created = client.post(
        "/api/games",
        {"players": ["Anna", "Ben"], "rules": {"preset": "thirty", "target": 33}},
        content_type="application/json",
    ).json()
    html = client.get(f"/g/{created['id']}/").content.decode()
    assert "/chances/?preset=thirty&amp;set_aside=any&amp;start_points=30&amp;target=33" in html


# The estimate on the create form.


def test_the_create_form_shows_the_estimate_without_javascript(client: Client) -> None:
    html = client.get("/").content.decode()
    expected = estimate(RuleSet(), 4)
    assert f"About {round(expected.turns)} turns" in html
    assert 'hx-get="/estimate"' in html and 'hx-trigger="change from:#create-form"' in html


def test_the_estimate_follows_the_form_fields(client: Client) -> None:
    query = "preset=30s&player=Anna&player=Ben&player=&first_out=on"
    html = client.get(f"/estimate?{query}").content.decode()
    expected = estimate(RuleSet.from_dict({"preset": "30s", "end": "first_out"}), 3)
    assert f"About {round(expected.turns)} turns" in html and "For 3 players" in html
    danish = client.get(f"/estimate?{query}", headers=DA).content.decode()
    assert f"Cirka {round(expected.turns)} ture" in danish


def test_the_estimate_says_why_a_pair_of_variants_cannot_be_played(client: Client) -> None:
    html = client.get("/estimate?preset=30s&first_out=on&precise_elimination=on").content.decode()
    assert "nobody could ever pass 30" in html
    assert "About" not in client.get("/estimate?preset=cards").content.decode()
