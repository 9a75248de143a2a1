"""Invariants of the card game over thousands of random tournaments (hypothesis).

Each example draws the rules, the table size, the secret seed and a seed for the players;
the players then mix random legal moves with the bot's. Short tournaments (few tokens, one
each at big tables) keep the file near 30 s of CPU for 1,100 tournaments while still running
through many deals, restocks and endings.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import RuleError
from games.rules.cards import (
    ALL_CODES,
    COLOURS,
    CardGame,
    CardRules,
    CardView,
    Move,
    Played,
    Tournament,
    choose_move,
    replay,
)
from tests.budget import examples

MAX_DEAL_MOVES = 2_000  # a bound far above any deal seen; a deal that passes it never ends
MAX_MOVES = 40_000

# Mostly small tables, so that a tournament is a handful of deals; up to ten seats, where a
# single token each keeps the tournament short.
tables = st.sampled_from([2, 2, 3, 3, 3, 4, 4, 5, 7, 10])


@st.composite
def setups(draw: st.DrawFn, seats: st.SearchStrategy[int] = tables) -> tuple[CardRules, int]:
    table = draw(seats)
    rules = CardRules(
        tokens=1 if table > 5 else draw(st.sampled_from([1, 1, 2, 3])),
        fewer_jacks=draw(st.booleans()),
        queens=draw(st.booleans()),
        single_stock=draw(st.booleans()),
    )
    return rules, table


seeds = st.binary(min_size=1, max_size=16)


def pick(state: Tournament, rng: random.Random, bot_share: float) -> Move:
    seat = state.to_move()
    assert seat is not None
    if rng.random() < bot_share:
        return choose_move(state.view(seat), rng)
    return rng.choice(state.legal_moves())


def play_out(
    rules: CardRules, seats: int, seed: bytes, players: int, bot_share: float
) -> tuple[CardGame, list[Tournament]]:
    game, rng = CardGame(rules, seats, seed), random.Random(players)
    states = [game.state]
    deal_moves = 0
    while not game.state.finished and len(game.moves) < MAX_MOVES:
        number = game.state.deal.number
        game.push(pick(game.state, rng, bot_share))
        states.append(game.state)
        deal_moves = deal_moves + 1 if game.state.deal.number == number else 0
        assert deal_moves < MAX_DEAL_MOVES, "a deal did not end"
    return game, states


def check_state(state: Tournament) -> None:
    deal, rules = state.deal, state.rules
    # Every card is somewhere, exactly once: in a hand, the stock or the pile.
    held = [card.code for hand in deal.hands for card in hand]
    everywhere = (*held, *(card.code for card in (*deal.stock, *deal.pile)))
    assert len(everywhere) == len(rules.deck()) and set(everywhere) == _codes(rules)
    assert 0 <= deal.total <= 30
    assert (deal.colour is None) == (deal.pile == ())
    for seat, tokens in enumerate(state.tokens):
        assert 0 <= tokens <= rules.tokens
        if tokens == 0 and not state.finished:
            assert deal.hands[seat] == ()  # a player who is out holds no cards
    mover = state.to_move()
    if state.finished:
        assert mover is None and state.legal_moves() == [] and state.outcome() is not None
    else:
        # Whoever is to move can play: a player who cannot has already lost the deal.
        assert mover is not None and state.tokens[mover] > 0 and state.legal_moves()
        assert state.outcome() is None


@cache
def _codes(rules: CardRules) -> frozenset[str]:
    return frozenset(card.code for card in rules.deck())


def check_views(state: Tournament) -> None:
    deal = state.deal
    public_log = {event.card for event in state.log if isinstance(event, Played)}
    watcher = state.view(None)
    assert watcher.hand is None and watcher.legal == ()
    for seat in (None, *range(state.seats)):
        view = state.view(seat)
        _check_one_view(state, view, public_log)
        if seat is not None:
            assert view.hand == tuple(card.code for card in deal.hands[seat])
            assert view.legal == (tuple(state.legal_moves()) if seat == deal.to_move else ())
        # Every seat and every watcher sees the same public part.
        assert replace(view, seat=None, hand=None, legal=()) == watcher


def _check_one_view(state: Tournament, view: CardView, public_log: set[str]) -> None:
    """No view shows a card it may not: another seat's hand, or the stock."""
    if state.finished:
        return  # the seed is revealed then: every deal can be replayed
    hidden = {card.code for card in state.deal.stock}
    for seat, hand in enumerate(state.deal.hands):
        if seat != view.seat:
            hidden |= {card.code for card in hand}
    # A card once played face up stays public, even after a restock took it back.
    # The log is checked by type: its only cards are those played face up (`Played`).
    shown = replace(view, log=())
    data = shown.to_dict()  # the whole log written out for every view made this test quadratic
    text = repr(shown) + repr(data)
    leaked = {code for code in hidden - public_log if f"'{code}'" in text}
    assert leaked == set()
    assert view.seed is None and "seed" not in data


