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

Usage: python bench/simulate_speed.py [--games N] [--kernel-games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from pathlib import Path
from types import ModuleType

from ratscrew.engine import Flip, Game
from ratscrew.lab import kernel
from ratscrew.lab.simulate import game_seed, guarded, play_one
from ratscrew.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--kernel-games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
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
