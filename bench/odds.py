"""The dice part of `make bench`: the odds solver's speed and how well the computer plays.

    python bench/odds.py [--doc docs/benchmarks.md] [--turns 100000]

No server and no database: everything measured here is the pure `games.rules` package.

1. Cold solve: in a fresh Python process per target 30..35 and set-aside rule, the time of
   `turn_odds(target, rule)` after the import (3 processes each: the best wall time, which
   other load on a shared machine inflates least, and the median CPU time) [<= 200 ms].
2. Hint look-up: with the solver warm, `keep_choices` for every distinct roll of six dice
   and 2,000 seeded random rolls of 1..6 dice, never asked before [<= 1 ms].
3. The computer against two simple players, 100,000 seeded turns each: the rate of beating
   the target in default Thirty (exact optimum 0.538447) and points per turn in 30s.
4. The game-length estimate of the create form: its time, computed in a fresh process as the
   first request for a rule set and table size pays it, and its percentiles against a long
   run with another seed; the time to go from the start of a game (the game page's line).
5. Luck and skill: the analysis of every turn of a 250-turn game of rolled turns (Thirty and
   30s, random players), in a fresh process as a game page's first reader pays it
   [well under a second].
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from games.rules.dice import Position, RuleSet, odds  # noqa: E402
from games.rules.dice import bot as dice_bot  # noqa: E402
from games.rules.dice import estimate as estimates  # noqa: E402

Keep = Callable[[tuple[int, ...], int], tuple[int, ...]]

COLD = (
    "import time, sys\n"
    "from games.rules.dice import odds\n"
    "start = time.perf_counter(); cpu = time.process_time()\n"
    "odds.turn_odds({target}, {rule!r})\n"
    "print(time.perf_counter() - start, time.process_time() - cpu)\n"
)


def in_fresh_process(code: str) -> str:
    """What `code` prints, run in a new Python process: a first request's cold start."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout


def best_of_three(code: str) -> dict[str, float]:
    """`code`, which prints its wall and CPU seconds, in 3 fresh processes: the best wall
    time (which other load on a shared machine inflates least) and the median CPU time."""
    runs = [tuple(map(float, in_fresh_process(code).split())) for _ in range(3)]
    return {
        "wall_ms": min(wall for wall, _ in runs) * 1000,
        "cpu_ms": statistics.median(cpu for _, cpu in runs) * 1000,
    }


def cold_solves() -> list[dict[str, Any]]:
    return [
        {"rule": rule, "target": target, **best_of_three(COLD.format(target=target, rule=rule))}
        for rule in ("any", "one")
        for target in range(30, 36)
    ]


def hint_lookups() -> dict[str, float]:
    for rule in ("any", "one"):
        odds.turn_odds(30, rule)
    rng = random.Random(2024)
    asks: list[tuple[tuple[int, ...], int, odds.SetAside]] = [
        (faces, 0, "any") for faces, _ in odds._rolls(6)
    ]
    for _ in range(2000):
        left = rng.randint(1, 6)
        roll = tuple(rng.randint(1, 6) for _ in range(left))
        asks.append(
            (roll, sum(rng.randint(1, 6) for _ in range(6 - left)), rng.choice(["any", "one"]))
        )
    walls, cpus = [], []
    odds._choices.cache_clear()
    for roll, kept, rule in asks:
        odds._choices.cache_clear()  # every look-up is a fresh one
        start, cpu = time.perf_counter(), time.process_time()
        odds.keep_choices(roll, kept, 30, rule)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    walls.sort()
    cpus.sort()
    return {
        "lookups": len(asks),
        "median_ms": statistics.median(walls) * 1000,
        "p99_ms": walls[int(len(walls) * 0.99)] * 1000,
        "max_ms": walls[-1] * 1000,
        "cpu_mean_ms": sum(cpus) / len(cpus) * 1000,
        "cpu_p99_ms": cpus[int(len(cpus) * 0.99)] * 1000,
        "cpu_max_ms": cpus[-1] * 1000,
    }


