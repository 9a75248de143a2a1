"""A tournament written down and read back is the same tournament: a store resumes a card
game from its snapshot instead of replaying every move."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import cards
from tests.budget import examples


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.binary(min_size=16, max_size=16),
    seats=st.integers(min_value=2, max_value=6),
    moves=st.integers(min_value=0, max_value=400),
    queens=st.booleans(),
    single_stock=st.booleans(),
)
def test_a_snapshot_resumes_the_same_tournament(
    seed: bytes, seats: int, moves: int, queens: bool, single_stock: bool
) -> None:
    rules = cards.CardRules(tokens=2, queens=queens, single_stock=single_stock)
    state = cards.Tournament.start(rules, seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.finished:
            break
        state, _events = state.play(rng.choice(state.legal_moves()))
    # Through JSON, as the database keeps it.
    resumed = cards.from_snapshot(json.loads(json.dumps(cards.snapshot(state))))
    assert resumed.deal == state.deal and resumed.tokens == state.tokens
    assert resumed.deals == state.deals and resumed.winners == state.winners
    assert resumed.log == state.log[-cards.SNAPSHOT_LOG :]
    # Each event kept has its number in the tournament still (a table's computer moves are
    # told apart by it), also once the resumed one is written down and read back in turn.
    assert resumed.log_start + len(resumed.log) == len(state.log)
    assert resumed.legal_moves() == state.legal_moves()
    # And it plays on exactly as the original does.
    if not state.finished:
        move = rng.choice(state.legal_moves())
        after, events = resumed.play(move)
        assert after.deal == state.play(move)[0].deal
        again = cards.from_snapshot(json.loads(json.dumps(cards.snapshot(after))))
        assert again.log_start + len(again.log) == len(state.log) + len(events)
        assert again.log == after.log[-cards.SNAPSHOT_LOG :]
