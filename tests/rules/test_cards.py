"""The card game's rules, one reading at a time, on hand-built tables."""

from __future__ import annotations

import random

import pytest

from games.rules import GameOverError, IllegalTurnError, InvalidRulesError, RuleError
from games.rules.cards import (
    NO_LEGAL_PLAY,
    STOCK_RAN_OUT,
    Card,
    CardGame,
    CardRules,
    CardView,
    DealRecord,
    DealStarted,
    Drew,
    Event,
    Lost,
    Move,
    Played,
    Restocked,
    Tournament,
    TournamentWon,
    deal_stories,
    new_seed,
    random_move,
    replay,
    seed_sha256,
)
from games.rules.engine import Outcome, State
from games.rules.errors import IllegalMoveError, InvalidMoveError, NotYourTurnError
from tests.rules.cardtable import SEED, cards, table


def played(events: tuple[Event, ...]) -> Played:
    first = events[0]
    assert isinstance(first, Played)
    return first


def legal(state: Tournament, code: str) -> list[Move]:
    return [move for move in state.legal_moves() if move.card == code]


# -- cards, rules and seeds ---------------------------------------------------------------


def test_card_codes_round_trip_and_know_their_colour() -> None:
    assert Card.from_code("10H").code == "10H"
    assert Card.from_code("JS").rank == "J" and Card.from_code("JS").suit == "S"
    assert [Card.from_code(c).colour for c in ("AH", "5D", "XR")] == ["red"] * 3
    assert [Card.from_code(c).colour for c in ("AS", "5C", "XB")] == ["black"] * 3
    assert eval(repr(Card.from_code("QD")), {"Card": Card}) == Card.from_code("QD")


@pytest.mark.parametrize("code", ["1H", "KS", "XX", "10", "", "ah", "11D"])
def test_an_unknown_card_code_is_refused_in_plain_words(code: str) -> None:
    with pytest.raises(InvalidMoveError, match="There is no card called"):
        Card.from_code(code)


def test_the_deck_has_46_cards_44_with_fewer_jacks_and_48_with_queens() -> None:
    deck = CardRules().deck()
    assert len(deck) == len(set(deck)) == 46
    assert {c.code for c in deck} >= {"AS", "10C", "JH", "XR", "XB"}
    assert not any(c.is_queen for c in deck)
    fewer = {c.code for c in CardRules(fewer_jacks=True).deck()}
    assert len(fewer) == 44 and "JH" not in fewer and "JS" not in fewer and "JD" in fewer
    with_queens = {c.code for c in CardRules(queens=True).deck()}
    assert len(with_queens) == 48 and {"QH", "QS"} <= with_queens and "QD" not in with_queens
    assert len(CardRules(fewer_jacks=True, queens=True).deck()) == 46


def test_card_rules_read_and_write_the_api_shape() -> None:
    rules = CardRules.from_dict({"preset": "cards", "tokens": 3, "queens": True})
    assert rules == CardRules(tokens=3, queens=True)
    assert rules.to_dict() == {
        "preset": "cards",
        "tokens": 3,
        "fewer_jacks": False,
        "queens": True,
        "single_stock": False,
    }
    assert CardRules.from_dict(rules.to_dict()) == rules
    assert CardRules.from_dict({}) == CardRules()


