"""What a card move costs early and late in a long tournament, through the store.

    python bench/card_moves.py [--early 10] [--late 1000] [--samples 21]

Plays one ten-seat, nine-token tournament with random legal cards through `store.play`
on a throwaway SQLite database (or DATABASE_URL), and times the moves around move `--early`
and move `--late`. Before each timed move the process forgets everything it remembered, as a
worker that did not write the last move would: the move then resumes the game from its kept
state. Prints a Markdown table with the medians and their ratio (target: at most 1.2).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--early", type=int, default=10)
    parser.add_argument("--late", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=21)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="thirty-card-bench-") as tmp:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
        os.environ.setdefault("THIRTY_DATA_DIR", tmp)
        os.environ["DJANGO_SETTINGS_MODULE"] = "thirty.settings"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print(measure(args.early, args.late, args.samples))


def measure(early: int, late: int, samples: int) -> str:
    from games import cache, store
    from games.kinds.cards import tournaments
    from games.models import Game
    from games.rules import cards

    rng = random.Random(30)
    players = [store.Player(f"P{seat}") for seat in range(10)]
    game, _ = tournaments.create_card_game("Bench", players, cards.CardRules(tokens=9))
    timings: dict[str, list[float]] = {"early": [], "late": []}
    windows = {"early": range(early, early + samples), "late": range(late, late + samples)}
    number = 0
    while number < late + samples:
        game = Game.objects.get(pk=game.pk)
        state = tournaments.load_tournament(game)
        if state.finished:
            raise SystemExit(f"the tournament ended after {number} moves; ask for fewer")
        seat = state.to_move()
        assert seat is not None
        move = rng.choice(state.legal_moves())
        number += 1
        timed = next((name for name, moves in windows.items() if number in moves), None)
        if timed:
            cache.clear()
            game = Game.objects.get(pk=game.pk)
            start = time.perf_counter()
            store.play(game.pk, seat, move, version=game.version)
            timings[timed].append(time.perf_counter() - start)
        else:
            store.play(game.pk, seat, move, version=game.version)
    early_ms = statistics.median(timings["early"]) * 1000
    late_ms = statistics.median(timings["late"]) * 1000
    return "\n".join(
        [
            "| Measure | Value | Target |",
            "|---|---|---|",
            f"| Card move at move {early}, median of {samples} (ms) | {early_ms:.2f} | |",
            f"| Card move at move {late}, median of {samples} (ms) | {late_ms:.2f} | |",
            f"| Move {late} ÷ move {early} | {late_ms / early_ms:.2f} | ≤ 1.2 |",
        ]
    )


if __name__ == "__main__":
    main()
