"""A computer player for the card game that sees only what its own seat may see.

`choose_move(view, rng)` takes the seat's `CardView` (its own hand, its legal moves and the
public information) and never the `Tournament`, so it cannot look at other hands or at the
stock order. The only unknowns it reasons about are the unseen cards: the deck less its own
hand and the face-up pile (cards played before the last restock went back into the stock).

The heuristic scores every legal move and plays the best (ties broken by `rng`):

1. Attack the next player. A player loses only when all their cards are dead on the total and
   colour they meet: same-colour cards that would pass 30 (and a Queen past 15), or, on a
   total of 0, every opposite-colour card but a Queen. Counting the dead cards among the
   unseen gives the chance that a hand of the next player's size is all dead (hypergeometric),
   which is the main term. The extremes are where it bites: 30 (or just below) in a colour,
   or 0 in a colour; Aces' two values and Jacks' range are tried in full to reach them.
2. Keep the shield. A Jack or a Joker in hand can always be played, so holding one means the
   bot cannot lose at the start of its turn; spending one costs a fixed amount unless the
   attack it makes is worth more, or nothing else is legal.
3. Keep a safe hand. What it keeps should be hard to kill later: it estimates the share of
   (total, colour) positions in which all its remaining cards would be dead, and prefers
   mixed colours and small cards.
4. A small term for the share of dead cards the next player faces, so that when no attack is
   likely the bot still leaves positions that are awkward rather than comfortable.

The random generator only breaks exact ties, so the bot is deterministic given `rng`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, lru_cache

from ..errors import IllegalMoveError, gettext_noop
from .deck import ALL_CODES, BLACK, COLOURS, RED, Card, CardRules, Colour
from .game import MAX_TOTAL, CardView, Move, card_total, has_legal_move

# Weights of the terms above, in units of "chance the next player loses". Tuned with
# bench/cards_bot.py.
WILD_COST = 0.5
OWN_RISK = 1.5
PRESSURE = 0.05


def random_move(view: CardView, rng: random.Random) -> Move:
    """A legal move chosen uniformly at random: the baseline opponent."""
    if not view.legal:
        raise IllegalMoveError(gettext_noop("It is not your turn."))
    return rng.choice(view.legal)


def choose_move(view: CardView, rng: random.Random) -> Move:
    """The bot's move for the seat that `view` belongs to (it must be that seat's turn)."""
    legal = view.legal
    if not legal or view.hand is None or view.seat is None:
        raise IllegalMoveError(gettext_noop("It is not your turn."))
    if len(legal) == 1:
        return legal[0]
    hand = [Card.from_code(code) for code in view.hand]
    unseen = Unseen.of(view)
    step = 1 if view.direction == "clockwise" else -1
    # Who plays next (a Joker turns the table round), and what playing each card costs the
    # bot's own hand, are the same for every value of that card: work them out once.
    size = {s: view.cards[_next_seat(view.tokens, view.seat, s)] for s in (step, -step)}
    cost = {code: _spending_cost(view.hand, code) for code in view.hand}
    cards = {card.code: card for card in hand}
    ahead, behind = size[step], size[-step]
    seen, total_now, colour_now = max(unseen.count, 1), view.total, view.colour
    attacks: dict[tuple[int, int], float] = {}  # by (dead cards, target's hand size)
    best: list[Move] = []
    best_score = float("-inf")
    for move in legal:
        card = cards[move.card]
        total = card_total(total_now, colour_now, card, move.value)
        target_size = behind if card.is_joker else ahead
        dead = unseen.dead(total, move.colour or card.colour)
        attack = attacks.get((dead, target_size))
        if attack is None:
            attack = _all_dead(dead, seen, target_size) + PRESSURE * dead / seen
            attacks[dead, target_size] = attack
        score = attack - cost[move.card]
        if score > best_score + 1e-12:
            best, best_score = [move], score
        elif score > best_score - 1e-12:
            best.append(move)
    return best[0] if len(best) == 1 else rng.choice(best)


@cache
def _spending_cost(hand: tuple[str, ...], code: str) -> float:
    """What playing `code` from `hand` costs: a wild card given up, and the risk of the rest."""
    kept = list(hand)
    kept.remove(code)
    cost = OWN_RISK * _risk(tuple(sorted(kept)))
    card = Card.from_code(code)
    return cost + WILD_COST if card.is_jack or card.is_joker else cost


# Each code's colour and worth for counting dead cards: an Ace counts 1, a Queen -1 (it is
# dead only by doubling), a Jack or a Joker 0 (never dead).
_WORTH: dict[str, tuple[Colour, int]] = {
    card.code: (card.colour, -1 if card.is_queen else 1 if card.is_ace else card.number or 0)
    for card in map(Card.from_code, ALL_CODES)
}
_HIGHEST = 10  # no card is worth more


@dataclass(frozen=True)
class Unseen:
    """What the bot knows of the cards it cannot see, summed up for counting dead cards.

    `above[colour][x]` counts unseen Aces and number cards of that colour worth more than x
    (an Ace as 1) for x in 0..9 (none is worth more than 10); `above[colour][0]` is all of
    them. `queens[colour]` counts the unseen Queens. Jacks and Jokers are never dead, so only
    `count` includes them.
    """

    count: int
    above: dict[Colour, tuple[int, ...]]
    queens: dict[Colour, int]

    @classmethod
    def of(cls, view: CardView) -> Unseen:
        """The deck less the viewer's hand and the face-up pile (the rest is in the stock)."""
        return _unseen(view.rules, frozenset((*view.pile, *(view.hand or ()))))

    def dead(self, total: int, colour: Colour) -> int:
        """How many unseen cards could not be played on (total, colour).

        On 0 every opposite-colour card but a Queen would go below 0; above 0 an opposite
        colour always fits (it drops to a multiple of 5 or by 1), and a same-colour card is
        dead when it passes 30 (a Queen when doubling does).
        """
        if total == 0:
            return self.above[RED if colour == BLACK else BLACK][0]
        room = MAX_TOTAL - total
        dead = self.above[colour][room] if room < _HIGHEST else 0
        return dead + self.queens[colour] if 2 * total > MAX_TOTAL else dead


