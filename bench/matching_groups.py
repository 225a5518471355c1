#!/usr/bin/env python3
"""What one call of ``ratscrew.ladder.matching.groups`` costs, against the old quadratic version it replaced
(``harness/old_matching.py``), both measured in the same run on the same pools. Every worker of a hosted site
calls it each second for each pool, in process and on the pool it reads from Redis.

For 100, 1,000 and 5,000 people waiting in one rated pool of two, then of three to four, two scenes:

- **apart**: ratings 250 points apart and everyone new, so nobody can be seated: the call looks at everyone
  and decides nothing, as it does on most ticks of a busy site (``bench/playnow_pool.py``'s "waiting").
- **mixed**: ratings drawn around 1500 (many equal, on a 25-point grid) and waits up to a minute, so most
  are seated and some are left.

Printed: the median ms per call of each (over enough calls to take about ``--seconds`` each) and the ratio
old / new. Before timing, each pool's answers are compared: the two must make the same tables.

Usage: python bench/matching_groups.py [--sizes 100,1000,5000] [--seconds 0.5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # harness/

from harness.old_matching import old_groups
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting, groups

NOW = 10_000_000
Groups = Callable[[Pool, Sequence[Waiting], int], list[tuple[Waiting, ...]]]


def apart(pool: Pool, people: int, rng: random.Random) -> list[Waiting]:
    order = list(range(people))
    rng.shuffle(order)  # the queue's order is not the ratings' order
    return [Waiting(Entrant(f"p{n}", n, 1000.0 + 250.0 * k), pool, since=NOW) for n, k in enumerate(order)]


def mixed(pool: Pool, people: int, rng: random.Random) -> list[Waiting]:
    return [
        Waiting(Entrant(f"p{n}", n, 25.0 * round(rng.gauss(1500, 250) / 25)), pool, since=NOW - rng.randrange(60_000))
        for n in range(people)
    ]


def ms_per_call(fn: Groups, pool: Pool, waiting: list[Waiting], seconds: float) -> float:
    """The median of several timings, each of enough calls to last about a fifth of ``seconds``."""
    calls = 1
    while True:
        took = timed(fn, pool, waiting, calls)
        if took >= seconds / 5 or calls >= 10_000:
            break
        calls *= 2
    runs = [took] + [timed(fn, pool, waiting, calls) for _ in range(4)]
    return statistics.median(runs) / calls * 1000


def timed(fn: Groups, pool: Pool, waiting: list[Waiting], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn(pool, waiting, NOW)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--seconds", type=float, default=0.5, help="roughly, for each figure")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print("ms per groups() call, median of 5 timings; old = harness/old_matching.py, new = ratscrew.ladder.matching")
    print(f"{'pool':<12} {'scene':<6} {'waiting':>8} {'old ms':>10} {'new ms':>9} {'old/new':>8} {'tables':>7}")
    for size in TableSize:
        pool = Pool(size, rated=True, preset="standard")
        for scene in (apart, mixed):
            for people in sizes:
                waiting = scene(pool, people, random.Random(people))
                made = groups(pool, waiting, NOW)
                old_made = old_groups(pool, waiting, NOW)
                if [[id(w) for w in g] for g in made] != [[id(w) for w in g] for g in old_made]:
                    raise SystemExit(f"the two disagree: rated {size.value}, {scene.__name__}, {people} waiting")
                old = ms_per_call(old_groups, pool, waiting, args.seconds)
                new = ms_per_call(groups, pool, waiting, args.seconds)
                label = f"rated {size.value}"
                figures = f"{old:10.3f} {new:9.3f} {old / new:7.1f}x"
                print(f"{label:<12} {scene.__name__:<6} {people:>8} {figures} {len(made):>7}")


if __name__ == "__main__":
    main()