@pytest.mark.parametrize(
    "data",
    [
        {"tokens": 0},
        {"tokens": 10},
        {"tokens": True},
        {"tokens": "5"},
        {"queens": 1},
        {"jokers": True},
        {"preset": "thirty"},
    ],
)
def test_card_rules_refuse_anything_unknown_or_out_of_range(data: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        CardRules.from_dict(data)


@pytest.mark.parametrize("seats", [1, 11])
def test_a_card_game_has_two_to_ten_players(seats: int) -> None:
    with pytest.raises(InvalidRulesError, match="from 2 to 10 players"):
        Tournament.start(CardRules(), seats, SEED)


def test_a_seed_is_secret_hex_with_a_public_commitment() -> None:
    seed = new_seed()
    assert len(seed) == 32 and int(seed, 16) >= 0 and new_seed() != seed
    assert seed_sha256(seed) == seed_sha256(bytes.fromhex(seed))
    assert len(seed_sha256(seed)) == 64
    assert Tournament.start(CardRules(), 4, seed) == Tournament.start(
        CardRules(), 4, bytes.fromhex(seed)
    )
    with pytest.raises(InvalidRulesError):
        Tournament.start(CardRules(), 4, "not hex")


def test_the_first_deal_is_dealt_from_the_seed_and_starts_clockwise_with_seat_0() -> None:
    state = Tournament.start(CardRules(), 4, SEED)
    assert state == Tournament.start(CardRules(), 4, SEED)
    assert state != Tournament.start(CardRules(), 4, SEED + b"!")
    deal = state.deal
    assert state.to_move() == 0 and deal.direction == "clockwise" and deal.number == 1
    assert [len(hand) for hand in deal.hands] == [3, 3, 3, 3]
    assert len(deal.stock) == 46 - 12 and deal.pile == () and deal.total == 0
    assert deal.colour is None
    assert sorted(c.code for c in (*deal.stock, *sum(deal.hands, ()))) == sorted(
        c.code for c in CardRules().deck()
    )
    assert state.log == (DealStarted(1, 0),)


def test_the_seed_never_shows_in_a_repr() -> None:
    state = Tournament.start(CardRules(), 2, b"\x42" * 16)
    assert "42424242" not in repr(state)


def test_the_tournament_state_speaks_the_engine_protocol() -> None:
    state: State[Move, tuple[Event, ...], CardView] = Tournament.start(CardRules(), 3, SEED)
    move = state.legal_moves()[0]
    after, public = state.play(move)
    assert after.to_move() == 1 and isinstance(public[0], Played)
    assert after.outcome() is None and after.view(None).hand is None


# -- the total ------------------------------------------------------------------------------


def test_the_first_card_on_an_empty_pile_counts_as_the_same_colour() -> None:
    state = table("7S 9D 2C", "AH 2H 3H")
    after, events = state.play(Move("7S"))
    assert after.deal.total == 7 and after.deal.colour == "black"
    assert played(events) == Played(0, "7S", None, None, 7, "black", "clockwise")
    ace = table("AD 9D 2C", "AH 2H 3H")
    assert legal(ace, "AD") == [Move("AD", 1), Move("AD", 11)]
    assert ace.play(Move("AD", 11))[0].deal.total == 11


def test_a_card_of_the_same_colour_adds_its_value() -> None:
    state = table("7H 9C 2C", "AH 2H 3H", total=10, colour="red", pile="5D")
    after, _ = state.play(Move("7H"))
    assert after.deal.total == 17 and after.deal.colour == "red"


def test_the_opposite_colour_takes_the_total_down_to_a_multiple_of_five() -> None:
    state = table("7S 9C 2C", "AH 2H 3H", total=17, colour="red", pile="5D")
    after, _ = state.play(Move("7S"))
    assert after.deal.total == 10 and after.deal.colour == "black"
    to_zero = table("7S 9C 2C", "AH 2H 3H", total=7, colour="red", pile="5D")
    assert to_zero.play(Move("7S"))[0].deal.total == 0


def test_otherwise_the_opposite_colour_takes_one_off() -> None:
    state = table("6S 9C 2C", "AH 2H 3H", total=17, colour="red", pile="5D")
    assert state.play(Move("6S"))[0].deal.total == 16
    # Taking more than the total never lands on a multiple of five below 0: one off.
    assert state.play(Move("9C"))[0].deal.total == 16


def test_an_opposite_colour_card_that_would_go_below_0_cannot_be_played() -> None:
    state = table("5S 9C JD", "AH 2H 3H", total=0, colour="red", pile="5D")
    assert [move.card for move in state.legal_moves()] == ["JD"] * 11
    with pytest.raises(IllegalMoveError, match="below 0"):
        state.play(Move("5S"))


def test_a_card_that_would_pass_30_cannot_be_played() -> None:
    state = table("5H 9C JD", "AH 2H 3H", total=26, colour="red", pile="5D")
    assert legal(state, "5H") == []
    with pytest.raises(IllegalMoveError, match="would take the total to 31 – above 30"):
        state.play(Move("5H"))
    assert table("4H", "2S", total=26, colour="red", pile="5D").play(Move("4H"))[0].deal.total == 30


def test_an_ace_is_offered_once_per_legal_value_even_when_both_give_the_same_total() -> None:
    # Opposite colour on 15: 15 - 1 = 14 is no multiple of five, 15 - 11 = 4 is not either,
    # so both come to 14; the player may still say either.
    same_total = table("AH 9C 2C", "2H", total=15, colour="black", pile="5S")
    assert legal(same_total, "AH") == [Move("AH", 1), Move("AH", 11)]
    assert {same_total.play(m)[0].deal.total for m in legal(same_total, "AH")} == {14}
    # On 16 the two values reach different multiples of five.
    choice = table("AS 9C 2C", "2H", total=16, colour="red", pile="5D")
    assert [choice.play(m)[0].deal.total for m in legal(choice, "AS")] == [15, 5]
    # Same colour on 20: 11 would pass 30.
    high = table("AH 9C 2C", "2H", total=20, colour="red", pile="5D")
    assert legal(high, "AH") == [Move("AH", 1)]
    with pytest.raises(IllegalMoveError, match="above 30"):
        high.play(Move("AH", 11))


def test_a_jack_counts_any_whole_number_from_minus_10_to_10_within_0_to_30() -> None:
    state = table("JS 9C 2C", "2H", total=5, colour="red", pile="5D")
    assert [m.value for m in legal(state, "JS")] == list(range(-5, 11))
    # Irrespective of colour: a black Jack on red adds, and may count 0.
    after, _ = state.play(Move("JS", 3))
    assert after.deal.total == 8 and after.deal.colour == "black"
    assert state.play(Move("JS", 0))[0].deal.total == 5
    assert state.play(Move("JS", -5))[0].deal.total == 0
    with pytest.raises(IllegalMoveError, match="below 0"):
        state.play(Move("JS", -6))
    high = table("JH", "2H", total=25, colour="black", pile="5S")
    assert [m.value for m in legal(high, "JH")] == list(range(-10, 6))
    after_high, _ = high.play(Move("JH", -10))
    assert after_high.deal.total == 15 and after_high.deal.colour == "red"


def test_a_joker_keeps_the_total_reverses_the_direction_and_may_name_a_colour() -> None:
    state = table("2H", "XB 9C 2C", "3H", "4H", total=12, colour="red", pile="5D", to_move=1)
    assert legal(state, "XB") == [Move("XB", None, "red"), Move("XB", None, "black"), Move("XB")]
    after, events = state.play(Move("XB", None, "red"))
    assert after.deal.total == 12 and after.deal.colour == "red"
    assert after.deal.direction == "counterclockwise" and after.to_move() == 0
    assert played(events).declared == "red" and played(events).direction == "counterclockwise"
    plain, _ = state.play(Move("XB"))
    assert plain.deal.colour == "black"
    # A second Joker turns the table back.
    back = table(
        "2H", "XR 9C 2C", "3H", "4H", total=12, colour="red", pile="XB", to_move=1, step=-1
    )
    again, _ = back.play(Move("XR"))
    assert again.deal.direction == "clockwise" and again.to_move() == 2


def test_the_next_card_is_compared_with_a_jokers_declared_colour() -> None:
    state = table("5S 9C", "2H", total=20, colour="red", pile="XB")
    # Red was declared: a black 5 is the opposite colour and takes the total to 15.
    assert state.play(Move("5S"))[0].deal.total == 15


def test_a_queen_doubles_on_the_same_colour_and_halves_rounding_down_on_the_opposite() -> None:
    rules = CardRules(queens=True)
    assert table("QH", "2H", total=12, colour="red", pile="5D", rules=rules).play(Move("QH"))[
        0
    ].deal.total == (24)
    halved = table("QS", "2H", total=13, colour="red", pile="5D", rules=rules)
    assert halved.play(Move("QS"))[0].deal.total == 6
    too_high = table("QH 2C", "2H", total=16, colour="red", pile="5D", rules=rules)
    assert legal(too_high, "QH") == []
    assert legal(table("QS", "2H", total=0, colour="red", pile="5D", rules=rules), "QS") == [
        Move("QS")
    ]


# -- drawing and the stock ------------------------------------------------------------------


def test_the_player_draws_one_card_and_only_the_count_is_public() -> None:
    state = table("7H 9C 2C", "AH 2H 3H", total=10, colour="red", pile="5D", stock="8S 4D")
    after, events = state.play(Move("7H"))
    assert after.deal.hands[0] == cards("9C 2C 8S") and after.deal.stock == cards("4D")
    assert events[1] == Drew(0, 1)
    assert "8S" not in repr(events) and "8S" not in repr(after.view(None))
    assert "8S" not in repr(after.view(1))
    assert after.view(0).hand == ("9C", "2C", "8S")


def test_drawing_the_last_card_turns_all_but_the_top_of_the_pile_into_a_new_stock() -> None:
    state = table("7H 9C 2C", "AH 2H 3H", total=10, colour="red", pile="5D 6D 10S", stock="8S")
    after, events = state.play(Move("7H"))
    assert after.deal.pile == cards("7H")
    assert sorted(after.deal.stock, key=str) == sorted(cards("5D 6D 10S"), key=str)
    assert after.deal.restocks == 1 and Restocked(3) in events
    # The new order follows from the seed, the deal and the restock count.
    assert after == state.play(Move("7H"))[0]


def test_with_no_stock_and_only_the_top_card_the_player_simply_draws_nothing() -> None:
    state = table("7H 9C 2C", "AH 2H 3H")
    after, events = state.play(Move("7H"))
    assert events[1] == Drew(0, 0) and not any(isinstance(e, Restocked) for e in events)
    assert after.deal.hands[0] == cards("9C 2C") and after.deal.stock == ()


def test_single_stock_ends_the_deal_and_everyone_still_in_gives_up_a_token() -> None:
    rules = CardRules(single_stock=True, tokens=3)
    state = table(
        "7H 9C 2C", "", "AH 2H 3H", "4S 5S 6S",
        total=10, colour="red", pile="5D", stock="8S", tokens=(3, 0, 2, 3), rules=rules,
    )  # fmt: skip
    after, events = state.play(Move("7H"))
    assert after.tokens == (2, 0, 1, 2)
    assert after.deals == (DealRecord(1, (0, 2, 3), (1, 0, 1, 1), STOCK_RAN_OUT),)
    assert [e for e in events if isinstance(e, Lost)] == [
        Lost(seat, STOCK_RAN_OUT) for seat in (0, 2, 3)
    ]
    # The next deal starts with the player who would have played next, clockwise.
    assert DealStarted(2, 2) in events
    assert after.to_move() == 2 and after.deal.number == 2 and after.deal.step == 1
    assert after.deal.hands[1] == () and len(after.deal.hands[2]) == 3


def test_after_a_single_stock_end_the_next_deal_skips_a_player_who_just_went_out() -> None:
    rules = CardRules(single_stock=True)
    state = table(
        "7H 9C 2C", "AH 2H 3H", "4S 5S 6S",
        total=10, colour="red", pile="5D", stock="8S", tokens=(2, 1, 2), rules=rules,
    )  # fmt: skip
    after, _ = state.play(Move("7H"))
    assert after.tokens == (1, 0, 1) and after.to_move() == 2


def test_a_single_stock_end_that_leaves_nobody_with_tokens_is_a_shared_win() -> None:
    rules = CardRules(single_stock=True, tokens=1)
    state = table(
        "7H 9C 2C", "", "AH 2H 3H",
        total=10, colour="red", pile="5D", stock="8S", tokens=(1, 0, 1), rules=rules,
    )  # fmt: skip
    after, events = state.play(Move("7H"))
    assert after.outcome() == Outcome((0, 2), "shared")
    assert events[-1] == TournamentWon((0, 2)) and after.to_move() is None


# -- losing a deal, and the tournament ------------------------------------------------------


def test_a_player_with_no_legal_play_at_the_start_of_their_turn_loses_the_deal() -> None:
    state = table("4H 9C 2C", "5H 6D 7H", "AS", total=26, colour="red", pile="5D", stock="8S 2D")
    after, events = state.play(Move("4H"))
    assert after.tokens == (5, 4, 5)
    assert Lost(1, NO_LEGAL_PLAY) in events
    assert after.deals == (DealRecord(1, (1,), (0, 1, 0), NO_LEGAL_PLAY),)
    # The next deal is dealt at once; the loser starts it, clockwise, on an empty pile.
    assert events[-1] == DealStarted(2, 1)
    assert after.to_move() == 1 and after.deal.number == 2 and after.deal.total == 0
    assert after.deal.direction == "clockwise" and after.deal.pile == ()
    assert [len(hand) for hand in after.deal.hands] == [3, 3, 3]


def test_a_player_who_can_still_play_does_not_lose() -> None:
    # A Jack can always count 0, and an opposite-colour card fits on anything above 0.
    for hand in ("5H 6D JS", "5H 6D 7S"):
        state = table("4H 9C 2C", hand, "AS", total=26, colour="red", pile="5D", stock="8S 2D")
        after, _ = state.play(Move("4H"))
        assert after.to_move() == 1 and after.tokens == (5, 5, 5)


def test_a_loser_left_without_tokens_is_out_and_the_next_player_clockwise_starts() -> None:
    state = table(
        "4H 9C 2C", "5H 6D 7H", "AS", "2S",
        total=26, colour="red", pile="5D", stock="8S 2D", tokens=(3, 1, 2, 3),
    )  # fmt: skip
    after, events = state.play(Move("4H"))
    assert after.tokens == (3, 0, 2, 3) and after.view(None).out == (False, True, False, False)
    assert events[-1] == DealStarted(2, 2) and after.to_move() == 2
    assert after.deal.hands[1] == ()


def test_the_last_player_holding_tokens_wins_and_then_nothing_more_is_played() -> None:
    state = table("4H 9C 2C", "5H 6D 7H", total=26, colour="red", pile="5D", tokens=(1, 1))
    after, events = state.play(Move("4H"))
    assert after.outcome() == Outcome((0,), "last_holding_tokens")
    assert events[-1] == TournamentWon((0,)) and after.finished
    assert after.to_move() is None and after.legal_moves() == []
    with pytest.raises(GameOverError):
        after.play(Move("9C"))
    assert after.view(None).seed == SEED.hex() == after.reveal()
    with pytest.raises(IllegalTurnError, match="once the tournament is over"):
        state.reveal()
    assert state.view(None).seed is None


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        (Move("8H"), IllegalMoveError, "You do not hold that card."),
        (Move("ZZ"), InvalidMoveError, "There is no card called “ZZ”."),
        (Move("AH"), InvalidMoveError, "Say whether the Ace counts 1 or 11."),
        (Move("AH", 5), InvalidMoveError, "Say whether the Ace counts 1 or 11."),
        (Move("JS"), InvalidMoveError, "A Jack counts a whole number from −10 to 10."),
        (Move("JS", 11), InvalidMoveError, "A Jack counts a whole number from −10 to 10."),
        (Move("7H", 7), InvalidMoveError, "Only an Ace or a Jack is given a value."),
        (Move("7H", None, "red"), InvalidMoveError, "Only a Joker can name a colour."),
        (Move("XR", None, "green"), InvalidMoveError, "A Joker names red, black or no colour."),  # type: ignore[arg-type]
        (Move("JS", True), InvalidMoveError, "A card's value is a whole number."),
    ],
)
def test_a_move_the_rules_refuse_raises_a_sentence_a_player_understands(
    move: Move, error: type[RuleError], message: str
) -> None:
    state = table("AH JS 7H XR", "2H", total=10, colour="red", pile="5D")
    with pytest.raises(error) as raised:
        state.play(move)
    assert str(raised.value) == message
    assert raised.value.template % raised.value.params == message if raised.value.params else True


