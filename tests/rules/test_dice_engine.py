"""The dice games speak the same engine protocol as the card game: every turn the protocol
lists is one the rules accept, every other reported turn is refused, and games played through
it end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalTurnError
from games.rules.dice import RuleSet, Turn
from games.rules.dice.engine import DiceState
from games.rules.dice.log import DiceMove
from games.rules.engine import State
from tests.budget import examples

RULES = st.sampled_from(
    [
        {},
        {"on_failure": "shortfall", "empty_seat": "lost", "hunt_dice": "margin"},
        {"preset": "30s", "healing": True, "free_for_all": True},
        {"preset": "30s", "end": "first_out", "weaker_attacks": True},
    ]
)


def test_dice_state_is_an_engine_state() -> None:
    state: State[DiceMove, object, object] = DiceState.start(RuleSet(), 3)
    assert state.to_move() == 0 and state.outcome() is None


@settings(max_examples=examples(40), deadline=None)
@given(rules=RULES, players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_listed_moves_are_accepted_and_others_refused(
    rules: dict[str, object], players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = DiceState.start(RuleSet.from_dict(rules), players)
    for _ in range(300):
        legal = state.legal_moves()
        if state.outcome() is not None:
            assert legal == []
            break
        rows = {state.play(move)[1].row for move in legal}
        # A turn the list leaves out is refused, or (a hunt count sent with a total that did
        # not beat the mark, which the rules ignore) writes a row that a listed turn writes.
        for _ in range(5):
            other = Turn(
                rng.randint(0, 40), rng.choice([None, 0, 3, 7]), rng.choice([None, 0, 1, 9])
            )
            try:
                _after, event = state.play(other)
                written = event.row
                assert written is not None
            except IllegalTurnError:
                continue
            same = {(r.roller, r.cells, r.effect) for r in rows if r is not None}
            assert (written.roller, written.cells, written.effect) in same, other
        state, event = state.play(rng.choice(legal))
        assert event.row is not None and event.row.roller is not None
    assert state.view(None) is state