def random_move(rng: random.Random) -> Move:
    """Any move at all, mostly well formed: the validator must refuse all but the legal."""
    code = rng.choice([*ALL_CODES, "KH", "1S", "X", ""])
    value = rng.choice([None, None, rng.randint(-12, 12), 1, 11])
    colour = rng.choice([None, None, *COLOURS])
    return Move(code, value, colour)


@pytest.mark.slow
@settings(max_examples=examples(1000), deadline=None)
@given(
    setup=setups(),
    seed=seeds,
    players=st.integers(0, 2**32),
    bot_share=st.sampled_from([0.0, 0.0, 0.2, 0.5]),
)
def test_random_tournaments_keep_every_invariant_and_end(
    setup: tuple[CardRules, int], seed: bytes, players: int, bot_share: float
) -> None:
    rules, seats = setup
    game, states = play_out(rules, seats, seed, players, bot_share)
    for state in states:
        check_state(state)
    final = game.state
    assert final.finished
    # The tokens follow from the sheet, and the winners from the tokens.
    for seat in range(seats):
        assert final.tokens[seat] == rules.tokens - sum(d.cells[seat] for d in final.deals)
    assert [d.number for d in final.deals] == list(range(1, len(final.deals) + 1))
    holding = [seat for seat in range(seats) if final.tokens[seat] > 0]
    outcome = final.outcome()
    assert outcome is not None
    if holding:
        assert list(outcome.winners) == holding and len(holding) == 1
    else:
        # Only a single-stock end can leave nobody holding tokens: those in share the win.
        assert rules.single_stock and set(outcome.winners) == set(final.deals[-1].losers)
    # Everything follows from (rules, seats, seed, moves).
    assert replay(rules, seats, seed, game.moves) == final


@settings(max_examples=examples(100), deadline=None)
@given(
    setup=setups(st.integers(2, 5)),
    seed=seeds,
    players=st.integers(0, 2**32),
    bot_share=st.sampled_from([0.0, 0.3]),
)
def test_the_legal_moves_and_the_validator_agree_and_views_hide_every_hand(
    setup: tuple[CardRules, int], seed: bytes, players: int, bot_share: float
) -> None:
    rules, seats = setup
    game, states = play_out(rules, seats, seed, players, bot_share)
    rng = random.Random(players + 1)
    for number, state in enumerate(states):
        legal = state.legal_moves()
        for move in legal:
            state.validate(move)
        assert len(set(legal)) == len(legal)
        for _ in range(8):
            move = random_move(rng)
            try:
                state.validate(move)
            except RuleError:
                assert move not in legal
            else:
                assert move in legal
        if number % 7 == 0 or state.finished:
            check_views(state)  # the slowest check: on a sample of the positions
    # Undo goes back exactly, all the way.
    while game.moves:
        game.pop()
        assert game.state == states[len(game.moves)]