def test_a_move_out_of_turn_is_refused() -> None:
    state = table("7H", "2H", total=10, colour="red", pile="5D")
    with pytest.raises(NotYourTurnError, match="It is not your turn"):
        state.play(Move("2H"), seat=1)
    assert state.play(Move("7H"), seat=0)[0].deal.total == 17
    state.validate(Move("7H"), seat=0)


def test_moves_read_and_write_the_api_shape() -> None:
    assert Move.from_dict({"card": "AH", "value": 11}) == Move("AH", 11)
    assert Move.from_dict({"card": "XR", "colour": "black"}) == Move("XR", None, "black")
    assert Move.from_dict({"card": "QD"}) == Move("QD")
    assert Move("XR").to_dict() == {"card": "XR", "colour": None}
    assert Move("JS", -4).to_dict() == {"card": "JS", "value": -4}
    for bad in ({}, {"card": 5}, {"card": "AH", "value": "1"}, {"card": "AH", "dice": [1]}):
        with pytest.raises(InvalidMoveError):
            Move.from_dict(bad)


# -- what each seat sees --------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_its_legal_moves_only_on_its_turn() -> None:
    state = table("7H 9C", "2H 3S", total=10, colour="red", pile="5D 6D", stock="8S 4D")
    mine = state.view(0)
    assert mine.hand == ("7H", "9C") and mine.legal == tuple(state.legal_moves())
    theirs = state.view(1)
    assert theirs.hand == ("2H", "3S") and theirs.legal == ()
    watcher = state.view(None)
    assert watcher.hand is None and watcher.legal == ()
    assert watcher.cards == (2, 2) and watcher.stock_count == 2 and watcher.pile_count == 2
    assert watcher.pile_top == "6D" and watcher.total == 10 and watcher.colour == "red"
    data = watcher.to_dict()
    assert "hand" not in data and "seed" not in data
    assert data["deal"] == {
        "number": 1,
        "to_move": 0,
        "direction": "clockwise",
        "total": 10,
        "colour": "red",
        "pile_top": "6D",
        "pile_count": 2,
        "stock_count": 2,
    }
    assert mine.to_dict()["hand"] == ["7H", "9C"]
    assert {"card": "7H"} in mine.to_dict()["legal"]


