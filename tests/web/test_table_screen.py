"""The table screen (/g/<id>/table): the watcher's page of any kind, for a laptop or a TV in
the middle of the table, with no controls and no secret, whoever opens it."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import strip_tags

from games.kinds.dice import moves as dice_moves
from games.kinds.dice import stored
from games.models import Game
from games.rules import dice as dice_rules
from games.rules.dice import bot as dice_bot
from games.rules.dice.rolled import Action

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", ["thirty", "cards"])
def test_the_table_screen_is_the_watchers_page_even_for_the_host(preset: str) -> None:
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": preset}).status_code == 302
    game = Game.objects.get()
    host_page = host.get(f"/g/{game.pk}/").content.decode()
    assert 'id="seat-links"' in host_page and f"/g/{game.pk}/table" in host_page
    screen = host.get(f"/g/{game.pk}/table")
    page = screen.content.decode()
    assert screen.status_code == 200 and 'id="live-stream"' in page and 'id="join-code"' in page
    # Nothing the host holds: no seat links, no host link, no switches, no turn pad.
    for held in ('id="seat-links"', "/seat#", "/host#", 'id="turn-panel"', "data-autosubmit"):
        assert held not in page
    assert Client().get(f"/g/{game.pk}/table").content.decode().count('id="turn-signal"') == 1


def latest_moves(page: str) -> list[str]:
    """The latest moves as the table screen lists them, in words, the newest first."""
    section = page.split('id="latest-moves"', 1)[1].split("</section>", 1)[0]
    return [strip_tags(item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", section)]


def test_a_dice_table_screen_lists_the_latest_moves_newest_first_and_follows_them() -> None:
    game, _host_key = dice_moves.create_game(
        "Friday", ["Anna", "Ben", "Cleo"], dice_rules.RuleSet()
    )
    for total in (20, 21, 22, 23, 24):
        dice_moves.record_turn(game.pk, dice_rules.Turn(total))
    screen = Client().get(f"/g/{game.pk}/table").content.decode()
    said = "{name} rolled {total} and did not beat 30: nothing happens."
    assert latest_moves(screen) == [
        said.format(name=name, total=total)
        for name, total in (("Ben", 24), ("Anna", 23), ("Cleo", 22), ("Ben", 21))
    ]
    # An update brings the next row to the screen, first, with the dice the app rolled for it.
    seen = Game.objects.get(pk=game.pk)
    recorded = dice_moves.roll(game.pk, Action())
    while (row := dice_moves.row_written(recorded)) is None:  # Cleo plays on as a computer would
        turn = stored.rolling_turn(recorded.game)
        assert turn is not None
        recorded = dice_moves.roll(game.pk, dice_bot.rolled_action(turn))
    update = Client().get(
        f"/g/{game.pk}/live", {"v": seen.version, "n": 5, "t": seen.turns.get(number=5).pk}
    )
    moves = latest_moves(update.content.decode())
    assert len(moves) == 4 and moves[1] == said.format(name="Ben", total=24)
    assert moves[0].startswith(f"Cleo rolled {row.turn.total}")
    assert "Dice rolled by the app: " in moves[0]


def test_only_the_table_screen_and_watchers_carry_the_latest_moves() -> None:
    host = Client()
    form = {"player": ["Anna", "Ben"], "seat_kind": ["person", "person"], "create": "1"}
    assert host.post("/", form | {"preset": "thirty"}).status_code == 302
    game = Game.objects.get()
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    # The host's phone has the sheet and its controls: the words are the table screen's.
    assert 'id="latest-moves"' not in host.get(f"/g/{game.pk}/").content.decode()
    screen = Client(headers={"Accept-Language": "da"}).get(f"/g/{game.pk}/table")
    assert latest_moves(screen.content.decode()) == [
        "Anna slog 20 og kom ikke over 30: der sker ingenting."
    ]


def test_a_watchers_update_reads_the_rows_once() -> None:
    """The latest moves come from the rows the update reads anyway, not a second read."""
    game, _host_key = dice_moves.create_game(
        "Friday", ["Anna", "Ben", "Cleo"], dice_rules.RuleSet()
    )
    for total in (20, 21, 22, 23, 24):
        dice_moves.record_turn(game.pk, dice_rules.Turn(total))
    seen = Game.objects.get(pk=game.pk)
    dice_moves.record_turn(game.pk, dice_rules.Turn(25))
    with CaptureQueriesContext(connection) as queries:
        update = Client().get(
            f"/g/{game.pk}/live", {"v": seen.version, "n": 5, "t": seen.turns.get(number=5).pk}
        )
    moves = latest_moves(update.content.decode())
    assert [move.split(" did")[0] for move in moves] == [
        f"{name} rolled {total} and"
        for name, total in (("Cleo", 25), ("Ben", 24), ("Anna", 23), ("Cleo", 22))
    ]
    reads = [query["sql"] for query in queries.captured_queries]
    assert sum('FROM "games_cell"' in sql for sql in reads) == 1
