"""Play many games between computer players on virtual time and summarise them.

Each game's seed comes from the run's seed and the game's index alone, so the figures are the same for
the same seed whatever the number of worker processes.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from ratscrew.bots.levels import LEVELS
from ratscrew.engine.events import OutReason, PlayerOut
from ratscrew.engine.game import Game
from ratscrew.errors import RulesError
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, run_virtual

# Without a card limit a game with slaps can in principle go on for ever; the lab stops one at this many
# cards (result "limit") unless the rules set their own end.max_cards.
GUARD_MAX_CARDS = 50_000
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class GameStats:
    cards: int
    ms: int
    piles_by_slap: int
    piles_by_challenge: int
    wrong_slaps: int
    out_by_wrong_slap: int
    result: str
    winner: int | None


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    players: int
    levels: tuple[str, ...]
    stats: tuple[GameStats, ...]

    def as_dict(self) -> dict[str, object]:
        cards = sorted(s.cards for s in self.stats)
        minutes = [s.ms / 60_000 for s in self.stats]
        n = len(self.stats)
        wins = [0] * self.players
        results = {"win": 0, "draw": 0, "limit": 0, "loop": 0}
        for s in self.stats:
            results[s.result] = results.get(s.result, 0) + 1
            if s.winner is not None:
                wins[s.winner] += 1
        return {
            "games": n,
            "players": self.players,
            "levels": list(self.levels),
            "mean_cards": round(statistics.fmean(cards), 2),
            "median_cards": statistics.median(cards),
            "p90_cards": _percentile(cards, 0.9),
            "max_cards": cards[-1],
            "mean_minutes": round(statistics.fmean(minutes), 2),
            "median_minutes": round(statistics.median(minutes), 2),
            "piles_by_slap": round(statistics.fmean(s.piles_by_slap for s in self.stats), 2),
            "piles_by_challenge": round(statistics.fmean(s.piles_by_challenge for s in self.stats), 2),
            "wrong_slaps": round(statistics.fmean(s.wrong_slaps for s in self.stats), 3),
            "games_with_wrong_slap_knockout": round(sum(1 for s in self.stats if s.out_by_wrong_slap) / n, 4),
            "win_rate": [round(w / n, 4) for w in wins],
            "results": results,
        }


def _percentile(sorted_values: Sequence[int], q: float) -> int:
    """Nearest-rank percentile."""
    rank = max(1, -(-len(sorted_values) * q // 1))
    return sorted_values[int(rank) - 1]


def game_seed(seed: int, index: int) -> int:
    return (seed * 0x1_0000_0001 + index * 0x9E37_79B9 + 1) & _MASK


def check_levels(levels: Sequence[str]) -> None:
    for name in levels:
        if name not in LEVELS:
            raise RulesError(f"unknown bot level {name!r}: expected one of {', '.join(LEVELS)}")
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        raise RulesError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(levels)}")


def guarded(rules: Rules) -> Rules:
    return rules if rules.end.max_cards else rules.with_changes({"end.max_cards": GUARD_MAX_CARDS})


def play_one(rules: Rules, levels: Sequence[str], seed: int) -> GameStats:
    """One complete game between bots at ``levels`` (seat order), on virtual time."""
    game = Game.from_seed(rules, len(levels), seed)
    clock = VirtualClock()
    table = Table(
        game,
        [SeatSpec(f"bot {i + 1}", level) for i, level in enumerate(levels)],
        clock,
        seed=seed,
        config=TableConfig(),
    )
    run_virtual(table, clock)
    assert game.outcome is not None
    piles = table.piles_won()
    knocked = sum(1 for e in table.log if isinstance(e.event, PlayerOut) and e.event.reason is OutReason.WRONG_SLAP)
    return GameStats(
        game.cards,
        clock.now(),
        piles["slap"],
        piles["challenge"],
        table.wrong_slaps(),
        knocked,
        game.outcome.result.value,
        game.outcome.winner,
    )


def _play_chunk(
    rules_doc: dict[str, object], levels: tuple[str, ...], seed: int, indices: range
) -> list[tuple[int, GameStats]]:
    rules = rules_from_mapping(rules_doc)
    return [(i, play_one(rules, levels, game_seed(seed, i))) for i in indices]


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def simulate(
    rules: Rules,
    levels: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games; ``progress`` is called with how many more have finished."""
    check_levels(levels)
    if games < 1:
        raise RulesError(f"--games must be at least 1, got {games}")
    rules = guarded(rules)
    levels = tuple(levels)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    results: dict[int, GameStats] = {}
    if workers == 1 or games < 4:
        for i in range(games):
            results[i] = play_one(rules, levels, game_seed(seed, i))
            if progress:
                progress(1)
    else:
        doc = rules_to_mapping(rules)
        size = max(1, min(50, games // (workers * 8) or 1))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_chunk, doc, levels, seed, chunk) for chunk in _chunks(games, size)]
            for future in as_completed(futures):
                done = future.result()
                for i, stats in done:
                    results[i] = stats
                if progress:
                    progress(len(done))
    ordered = tuple(results[i] for i in range(games))
    return Summary(games, len(levels), levels, ordered)