def test_replay_and_push_pop_agree() -> None:
    game = CardGame(CardRules(tokens=2), 3, SEED)
    for _ in range(40):
        game.push(game.state.legal_moves()[0])
    assert replay(CardRules(tokens=2), 3, SEED, game.moves) == game.state
    before = replay(CardRules(tokens=2), 3, SEED, game.moves[:-1])
    game.pop()
    assert game.state == before
    with pytest.raises(IllegalTurnError):
        CardGame(CardRules(), 2, SEED).pop()


def _random_tournament(seats: int, tokens: int, seed: str) -> list[Move]:
    rng = random.Random(seed)
    state = Tournament.start(CardRules(tokens=tokens), seats, seed)
    moves: list[Move] = []
    while (seat := state.to_move()) is not None:
        move = random_move(state.view(seat), rng)
        state, _ = state.play(move)
        moves.append(move)
    return moves


def test_a_finished_tournament_tells_each_deal_with_the_hands_dealt() -> None:
    rules, seed = CardRules(tokens=2), "ab" * 16
    moves = _random_tournament(3, 2, seed)
    stories = deal_stories(rules, 3, seed, moves)
    final = replay(rules, 3, seed, moves)
    assert [story.record for story in stories] == list(final.deals)
    assert [story.number for story in stories] == list(range(1, len(final.deals) + 1))
    first = Tournament.start(rules, 3, seed).deal.hands
    assert stories[0].hands == tuple(tuple(card.code for card in hand) for hand in first)
    # Every card played in a deal came from a hand dealt or a card drawn later in it.
    played = [e.card for story in stories for e in story.events if isinstance(e, Played)]
    assert len(played) == len(moves)
    for story in stories:
        out = [seat for seat, hand in enumerate(story.hands) if not hand]
        assert all(len(hand) == 3 for hand in story.hands if hand)
        assert not any(getattr(e, "seat", None) in out for e in story.events)


def test_no_hand_is_told_before_the_tournament_is_over() -> None:
    rules, seed = CardRules(tokens=2), "cd" * 16
    moves = _random_tournament(3, 2, seed)
    with pytest.raises(IllegalTurnError):
        deal_stories(rules, 3, seed, moves[:-1])
