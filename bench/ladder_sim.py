#!/usr/bin/env python3
"""The rated ladder on virtual time, over several seeds: how well the ratings find the hidden skill, how long
people wait, and what it costs (``harness/ladder.py`` plays it; ``tests/ladder/test_ladder_sim.py`` asserts one run).

For each seed it prints Kendall's tau between the shown ratings and the hidden skill (over everyone, and over
the players no longer provisional), the waits in the pool (median, 99th percentile, longest), the median
number of games a newcomer needed to stop being provisional, and the run's CPU time beside a baseline
measured in the same run: the same number of kernel games alone, so the ratio is what the matchmaker and the
ratings add. ``--tables N`` also plays N games in a rated pool of three to four (on the Python table, which
gives every place: much slower). Last, the SQLite store's cost per recorded game, in a temporary folder.

Usage: python bench/ladder_sim.py [--players 200] [--games 3000] [--seeds 3] [--tables 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.accounts import numbered_accounts
from harness.ladder import LadderRun, kendall_tau, run_ladder, sim_players
from ratscrew.lab.kernel import play_c
from ratscrew.ladder.matching import TableSize
from ratscrew.ladder.places import RatedResult
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.store import RatingStore
from ratscrew.rules import Rules

RULES = Rules.build("standard")


def report(label: str, run: LadderRun, cpu_s: float) -> None:
    skill = {p.player: -p.reaction_ms for p in run.players}
    everyone = list(skill)
    settled = [p for p in everyone if not run.ratings[p].provisional]
    tau_all = kendall_tau([skill[p] for p in everyone], [run.ratings[p].shown for p in everyone])
    tau_settled = (
        kendall_tau([skill[p] for p in settled], [run.ratings[p].shown for p in settled])
        if len(settled) > 2
        else float("nan")
    )
    waits = sorted(run.waits_ms)
    p99 = waits[int(len(waits) * 0.99)]
    newcomer = statistics.median(run.provisional_after) if run.provisional_after else float("nan")
    print(
        f"{label}: tau {tau_all:.3f} (settled {len(settled)}: {tau_settled:.3f}); "
        f"waits median {statistics.median(waits) / 1000:.0f} s, 99% {p99 / 1000:.0f} s, "
        f"longest {waits[-1] / 1000:.0f} s, "
        f"pool at most {run.longest_pool}; provisional for {newcomer:.0f} games; "
        f"{run.virtual_ms / 3.6e6:.1f} h virtual in {cpu_s:.2f} s CPU"
    )


def kernel_baseline(players: int, games: int, seed: int) -> float:
    """CPU seconds for ``games`` kernel games between random pairs of the same players, nothing else."""
    rng = random.Random(seed)
    sims = sim_players(players, seed)
    start = time.process_time()
    for _ in range(games):
        a, b = rng.sample(sims, 2)
        play_c(RULES, [a.level, b.level], rng.randrange(2**32))
    return time.process_time() - start


def store_cost(games: int) -> float:
    """Milliseconds per rated two-player game recorded in a fresh SQLite file (FULL sync, as served)."""
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ratscrew.sqlite3"
        numbered_accounts(path, range(1, 201))  # the store keeps rows only for accounts that exist
        store = RatingStore(path)
        start = time.perf_counter()
        for i in range(games):
            a, b = rng.sample(range(1, 201), 2)
            store.record(RatedResult(f"G{i}", SizeClass.TWO, ((a, 1), (b, 2))))
        return (time.perf_counter() - start) / games * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=0, help="games in a rated pool of three to four as well")
    args = parser.parse_args()
    print(f"{args.players} players, {args.games} rated two-player games a run, standard preset")
    ratios = []
    for seed in range(args.seeds):
        start = time.process_time()
        run = run_ladder(sim_players(args.players, seed), args.games, RULES, seed=1000 + seed)
        cpu = time.process_time() - start
        baseline = kernel_baseline(args.players, args.games, seed)
        ratios.append(cpu / baseline)
        report(f"seed {seed}", run, cpu)
        print(f"  baseline: as many kernel games alone {baseline:.2f} s CPU; the ladder takes {cpu / baseline:.2f}x")
    print(f"the ladder over the kernel games alone: {statistics.median(ratios):.2f}x (median of {len(ratios)})")
    if args.tables:
        start = time.process_time()
        run = run_ladder(sim_players(args.players, 0), args.tables, RULES, seed=2000, size=TableSize.THREE_OR_FOUR)
        report(f"three to four, {args.tables} games", run, time.process_time() - start)
    print(f"store: {store_cost(300):.2f} ms per recorded game (300 games, FULL sync, one file)")


if __name__ == "__main__":
    main()