# -- players ---------------------------------------------------------------------------------


def threshold(roll: tuple[int, ...], kept: int, one: bool) -> tuple[int, ...]:
    """Keep every 6 and 5, else the highest die (one die: the highest)."""
    high = tuple(sorted((d for d in roll if d >= 5), reverse=True))
    return (max(roll),) if one or not high else high


def cautious(roll: tuple[int, ...], kept: int, one: bool) -> tuple[int, ...]:
    """Bank what looks good: keep every die of 4 or more, else the highest die."""
    high = tuple(sorted((d for d in roll if d >= 4), reverse=True))
    return (max(roll),) if one or not high else high


def play_total(rng: random.Random, keep: Keep) -> int:
    left, kept = 6, 0
    while left:
        roll = tuple(sorted((rng.randint(1, 6) for _ in range(left)), reverse=True))
        chosen = keep(roll, kept)
        left -= len(chosen)
        kept += sum(chosen)
    return kept


def chain(rng: random.Random, margin: int) -> int:
    found, left = 0, 6
    while left:
        more = sum(rng.randint(1, 6) == margin for _ in range(left))
        if not more:
            break
        found, left = found + more, left - more
    return found


def players(position: Position) -> dict[str, Keep]:
    solution = dice_bot.plan(position).solution
    one = position.rules.set_aside == "one"
    return {
        "computer": lambda roll, kept: solution.keep(roll, kept),
        "threshold (6s and 5s)": lambda roll, kept: threshold(roll, kept, one),
        "cautious (4 and up)": lambda roll, kept: cautious(roll, kept, one),
    }


def duel(turns: int) -> dict[str, Any]:
    thirty = Position.start(RuleSet(), 4)
    thirty_s = Position.start(RuleSet.from_dict({"preset": "30s"}), 4)
    exact = float(odds.turn_odds().p_beat)
    out: dict[str, Any] = {"turns": turns, "exact_p_beat": exact, "thirty": [], "30s": []}
    for seed, (name, keep) in enumerate(players(thirty).items()):
        rng = random.Random(1000 + seed)
        start = time.perf_counter()
        wins = sum(play_total(rng, keep) > 30 for _ in range(turns))
        rate = wins / turns
        error = math.sqrt(exact * (1 - exact) / turns)
        out["thirty"].append(
            {
                "player": name,
                "p_beat": rate,
                "z": (rate - exact) / error,
                "seconds": time.perf_counter() - start,
            }
        )
    worth = float(dice_bot.expected_payoff(thirty_s))
    for seed, (name, keep) in enumerate(players(thirty_s).items()):
        rng = random.Random(2000 + seed)
        start = time.perf_counter()
        own = given = 0
        nets = []
        for _ in range(turns):
            total = play_total(rng, keep)
            mine = 30 - total if total < 30 else 0
            theirs = (total - 30) * chain(rng, total - 30) if total > 30 else 0
            own += mine
            given += theirs
            nets.append(theirs - mine)
        mean = sum(nets) / turns
        spread = statistics.pstdev(nets) / math.sqrt(turns)
        out["30s"].append(
            {
                "player": name,
                "own_per_turn": own / turns,
                "given_per_turn": given / turns,
                "net": mean,
                "net_error": spread,
                "seconds": time.perf_counter() - start,
            }
        )
    out["exact_30s_net"] = worth
    return out


ESTIMATE = (
    "import json, time\n"
    "from games.rules.dice import RuleSet, estimate\n"
    "rules = RuleSet.from_dict({rules!r})\n"
    "start = time.perf_counter(); cpu = time.process_time()\n"
    "found = estimate.estimate(rules, {players})\n"
    "print(json.dumps([time.perf_counter() - start, time.process_time() - cpu, found.games,"
    " found.low, found.median, found.high, found.mean]))\n"
)


