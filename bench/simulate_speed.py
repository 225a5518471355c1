#!/usr/bin/env python3
"""Simulated games per second per core: `standard` with 4 Medium computer players, on virtual time.

Prints, for a few rounds in one run: complete bot games per second on one core (the table, the bots and
the engine together, as `ratscrew simulate --workers 1` plays them) on the Python modules and on the
compiled kernel (ratscrew._ers_fast, see lab/kernel.py) with their ratio, cards turned per second, the engine
alone turning cards with no table or bots, and the plain Beggar-my-neighbour baseline
(``../shared/bench/bmn_baseline.py``, when present) run in the same process as a yardstick for the machine.
Ratios carry from machine to machine; absolute figures do not. Every rate is per second of this
process's CPU time (time.process_time), so it is the rate of one core even on a machine busy with other
work, where wall-clock rates would drop with the share of the core the process gets.

``--against REV`` compares the pure-Python game path with the one of git revision REV instead: each round
plays the same games with this tree's ``src`` and with REV's (exported to a temporary folder), each in a
fresh process with ``RATSCREW_PURE_PYTHON=1``, in alternating order, and prints both rates (per second of
the process's own CPU time, which a machine shared with other jobs disturbs less than the wall clock),
their ratio and whether every game's figures came out the same.

Usage: python bench/simulate_speed.py [--games N] [--kernel-games N] [--rounds R] [--against REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from ratscrew.engine import Flip, Game
from ratscrew.lab import kernel
from ratscrew.lab.game import play_one
from ratscrew.lab.simulate import game_seed, guarded
from ratscrew.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # harness/
from harness.revisions import export_src  # noqa: E402

LEVELS = ["medium"] * 4
clock = time.process_time  # one core's time: the benchmark plays in one thread


def load_baseline() -> ModuleType | None:
    path = ROOT.parent / "shared" / "bench" / "bmn_baseline.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("bmn_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bot_games(games: int) -> tuple[float, float]:
    rules = guarded(Rules.build("standard"))
    start = clock()
    cards = sum(play_one(rules, LEVELS, game_seed(1, i)).cards for i in range(games))
    seconds = clock() - start
    return games / seconds, cards / seconds


def kernel_games(games: int) -> float:
    """Games per second through the compiled kernel (NaN when it is not built or RATSCREW_PURE_PYTHON is set)."""
    rules = guarded(Rules.build("standard"))
    chosen = kernel.player(rules, LEVELS)
    if chosen.kernel != "c":
        return float("nan")
    play = chosen.play
    start = clock()
    for i in range(games):
        play(game_seed(1, i))
    return games / (clock() - start)


def engine_cards(cards_wanted: int) -> float:
    rules = Rules.build("standard", {"end.max_cards": 2000})
    start = clock()
    turned = seed = 0
    while turned < cards_wanted:
        game = Game.from_seed(rules, 4, seed)
        while not game.over:
            game.apply(Flip())
        turned += game.cards
        seed += 1
    return turned / (clock() - start)


def baseline_games(module: ModuleType, games: int) -> float:
    rng = random.Random(1)
    deck = list(module.DECK)
    start = clock()
    for _ in range(games):
        rng.shuffle(deck)
        module.play(deck[:26], deck[26:])
    return games / (clock() - start)


# Run in a fresh process whose ratscrew comes from PYTHONPATH: games per second and a digest of every game.
TIMED_GAMES = """
import hashlib, json, sys, time
from ratscrew.lab.simulate import game_seed, guarded
try:
    from ratscrew.lab.game import play_one
except ImportError:  # a revision from before lab/game.py
    from ratscrew.lab.simulate import play_one
from ratscrew.rules import Rules
rules, games = guarded(Rules.build("standard")), int(sys.argv[1])
start, digest = time.process_time(), hashlib.sha256()
for i in range(games):
    digest.update(repr(play_one(rules, ["medium"] * 4, game_seed(1, i))).encode())
print(json.dumps({"games_per_s": games / (time.process_time() - start), "digest": digest.hexdigest()}))
"""


def timed_games(src: Path, games: int) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(src), "RATSCREW_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", TIMED_GAMES, str(games)], env=env, capture_output=True, text=True, check=True
    )
    doc = json.loads(done.stdout)
    return float(doc["games_per_s"]), str(doc["digest"])


def compare(rev: str, games: int, rounds: int) -> None:
    print(f"standard, 4 medium computers, {games} games per round, pure Python, this tree against {rev}")
    print(f"{'round':>5} {'this tree g/s':>14} {rev + ' g/s':>14} {'ratio':>7} {'same figures':>13}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        old_src = export_src(rev, Path(tmp))
        for round_no in range(1, rounds + 1):
            # Alternate which goes first, so a machine that gets busier or quieter favours neither.
            if round_no % 2:
                new, new_digest = timed_games(ROOT / "src", games)
                old, old_digest = timed_games(old_src, games)
            else:
                old, old_digest = timed_games(old_src, games)
                new, new_digest = timed_games(ROOT / "src", games)
            ratios.append(new / old)
            same = "yes" if new_digest == old_digest else "NO"
            print(f"{round_no:>5} {new:>14.1f} {old:>14.1f} {new / old:>7.2f} {same:>13}")
    print(f"median ratio: {statistics.median(ratios):.2f}x the games per second of {rev}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--kernel-games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="compare the pure-Python games with git revision REV")
    args = parser.parse_args()
    if args.against:
        compare(args.against, args.games, args.rounds)
        return
    baseline = load_baseline()
    print(
        f"standard, 4 medium computers, one core: {args.games} Python games and {args.kernel_games} "
        "kernel games per round"
    )
    print(
        f"{'round':>5} {'bot games/s':>12} {'C games/s':>10} {'C/Python':>9} {'cards/s':>10} "
        f"{'engine cards/s':>15} {'baseline BMN g/s':>17}"
    )
    rows = []
    for round_no in range(1, args.rounds + 1):
        games_per_s, cards_per_s = bot_games(args.games)
        compiled = kernel_games(args.kernel_games)
        engine = engine_cards(200_000)
        base = baseline_games(baseline, 20_000) if baseline else float("nan")
        rows.append((games_per_s, cards_per_s, engine, base, compiled))
        print(
            f"{round_no:>5} {games_per_s:>12.1f} {compiled:>10,.0f} {compiled / games_per_s:>9.0f} "
            f"{cards_per_s:>10,.0f} {engine:>15,.0f} {base:>17,.0f}"
        )
    games_med = statistics.median(r[0] for r in rows)
    compiled_med = statistics.median(r[4] for r in rows)
    ratio_med = statistics.median(r[4] / r[0] for r in rows)
    print(
        f"median: {compiled_med:,.0f} complete games/s per core on the C kernel, {games_med:.1f} on the Python "
        f"modules: {ratio_med:.0f}x"
    )
    share = statistics.median(r[1] / r[2] for r in rows)
    print(
        f"median: {games_med:.1f} complete bot games/s per core; the table and bots run at {share:.2f}x the "
        "engine's bare card rate"
    )
    if baseline:
        ratio = statistics.median(r[0] / r[3] for r in rows)
        print(f"median ratio of bot games/s to the baseline's BMN games/s in the same run: {ratio:.4f}")


if __name__ == "__main__":
    main()
