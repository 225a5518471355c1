#!/usr/bin/env python3
"""The record hunt against random sampling: the longest deal each has found, against time, in the same run.

Runs ``ratscrew bmn --search`` (random deals, then the families above the longest) and plain random sampling
(``ratscrew bmn --random``'s deals, in blocks of the same size) for the same number of seconds on the same
number of worker processes, one after the other (``--random-first`` swaps the order), and prints the best
so far of each at checkpoints, the deals dealt by each, and both best deals in the notation ``ratscrew bmn``
replays. The load average is printed before and after: these machines are shared, and a busy one gives
both methods less.

It also counts the distinct deals each found of at least 3,000, 3,500 and 4,000 cards: a best of one run is
the luck of one draw, a count of the deals past a length is a rate, and the ratio of the two counts says how
many times as fast one method finds such deals as the other.

Usage: python bench/bmn_hunt.py [--seconds 120] [--workers 2] [--seed 1] [--random-first]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ratscrew.bmn import block_seed, play_block, play_bmn, to_notation
from ratscrew.executor import open_runner
from ratscrew.lab.bmn_search import HuntSettings, run_batch

Progress = list[tuple[float, int]]  # (seconds since the start, longest game found by then)
MARKS = (3_000, 3_500, 4_000)  # lengths past which the deals found are counted


@dataclass
class Run:
    progress: Progress = field(default_factory=list)
    best: tuple[str, ...] = ()
    played: int = 0
    found: set[tuple[str, ...]] = field(default_factory=set)  # distinct deals of at least MARKS[0] cards
    lengths: dict[tuple[str, ...], int] = field(default_factory=dict)

    def saw(self, t: float, deal: tuple[str, ...], cards: int) -> None:
        if cards >= MARKS[0]:
            self.found.add(deal)
            self.lengths[deal] = cards
        if not self.progress or cards > self.progress[-1][1]:
            self.progress.append((t, cards))
            self.best = deal

    def past(self, mark: int) -> int:
        return sum(1 for d in self.found if self.lengths[d] >= mark)


def hunt(seconds: float, workers: int, seed: int) -> Run:
    """Batches of the hunt (lab/bmn_search.py's run_batch) as ``bmn --search`` runs them, read as they come."""
    settings, run, start = HuntSettings(), Run(), time.monotonic()
    left = _until(start + seconds)
    tasks = ((seed, b, settings) for b in itertools.takewhile(lambda _: left(), itertools.count()))
    with open_runner(workers, None) as runner:
        for result in runner.unordered(run_batch, tasks):
            if not left():
                break  # a batch that ends after the time is up is not counted
            run.played += result.played
            for find in result.finds:
                run.saw(time.monotonic() - start, find.deal, find.cards)
    return run


def sample(seconds: float, workers: int, seed: int) -> Run:
    """``bmn --random``'s deals in blocks as large as the hunt's batches, keeping each block's longest few."""
    block, run, start = HuntSettings().block, Run(), time.monotonic()
    left = _until(start + seconds)
    tasks = (
        (block_seed(seed, b), block, 2, True, 32, b) for b in itertools.takewhile(lambda _: left(), itertools.count())
    )
    with open_runner(workers, None) as runner:
        for tally in runner.unordered(play_block, tasks):
            if not left():
                break
            run.played += tally.games
            for dealt in tally.longest:
                run.saw(time.monotonic() - start, dealt.hands, dealt.cards)
    return run


def _until(deadline: float) -> Callable[[], bool]:
    return lambda: time.monotonic() < deadline


def best_at(progress: Progress, t: float) -> int:
    return max((cards for s, cards in progress if s <= t), default=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-first", action="store_true", help="run random sampling first")
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"{args.seconds:g} s each on {args.workers} workers, seed {args.seed}; load average {load[0]:.2f} {load[1]:.2f}"
    )
    order = [("random", sample), ("hunt", hunt)] if args.random_first else [("hunt", hunt), ("random", sample)]
    results = {name: run(args.seconds, args.workers, args.seed) for name, run in order}
    marks = sorted({*(t for t in (10, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1200) if t < args.seconds), args.seconds})
    print(f"{'seconds':>8} {'hunt':>8} {'random':>8}")
    for t in marks:
        print(f"{t:>8g} {best_at(results['hunt'].progress, t):>8} {best_at(results['random'].progress, t):>8}")
    for name, run in results.items():
        cards = run.progress[-1][1] if run.progress else 0
        check = play_bmn(run.best).cards if run.best else 0
        hands = " ".join(to_notation(h) for h in run.best)
        print(f"{name}: {run.played:,} deals dealt; best {cards} cards (replayed: {check}): ratscrew bmn {hands}")
    for mark in MARKS:
        h, r = results["hunt"].past(mark), results["random"].past(mark)
        ratio = f"{h / r:.1f} times as many" if r else "random found none"
        print(f"distinct deals of at least {mark:,} cards: hunt {h}, random {r} ({ratio})")
    hunt_best, random_best = (best_at(results[n].progress, args.seconds) for n in ("hunt", "random"))
    load = os.getloadavg()
    print(f"best, hunt / random: {hunt_best / max(1, random_best):.2f}; load average after {load[0]:.2f} {load[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
