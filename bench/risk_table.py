#!/usr/bin/env python3
"""Does risk slapping beat reflexes? The README's table, measured with `ratscrew simulate`.

Seat 1 plays each strategy (or, as ``instant`` alone, plain reflexes that never miss a legal slap) at the
``instant`` level, so it wins every race it joins and only its choice of when to slap differs; every
other seat is ``perfect``. For 2 and 4 players and a
wrong slap burning 1, 2 or 3 cards (``standard`` otherwise), it runs

    ratscrew simulate --json --rules standard --set slapping.penalty_cards=B --bots SEAT1,perfect,... --games G

and prints seat 1's share of the games won with its standard error, as a Markdown table.

Usage: python bench/risk_table.py [--games G] [--seed S] [--workers W]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

PLAYERS = (2, 4)
BURNS = (1, 2, 3)
SEAT_ONE = (
    "instant",
    "instant:risk-faces",
    "instant:risk-jqk",
    *(f"instant:risk-{n}" for n in range(2, 7)),
)


def share(bots: str, players: int, burn: int, games: int, seed: int, workers: int) -> tuple[float, float, float]:
    """Seat 1's share of the games, its standard error, and the mean cards per game."""
    command = [
        sys.executable,
        "-m",
        "ratscrew",
        "simulate",
        "--json",
        "--rules",
        "standard",
        "--set",
        f"slapping.penalty_cards={burn}",
        "--bots",
        ",".join([bots] + ["perfect"] * (players - 1)),
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--workers",
        str(workers),
    ]
    doc = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return doc["win_rate"][0], doc["win_rate_se"][0], doc["mean_cards"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    columns = [(p, b) for p in PLAYERS for b in BURNS]
    print(f"seat 1's share of {args.games} games (± standard error) against perfect opponents, seed {args.seed}")
    print()
    print("| seat 1 | " + " | ".join(f"{p} players, burn {b}" for p, b in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for bots in SEAT_ONE:
        cells = []
        for players, burn in columns:
            rate, se, cards = share(bots, players, burn, args.games, args.seed, args.workers)
            cells.append(f"{100 * rate:.1f}% ± {100 * se:.1f} ({cards:.0f} cards)")
        print(f"| `{bots}` | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