def lengths() -> list[dict[str, Any]]:
    rows = []
    for rules, players_count in (
        ({"preset": "thirty"}, 4),
        ({"preset": "thirty", "start_points": 15}, 3),
        ({"preset": "30s"}, 4),
        ({"preset": "30s", "end": "first_out", "healing": True}, 5),
    ):
        out = in_fresh_process(ESTIMATE.format(rules=rules, players=players_count))
        wall, cpu, games, low, median, high, mean = json.loads(out)
        ruleset = RuleSet.from_dict(rules)
        long = estimates.simulate(
            ruleset, players_count, games=estimates.LONG_RUN_GAMES, seed=99, turns=None
        )
        everyone = frozenset(range(players_count))
        start, started = time.perf_counter(), time.process_time()
        to_go = estimates.remaining(Position.start(ruleset, players_count), everyone)
        rows.append(
            {
                "rules": rules,
                "players": players_count,
                "estimate": {"games": games, "low": low, "median": median, "high": high},
                "estimate_mean": mean,
                "estimate_seconds": wall,
                "estimate_cpu": cpu,
                "long": {
                    "games": long.games,
                    "low": long.low,
                    "median": long.median,
                    "high": long.high,
                },
                "long_mean": long.mean,
                "to_go_turns": to_go,
                "to_go_seconds": time.perf_counter() - start,
                "to_go_cpu": time.process_time() - started,
            }
        )
    return rows


ANALYSIS = (
    "import random, time, sys\n"
    "from games.rules.dice import Position, RuleSet\n"
    "from games.rules.dice.analysis import analyse\n"
    "from games.rules.dice.rolled import RolledTurn, act\n"
    "sys.path.insert(0, {tests!r})\n"
    "from tests.rules.test_rolled import random_action\n"
    "rules = RuleSet.from_dict({rules!r}); rng = random.Random(5); turns = []\n"
    "position = Position.start(rules, 4)\n"
    "while len(turns) < 250:\n"
    "    if position.finished: position = Position.start(rules, 4)\n"
    "    turn = RolledTurn(position)\n"
    "    while turn.ask() is not None:\n"
    "        turn = act(turn, random_action(turn, rng.choice),"
    " lambda s, n: [rng.randint(1, 6) for _ in range(n)])\n"
    "    turns.append((position, turn.rolls))\n"
    "    position = position.after(position.play(turn.turn()))\n"
    "start = time.perf_counter(); cpu = time.process_time()\n"
    "for position, rolls in turns: analyse(position, rolls)\n"
    "print(time.perf_counter() - start, time.process_time() - cpu)\n"
)


def analysis_times() -> list[dict[str, Any]]:
    """The analysis of a 250-turn game's every turn, in a fresh process (best of 3)."""
    return [
        {"rules": name, **best_of_three(ANALYSIS.format(tests=str(ROOT), rules=rules))}
        for name, rules in (("thirty", {"start_points": 99}), ("30s", {"preset": "30s"}))
    ]