@lru_cache(maxsize=4096)
def _unseen(rules: CardRules, seen: frozenset[str]) -> Unseen:
    # Cached: the same cards are seen again by the same seat between draws, and by the
    # copies of the bot in simulations.
    worth = {colour: [0] * (_HIGHEST + 1) for colour in COLOURS}
    queens = dict.fromkeys(COLOURS, 0)
    count = 0
    for card in rules.deck():
        if card.code in seen:
            continue
        count += 1
        colour, value = _WORTH[card.code]
        if value > 0:
            worth[colour][value] += 1
        elif value < 0:
            queens[colour] += 1
    above: dict[Colour, tuple[int, ...]] = {}
    for colour in COLOURS:
        counts, more = [0] * _HIGHEST, 0
        for x in range(_HIGHEST - 1, -1, -1):
            more += worth[colour][x + 1]
            counts[x] = more
        above[colour] = tuple(counts)
    return Unseen(count, above, queens)


def _all_dead(dead: int, seen: int, size: int) -> float:
    """The chance that `size` cards drawn from `seen` unseen cards are all among `dead`."""
    if size == 0:
        return 1.0
    chance = 1.0
    for i in range(size):
        if dead - i <= 0 or seen - i <= 0:
            return 0.0
        chance *= (dead - i) / (seen - i)
    return chance


@cache
def _risk(codes: tuple[str, ...]) -> float:
    """The share of (total, colour) positions in which every kept card would be dead."""
    kept = [Card.from_code(code) for code in codes]
    if not kept:
        return 1.0
    positions = [(total, colour) for total in range(MAX_TOTAL + 1) for colour in COLOURS]
    dead = sum(1 for total, colour in positions if not has_legal_move(kept, total, colour))
    return dead / len(positions)


def _next_seat(tokens: tuple[int, ...], seat: int, step: int) -> int:
    seats = len(tokens)
    for distance in range(1, seats + 1):
        candidate = (seat + step * distance) % seats
        if tokens[candidate] > 0:
            return candidate
    return seat
