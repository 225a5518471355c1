#!/usr/bin/env python3
"""How long a light `ratscrew` command takes to start and finish, next to `python -c pass`, in the same run.

Each round runs every command once in a fresh process (the bare interpreter first), so a machine that gets
busier or quieter during the run weighs on all of them alike. The script prints, for each, the median over
the rounds of the process's CPU time (user and system, which other work on a shared machine disturbs much
less than the wall clock) and of its wall-clock time, with their ratios to the bare interpreter's. The ratios
are what carry from one machine to another.

``--against REV`` times git revision REV's commands too (its ``src`` exported to a temporary folder), in
alternating order with this tree's. Both sides then run from their ``src`` folders with
``RATSCREW_PURE_PYTHON=1``, since an exported revision has no compiled kernels, so neither loads one.

Usage: python bench/cli_startup.py [--rounds N] [--against REV]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # harness/
from harness.deals import PAULHUS  # noqa: E402
from harness.revisions import export_src  # noqa: E402

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "ratscrew check 7 K 7": ["-m", "ratscrew", "check", "7", "K", "7"],
    "ratscrew bmn (Paulhus' deal)": ["-m", "ratscrew", "bmn", *PAULHUS],
    "ratscrew rules explain slaps.run": ["-m", "ratscrew", "rules", "explain", "slaps.run"],
    "ratscrew --help": ["-m", "ratscrew", "--help"],
}
BARE = "python -c pass"


def seconds(args: list[str], env: dict[str, str] | None) -> tuple[float, float]:
    """(CPU seconds, wall-clock seconds) of one run of ``python ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def from_src(src: Path) -> dict[str, str]:
    """The environment of a process whose ratscrew comes from ``src``, with no compiled kernel."""
    return {**os.environ, "PYTHONPATH": str(src), "RATSCREW_PURE_PYTHON": "1"}


Medians = dict[str, dict[str, tuple[float, float]]]


def measure(sides: dict[str, dict[str, str] | None], rounds: int) -> Medians:
    """Each command's median (CPU, wall-clock) seconds on each side, rounds interleaved, the sides alternating."""
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {side: {name: [] for name in COMMANDS} for side in sides}
    order = list(sides)
    for round_no in range(rounds):
        for side in order if round_no % 2 == 0 else order[::-1]:
            for name, args in COMMANDS.items():
                runs[side][name].append(seconds(args, sides[side]))
    return {
        side: {
            name: (statistics.median(c for c, _ in got), statistics.median(w for _, w in got))
            for name, got in by.items()
        }
        for side, by in runs.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--against", metavar="REV", help="also time the commands of git revision REV")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    sides: dict[str, dict[str, str] | None] = {"this tree": None}
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            sides = {"this tree": from_src(ROOT / "src"), args.against: from_src(export_src(args.against, Path(tmp)))}
        medians = measure(sides, args.rounds)
    print(f"medians of {args.rounds} runs each, {Path(sys.executable).name} {sys.version.split()[0]}; ratio: to {BARE}")
    print(f"{'':<34}" + "".join(f"{side:^32}" for side in sides))
    print(f"{'command':<34}" + f"{'CPU ms':>9}{'ratio':>7}{'wall ms':>9}{'ratio':>7}" * len(sides))
    for name in COMMANDS:
        row = ""
        for m in medians.values():
            (cpu, wall), (bare_cpu, bare_wall) = m[name], m[BARE]
            row += f"{1000 * cpu:>9.0f}{cpu / bare_cpu:>7.2f}{1000 * wall:>9.0f}{wall / bare_wall:>7.2f}"
        print(f"{name:<34}{row}")
    if args.against:
        ours, theirs = medians.values()
        print(f"{args.against}'s CPU time over this tree's:")
        for name in COMMANDS:
            if name != BARE:
                print(f"  {name}: {theirs[name][0] / ours[name][0]:.2f}x")


if __name__ == "__main__":
    main()
