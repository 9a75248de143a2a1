"""Each seat's running sum of cells and the game's last roller are kept with every row
written or undone, so any process resumes a position in one small query."""

from __future__ import annotations

import pytest

from games import cache, store
from games.kinds.dice import moves as dice_moves
from games.kinds.dice import stored
from games.models import Game, Seat
from games.rules import dice as dice_rules
from tests.factories import make_game, play
from tests.statements import count_statements

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
    """The position as another process resumes it: from the state kept with the version."""
    game.refresh_from_db()
    cache.clear()
    return stored.position_of(game)


def test_the_sums_follow_every_turn_and_undo() -> None:
    game = make_game()
    for turn in TURNS:
        play(game, turn)
        assert kept(game) == store.cell_sums(game)
        assert resumed(game) == stored.load_snapshot(game).position
    for _ in TURNS:
        store.undo(game.pk)
        assert kept(game) == store.cell_sums(game)
        assert resumed(game) == stored.load_snapshot(game).position
    assert kept(game) == [0, 0, 0, 0]
    assert resumed(game).last_roller is None


def test_a_position_is_resumed_in_one_statement_however_long_the_game() -> None:
    game = play(make_game(), *TURNS[:2], *(dice_rules.Turn(20) for _ in range(100)))
    game.refresh_from_db()
    cache.clear()
    with count_statements() as statements:
        position = stored.position_of(game)
    assert len(statements) == 1
    assert position == stored.load_snapshot(game).position


def test_an_import_and_a_card_deal_keep_the_sums_too() -> None:
    from games import transfer

    game = play(make_game(), *TURNS)
    copy, _key = transfer.import_game(transfer.export_game(game))
    assert kept(copy) == store.cell_sums(copy) == store.cell_sums(game)
    assert resumed(copy).last_roller == resumed(game).last_roller


def test_a_turn_the_computers_follow_reads_the_seats_once() -> None:
    # The seats' ids (for the cells) and who the computers are come from one read under the
    # game's lock, however many rows the turn and the computers after it write.
    game, _ = dice_moves.create_game(
        "Robots", ["Anna", "R1", "R2"], dice_rules.RuleSet(), computers=(1, 2)
    )
    with count_statements() as statements:
        played = dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    assert len(played.public) == 3  # Anna's row and both computers'
    assert sum("games_seat" in sql and sql.lstrip().startswith("SELECT") for sql in statements) == 1
    assert store.cell_sums(played.game) == kept(played.game)