def report(result: dict[str, Any]) -> str:
    lines = [
        f"Command: `python bench/odds.py --doc docs/benchmarks.md` ({result['when']},"
        f" {os.cpu_count()} CPUs, load average {result['load']})",
        "",
        "| odds, cold (fresh process) | any: best wall / CPU | one: best wall / CPU |",
        "|---|---|---|",
    ]
    cold = {(row["rule"], row["target"]): row for row in result["cold"]}
    for target in range(30, 36):
        a, o = cold["any", target], cold["one", target]
        lines.append(
            f"| target {target} | {a['wall_ms']:.0f} / {a['cpu_ms']:.0f} ms"
            f" | {o['wall_ms']:.0f} / {o['cpu_ms']:.0f} ms |"
        )
    worst = max(row["wall_ms"] for row in result["cold"])
    lines.append(f"\nSlowest cold solve {worst:.0f} ms (target ≤ 200 ms).")
    hint = result["hints"]
    lines.append(
        f"Hint look-ups ({hint['lookups']} never asked before): wall median"
        f" {hint['median_ms']:.3f} ms, p99 {hint['p99_ms']:.3f} ms, max {hint['max_ms']:.3f} ms;"
        f" CPU mean {hint['cpu_mean_ms']:.3f} ms, p99 {hint['cpu_p99_ms']:.3f} ms, max"
        f" {hint['cpu_max_ms']:.3f} ms (target ≤ 1 ms)."
    )
    duel_ = result["duel"]
    lines += [
        "",
        f"Default Thirty, {duel_['turns']:,} seeded turns each; exact optimum"
        f" {duel_['exact_p_beat']:.6f} (z: distance from it in standard errors):",
        "",
        "| player | beats 30 | z |",
        "|---|---|---|",
    ]
    for row in duel_["thirty"]:
        lines.append(f"| {row['player']} | {row['p_beat']:.4f} | {row['z']:+.1f} |")
    lines += [
        "",
        f"30s, {duel_['turns']:,} seeded turns each; the computer's exact expected net"
        f" {duel_['exact_30s_net']:.4f} points per turn (given minus scored):",
        "",
        "| player | scored against itself | given to the next player | net (± 1 s.e.) |",
        "|---|---|---|---|",
    ]
    for row in duel_["30s"]:
        lines.append(
            f"| {row['player']} | {row['own_per_turn']:.3f} | {row['given_per_turn']:.3f}"
            f" | {row['net']:+.3f} ± {row['net_error']:.3f} |"
        )
    lines += [
        "",
        f"Game length: the create form's estimate ({estimates.GAMES:,} seeded games, or as many"
        f" as fit in {estimates.SIMULATED_TURNS:,} simulated turns), computed in a fresh process,"
        f" against a long run of {estimates.LONG_RUN_GAMES:,} games with another seed; and the"
        " time to go from the start of a game, as the game page works it out once per turn:",
        "",
        "| rules | players | estimate: 10th–90th percentile (median), games | wall / CPU time"
        " | long run | time to go from the start: turns, wall / CPU |",
        "|---|---|---|---|---|---|",
    ]
    for row in result["lengths"]:
        quick, long = row["estimate"], row["long"]
        lines.append(
            f"| {json.dumps(row['rules'])} | {row['players']}"
            f" | {quick['low']}–{quick['high']} ({quick['median']}), {quick['games']:,}"
            f" | {row['estimate_seconds']:.1f} / {row['estimate_cpu']:.1f} s"
            f" | {long['low']}–{long['high']} ({long['median']})"
            f" | {row['to_go_turns']:.1f}, {row['to_go_seconds'] * 1000:.0f} /"
            f" {row['to_go_cpu'] * 1000:.0f} ms |"
        )
    lines += [
        "",
        "Luck and skill: every turn of a 250-turn game of rolled turns analysed against the"
        " best play, in a fresh process (best wall of 3, median CPU; target well under a"
        " second):",
        "",
        "| rules | wall | CPU |",
        "|---|---|---|",
    ]
    for row in result["analysis"]:
        lines.append(f"| {row['rules']} | {row['wall_ms']:.0f} ms | {row['cpu_ms']:.0f} ms |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--doc", type=Path)
    parser.add_argument("--turns", type=int, default=100_000)
    args = parser.parse_args(argv)
    result: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d"),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "cold": cold_solves(),
        "hints": hint_lookups(),
        "duel": duel(args.turns),
        "lengths": lengths(),
        "analysis": analysis_times(),
    }
    (ROOT / ".bench").mkdir(exist_ok=True)
    (ROOT / ".bench" / "dice.json").write_text(json.dumps(result, indent=2))
    text = report(result)
    print(text)
    if args.doc:
        sys.path.insert(0, str(HERE))
        from run import write_doc

        write_doc(args.doc, text, "dice")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
