#!/usr/bin/env python3
"""How fast `ratscrew bmn --random` plays, next to the plain baseline player, in the same run.

Runs the baseline (``../shared/bench/bmn_baseline.py`` beside the repository, or the file named by
``RATSCREW_BMN_BASELINE``) and ``ratscrew bmn --random`` in alternating rounds, then the pure-Python path
of the same command, and prints games per second and the ratio to the baseline for each round and the
median. Ratios, not absolute figures, are what carry from one machine to another, and alternating rounds
keep a busy machine from favouring one side.

Without the baseline file there is nothing to divide by: the script says so, prints ratscrew's own games
per second only, and exits with status 1 so a script that wanted the ratio notices.

Usage: python bench/bmn_speed.py [--games N] [--baseline-games B] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ratscrew.bmn import HAVE_ACCELERATOR, play_random

ROOT = Path(__file__).resolve().parent.parent


def find_baseline() -> Path | None:
    named = os.environ.get("RATSCREW_BMN_BASELINE")
    candidates = [Path(named)] if named else []
    candidates.append(ROOT.parent / "shared" / "bench" / "bmn_baseline.py")
    return next((p for p in candidates if p.is_file()), None)


def run_json(command: list[str]) -> dict[str, float]:
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    doc: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return doc


def pure_python(games: int) -> float:
    start = time.perf_counter()
    play_random(games, 1, accelerated=False)
    return games / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000, help="deals per ratscrew run (default 500000)")
    parser.add_argument("--baseline-games", type=int, default=20_000, help="deals per baseline run (default 20000)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    baseline = find_baseline()
    if baseline is None:
        print(
            "baseline not found: expected ../shared/bench/bmn_baseline.py beside the repository or a file named "
            "by RATSCREW_BMN_BASELINE; printing ratscrew's own games per second, no ratios"
        )
    ours_cmd = [sys.executable, "-m", "ratscrew", "bmn", "--random", str(args.games), "--seed", "1", "--json"]
    print(f"random two-hand deals: {args.games} per ratscrew run, {args.baseline_games} per baseline run")
    print(f"C accelerator importable: {HAVE_ACCELERATOR}")
    print(f"{'round':>5} {'baseline g/s':>13} {'ratscrew g/s':>13} {'ratio':>7} {'pure-Python g/s':>16} {'ratio':>7}")
    fast_ratios, pure_ratios = [], []
    for round_no in range(1, args.rounds + 1):
        base = 0.0
        if baseline is not None:
            base = run_json([sys.executable, str(baseline), str(args.baseline_games), "1"])["games_per_s"]
        ours = run_json(ours_cmd)["games_per_s"]
        pure = pure_python(max(1, args.baseline_games // 2))
        fast_ratio = ours / base if base else float("nan")
        pure_ratio = pure / base if base else float("nan")
        fast_ratios.append(fast_ratio)
        pure_ratios.append(pure_ratio)
        print(f"{round_no:>5} {base:>13,.0f} {ours:>13,.0f} {fast_ratio:>7.2f} {pure:>16,.0f} {pure_ratio:>7.2f}")
    if baseline is None:
        return 1
    print(
        f"median ratio to the baseline: ratscrew bmn --random {statistics.median(fast_ratios):.1f}x, "
        f"pure-Python path {statistics.median(pure_ratios):.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
