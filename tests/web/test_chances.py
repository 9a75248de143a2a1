"""The Chances page, its charts, and the create form's estimate of a game's length."""

from __future__ import annotations

import dataclasses
import fcntl
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.kinds.dice import chances
from games.rules.dice import RuleSet, odds
from games.rules.dice import estimate as estimates
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

USUAL = re.compile(r"Usually ([\d,]+) to ([\d,]+) turns \(median ([\d,]+)\), ([^.<]+)\.")
USUAL_DA = re.compile(r"Som regel ([\d.]+) til ([\d.]+) ture \(median ([\d.]+)\), ([^.<]+)\.")


def minutes_of(shown: str) -> int:
    """A time as minutes: "2 h 5 min", "45 min", "3 h" (Danish "2 t 5 min")."""
    hours = re.search(r"(\d+)\s[ht]\b", shown)
    minutes = re.search(r"(\d+)\smin", shown)
    return (int(hours[1]) * 60 if hours else 0) + (int(minutes[1]) if minutes else 0)


def read_line(html: str, danish: bool = False) -> tuple[int, int, int, list[int]]:
    """The estimate's turns and the minutes of its times ("10–25 min" names the unit once)."""
    found = (USUAL_DA if danish else USUAL).search(html)
    assert found is not None, html
    low, high, median = (int(re.sub(r"[,.]", "", found[n])) for n in (1, 2, 3))
    times = found[4]
    assert " " not in times  # kept on one line
    if short := re.fullmatch(r"(\d+)–(\d+)\smin", times):
        return low, high, median, [int(short[1]), int(short[2])]
    return low, high, median, [minutes_of(part) for part in times.split("–")]


# The figures are 1,000 games of the rules (plain Python) kept in a file of the data
# directory: the same on both databases, so this is left out of the PostgreSQL pass.
@pytest.mark.slow
@pytest.mark.sqlite
def test_the_create_form_shows_the_usual_range_of_a_game_without_javascript(
    client: Client, data_dir: Path
) -> None:
    # Before the figures of a rule set were ever worked out, the form does not wait seconds
    # for them: its line asks for them by itself once the page is drawn.
    cold = client.get("/").content.decode()
    assert "Working out how long such a game takes…" in cold
    assert 'hx-trigger="load delay:500ms, change from:#create-form delay:500ms"' in cold
    assert USUAL.search(cold) is None
    # Once worked out (by that request, another process, or before a restart), the form
    # shows them as it is drawn.
    expected = chances.kept_estimate(RuleSet(), 4)
    html = client.get("/").content.decode()
    low, high, median, times = read_line(html)
    assert (low, high, median) == (expected.low, expected.high, expected.median)
    assert low < median < high
    # The times are the turns at 40 seconds each, to the nearest 5 minutes.
    assert len(times) == 2
    for turns, shown in zip((low, high), times, strict=True):
        assert abs(shown - turns * 40 / 60) <= 2.5 and shown % 5 == 0
    assert "The middle 8 of 10 games, for 4 players at 40 seconds a turn" in html
    assert "(1,000 simulated games)" in html
    assert "give or take" not in html
    assert 'hx-get="/estimate"' in html
    assert 'hx-trigger="change from:#create-form delay:500ms"' in html


def test_the_estimate_follows_the_form_fields(client: Client) -> None:
    query = "preset=30s&player=Anna&player=Ben&player=&first_out=on"
    html = client.get(f"/estimate?{query}").content.decode()
    expected = estimate(RuleSet.from_dict({"preset": "30s", "end": "first_out"}), 3)
    low, high, median, times = read_line(html)
    assert (low, high, median) == (expected.low, expected.high, expected.median)
    # Under an hour: "15–25 min".
    assert f"{times[0]}–{times[1]}\u00a0min" in html and times[0] < times[1]
    assert "for 3 players" in html
    danish = client.get(f"/estimate?{query}", headers=DA).content.decode()
    assert read_line(danish, danish=True)[:3] == (expected.low, expected.high, expected.median)
    assert "De midterste 8 ud af 10 spil for 3 spillere med 40 sekunder pr. tur" in danish
    assert "(1.000 simulerede spil)" in danish


def test_a_game_that_may_never_end_says_so(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # Games of target 35 with one die per roll often run past the app's 5,000 turns
    # (tests/rules/test_estimate.py plays some); their 250,000 simulated turns take seconds.
    endless = estimates.Estimate(50, 4640, 5000, 5000, 4900.0)
    monkeypatch.setattr(chances, "kept_estimate", lambda rules, players: endless)
    query = "preset=thirty&target=35&set_aside=one&players=4"
    html = client.get(f"/estimate?{query}").content.decode()
    assert "Usually more than 4,640 turns, over 51\u00a0h\u00a035\u00a0min." in html
    assert "one game in ten or more was still going after 5,000 turns" in html
    danish = client.get(f"/estimate?{query}", headers=DA).content.decode()
    assert "Som regel mere end 4.640 ture, over 51\u00a0t\u00a035\u00a0min." in danish
    assert "mindst ét spil ud af 10 stadig i gang efter 5.000 ture" in danish


def test_the_estimate_says_why_a_pair_of_variants_cannot_be_played(client: Client) -> None:
    html = client.get("/estimate?preset=30s&first_out=on&precise_elimination=on").content.decode()
    assert "nobody could ever pass 30" in html
    assert "Usually" not in client.get("/estimate?preset=cards").content.decode()


# The figures are kept in the data directory: worked out once, then read.


@pytest.fixture
def data_dir(settings: Any, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    chances.forget_estimates()
    estimates.estimate.cache_clear()
    return tmp_path


def test_the_figures_are_read_back_after_a_restart(
    client: Client, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "preset=30s&players=2"
    first = client.get(f"/estimate?{query}").content.decode()
    assert len(list((data_dir / "estimates").glob("*.json"))) == 1
    # A new process: nothing in memory, and no game is played again.
    chances.forget_estimates()
    estimates.estimate.cache_clear()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the games were played again")

    monkeypatch.setattr(estimates, "simulate", refuse)
    assert client.get(f"/estimate?{query}").content == first.encode()


def test_a_damaged_file_is_worked_out_again(client: Client, data_dir: Path) -> None:
    rules = RuleSet.from_dict({"preset": "30s"})
    found = chances.kept_estimate(rules, 2)
    (kept,) = (data_dir / "estimates").glob("*.json")
    kept.write_text("{not json")
    chances.forget_estimates()
    assert chances.kept_estimate(rules, 2) == found
    assert json.loads(kept.read_text())["median"] == found.median


def test_a_request_waits_for_the_figures_another_process_is_working_out(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RuleSet.from_dict({"preset": "30s"})
    theirs = estimates.simulate(rules, 2, games=10)
    path = chances._estimate_path(rules, 2)
    path.parent.mkdir(parents=True)
    looked = threading.Event()
    known = chances.known_estimate

    def look(*args: Any) -> estimates.Estimate | None:
        looked.set()
        return known(*args)

    def refuse(*args: object) -> None:
        raise AssertionError("the games were played twice")

    monkeypatch.setattr(chances, "known_estimate", look)
    monkeypatch.setattr(estimates, "simulate", refuse)
    answers: list[estimates.Estimate] = []
    # Another process is playing the games: it holds the figures' lock.
    with path.with_suffix(".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        asking = threading.Thread(target=lambda: answers.append(chances.kept_estimate(rules, 2)))
        asking.start()
        assert looked.wait(10)  # found nothing yet
        path.write_text(json.dumps(dataclasses.asdict(theirs)))
    asking.join(10)
    assert answers == [theirs]
