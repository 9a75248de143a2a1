"""The card game's computer player: it sees only its own seat's view, and it plays well."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.rules.cards import Card, CardRules, Move, Tournament, choose_move
from games.rules.cards.bot import Unseen, random_move
from games.rules.errors import IllegalMoveError
from tests.budget import examples
from tests.rules.cardtable import table


def test_the_bot_decides_from_its_view_alone() -> None:
    # Two tables that differ only in what seat 0 cannot see: the other hand and the stock.
    one = table("10H 2S 3C", "5H 6D 7H", total=20, colour="red", pile="5D 9H", stock="8S 4D")
    two = table("10H 2S 3C", "4D 8S AC", total=20, colour="red", pile="5D 9H", stock="5H 6D")
    assert one.view(0) == two.view(0)
    assert choose_move(one.view(0), random.Random(3)) == choose_move(two.view(0), random.Random(3))


def test_the_bot_plays_only_on_its_own_turn() -> None:
    state = table("10H 2S 3C", "5H 6D 7H", total=20, colour="red", pile="5D")
    for view in (state.view(1), state.view(None)):
        with pytest.raises(IllegalMoveError):
            choose_move(view, random.Random(0))
        with pytest.raises(IllegalMoveError):
            random_move(view, random.Random(0))


def test_the_bot_takes_the_total_to_30_in_its_colour_when_it_can() -> None:
    state = table("10H 2S 3C", "5H 6D 7H", total=20, colour="red", pile="5D", stock="8S 4D")
    assert choose_move(state.view(0), random.Random(0)) == Move("10H")


def test_the_bot_keeps_its_jack_when_it_gains_nothing_by_it() -> None:
    state = table("JS 5H 6D", "2H 3S 7H", total=12, colour="red", pile="5D", stock="8S 4D")
    assert choose_move(state.view(0), random.Random(0)).card != "JS"


def test_the_bot_counts_dead_cards_as_the_engine_does() -> None:
    rules = CardRules(queens=True)
    state = table("JS 5H 6D", "2H 3S 7H", total=12, colour="red", pile="5D QS", rules=rules)
    unseen = Unseen.of(state.view(0))
    hidden = [c for c in rules.deck() if c.code not in {"JS", "5H", "6D", "5D", "QS"}]
    assert unseen.count == len(hidden)
    for total in range(31):
        for colour in ("red", "black"):
            dead = sum(1 for card in hidden if not _playable(card, total, colour))
            assert unseen.dead(total, colour) == dead, (total, colour)


def _playable(card: Card, total: int, colour: str) -> bool:
    state = table(card.code, "2H", total=total, colour=colour, pile="5D")  # type: ignore[arg-type]
    return bool(state.legal_moves())


def bot_share(index: int, rules: CardRules) -> float:
    """The bot's share of the win in one seeded three-player tournament against random play."""
    bot_seat = index % 3
    rngs = [random.Random(f"{index}:{seat}") for seat in range(3)]
    state = Tournament.start(rules, 3, hashlib.sha256(b"bot-test:%d" % index).digest())
    for _ in range(50_000):
        seat = state.to_move()
        if seat is None:
            break
        player = choose_move if seat == bot_seat else random_move
        state, _ = state.play(player(state.view(seat), rngs[seat]))
    outcome = state.outcome()
    assert outcome is not None
    return 1 / len(outcome.winners) if bot_seat in outcome.winners else 0.0


@pytest.mark.slow
def test_the_bot_beats_two_random_players_far_more_often_than_chance() -> None:
    # Seeded, so the figure is the same on every run; chance would be 1/3. The full
    # measurement is bench/cards_bot.py. A tenth under `make test-fast` (tests/budget.py).
    tournaments = examples(200)
    rate = sum(bot_share(index, CardRules(tokens=3)) for index in range(tournaments)) / tournaments
    assert rate >= 0.45
