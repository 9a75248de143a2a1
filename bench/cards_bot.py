"""How well the card game's computer player plays: seeded, pure, no server needed.

    python bench/cards_bot.py [--tournaments 1000] [--self-play 300] [--tokens 5] [--workers 2]

Plays three-player tournaments (seats rotate so that the bot starts a third of them) of the
bot against two random-legal players, then the bot against two copies of itself, and prints a
Markdown table of win rates (a shared win counts as a fraction). Chance is 1/3 per seat; in
self-play the figure only checks that no seat is favoured (it should be near 1/3). Self-play
tournaments are the longest (about 800 moves, every one chosen by the bot), so fewer are
played by default.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.cards import CardRules, CardView, Move, Tournament, choose_move
from games.rules.cards.bot import random_move

Player = Callable[[CardView, random.Random], Move]
PLAYERS: dict[str, Player] = {"bot": choose_move, "random": random_move}
SEATS = 3
MAX_MOVES = 100_000  # far beyond any real tournament: a guard, not a limit


def play_tournament(rules: CardRules, players: Sequence[str], index: int) -> tuple[float, ...]:
    """Each seat's share of the win in tournament `index` (seeded from the index)."""
    seed = hashlib.sha256(b"cards-bot-bench:%d" % index).digest()
    rngs = [random.Random(f"{index}:{seat}") for seat in range(len(players))]
    state = Tournament.start(rules, len(players), seed)
    for _ in range(MAX_MOVES):
        seat = state.to_move()
        if seat is None:
            break
        move = PLAYERS[players[seat]](state.view(seat), rngs[seat])
        state, _ = state.play(move)
    outcome = state.outcome()
    assert outcome is not None, "a tournament did not end"
    return tuple(
        1 / len(outcome.winners) if seat in outcome.winners else 0.0 for seat in range(SEATS)
    )


def _bot_share(job: tuple[CardRules, str, int]) -> float:
    """The share of the win of the bot at seat `index % 3`, the others being `opponent`."""
    rules, opponent, index = job
    bot_seat = index % SEATS
    players = [opponent] * SEATS
    players[bot_seat] = "bot"
    return play_tournament(rules, players, index)[bot_seat]


def win_rate(rules: CardRules, opponent: str, tournaments: int, workers: int) -> float:
    jobs = [(rules, opponent, index) for index in range(tournaments)]
    if workers <= 1:
        return sum(map(_bot_share, jobs)) / tournaments
    with ProcessPoolExecutor(workers) as pool:
        return sum(pool.map(_bot_share, jobs, chunksize=25)) / tournaments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--self-play", type=int, default=300)
    parser.add_argument("--tokens", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rules = CardRules(tokens=args.tokens)
    print(f"Three-player tournaments, {args.tokens} tokens each\n")
    print("| bot against | tournaments | bot's win rate | chance | seconds |")
    print("|---|---|---|---|---|")
    for opponent, label, count in (
        ("random", "two random-legal players", args.tournaments),
        ("bot", "two copies of itself", args.self_play),
    ):
        started = time.perf_counter()
        rate = win_rate(rules, opponent, count, args.workers)
        elapsed = time.perf_counter() - started
        print(f"| {label} | {count} | {rate:.3f} | {1 / SEATS:.3f} | {elapsed:.1f} |")


if __name__ == "__main__":
    main()
