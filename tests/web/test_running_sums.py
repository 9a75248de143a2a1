"""Each seat's running sum of cells and the game's last roller are kept with every row
written or undone, so any process resumes a position in one small query."""

from __future__ import annotations

import pytest

from games import store
from games.models import Game, Seat
from games.rules import dice as dice_rules
from tests.factories import make_game, play
from tests.web.test_sheet_page import count_statements

pytestmark = pytest.mark.django_db

TURNS = [
    dice_rules.Turn(33, 2),
    dice_rules.Turn(20),
    dice_rules.Turn(31, 1),
    dice_rules.Turn(35, 3),
    dice_rules.Turn(12),
]


def kept(game: Game) -> list[int]:
    return list(
        Seat.objects.filter(game=game).order_by("position").values_list("cell_sum", flat=True)
    )


def resumed(game: Game) -> dice_rules.Position:
    game.refresh_from_db()
    position, version = store._add_up_position(game)
    assert version == game.version  # read with the version it belongs to
    return position


def test_the_sums_follow_every_turn_and_undo() -> None:
    game = make_game()
    for turn in TURNS:
        play(game, turn)
        assert kept(game) == store.cell_sums(game)
        assert resumed(game) == store.load_snapshot(game).position
    for _ in TURNS:
        store.undo_last_turn(game.pk)
        assert kept(game) == store.cell_sums(game)
        assert resumed(game) == store.load_snapshot(game).position
    assert kept(game) == [0, 0, 0, 0]
    assert Game.objects.get(pk=game.pk).last_roller is None


def test_a_position_is_resumed_in_one_statement_however_long_the_game() -> None:
    game = play(make_game(), *TURNS[:2], *(dice_rules.Turn(20) for _ in range(100)))
    with count_statements() as statements:
        position, _version = store._add_up_position(game)
    assert len(statements) == 1
    assert position == store.load_snapshot(game).position


def test_an_import_and_a_card_deal_keep_the_sums_too() -> None:
    from games import transfer

    game = play(make_game(), *TURNS)
    copy, _key = transfer.import_game(transfer.export_game(game))
    assert kept(copy) == store.cell_sums(copy) == store.cell_sums(game)
    assert Game.objects.get(pk=copy.pk).last_roller == Game.objects.get(pk=game.pk).last_roller
