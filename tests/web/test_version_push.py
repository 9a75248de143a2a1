"""On PostgreSQL, changes are pushed to every process, so that an unchanged live refresh
is answered without a query, and a change is still seen at once."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games import cache
from games.kinds.dice import moves as dice_moves
from games.models import Game
from games.rules import dice as dice_rules
from tests.factories import make_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def wait_for(condition: object, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.02)
    return False


@override_settings(THIRTY_VERSION_PUSH=True)
def test_unchanged_refreshes_need_no_query_and_changes_arrive_at_once(client: Client) -> None:
    game = make_game()
    board = cache.version_board()
    assert board is not None
    try:
        assert board.wait_until_listening(5)
        url = f"/g/{game.pk}/live?v={game.version}&n=0&t="
        assert client.get(url).status_code == 204  # first look: read from the database
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 204
        assert len(queries) == 0
        dice_moves.record_turn(game.pk, dice_rules.Turn(33, 2))
        new_version = Game.objects.get(pk=game.pk).version
        assert wait_for(lambda: board.lookup(game.pk) == new_version)
        changed = client.get(url)
        assert changed.status_code == 200 and 'id="turn-1"' in changed.content.decode()
    finally:
        cache.stop_version_board()


@override_settings(THIRTY_VERSION_PUSH=True)
def test_the_writing_process_knows_its_own_change_before_it_pushes_it(client: Client) -> None:
    """A phone told of a change by this process's stream, and asking this process at once,
    gets the change, not "unchanged" from a board still waiting for the notification."""
    game = make_game()
    board = cache.version_board()
    assert board is not None
    try:
        assert board.wait_until_listening(5)
        url = f"/g/{game.pk}/live?v={game.version}&n=0&t="
        assert client.get(url).status_code == 204  # the board now trusts version 1
        dice_moves.record_turn(game.pk, dice_rules.Turn(33, 2))
        assert board.lookup(game.pk) == game.version + 1  # at commit, not on notification
        assert client.get(url).status_code == 200
    finally:
        cache.stop_version_board()
