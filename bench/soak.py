#!/usr/bin/env python3
"""Soak run: many complete bot games for every preset, to show none crashes or gets stuck.

Each game is played to its end on virtual time by four computer players of mixed levels; a stuck table
raises, and every game must end in a win, a draw, a loop or the lab's card limit. Prints one line per
preset: the results, the longest game, and the time taken.

Usage: python bench/soak.py [--games 10000] [--workers N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from ratscrew.lab.simulate import GUARD_MAX_CARDS, simulate
from ratscrew.rules import PRESETS, Rules

LEVELS = ["easy", "medium", "hard", "expert"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS), help="one level per seat")
    args = parser.parse_args()
    levels = args.levels.split(",")
    print(f"{args.games} games per preset, seats {','.join(levels)}, card limit {GUARD_MAX_CARDS}")
    total_start = time.perf_counter()
    for name in PRESETS:
        start = time.perf_counter()
        summary = simulate(Rules.build(name), levels, args.games, args.seed, workers=args.workers)
        doc = summary.as_dict()
        seconds = time.perf_counter() - start
        assert summary.tally.games == args.games
        print(
            f"{name:15} results {doc['results']}  mean {doc['mean_cards']} cards, longest {doc['max_cards']}, "
            f"{seconds:.0f} s ({args.games / seconds:.0f} games/s)",
            flush=True,
        )
    print(f"all presets in {time.perf_counter() - total_start:.0f} s")


if __name__ == "__main__":
    main()
