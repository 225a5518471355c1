"""Play many games between computer players on virtual time and summarise them.

Each game's seed comes from the run's seed and the game's index alone, and the totals do not depend on the
order games are added in, so the figures are the same for the same seed whatever the number of worker
processes, and on a Dask cluster (executor.py).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ratscrew.bots.registry import resolve_all
from ratscrew.errors import MalformedInput
from ratscrew.executor import open_runner
from ratscrew.lab import kernel
from ratscrew.lab.game import GameStats
from ratscrew.lab.stats import mean_se, median, median_of, middle, percentile
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules

# Without a card limit a game with slaps can in principle go on for ever; the lab stops one at this many
# cards (result "limit") unless the rules set their own end.max_cards.
GUARD_MAX_CARDS = 50_000
_MASK = (1 << 64) - 1
SECOND_MS = 1_000  # game lengths are counted per second for the median time


# The per-game figures whose means the summary gives, by their GameStats names and their names in the summary.
MEANS = {
    "cards": "mean_cards",
    "ms": "mean_minutes",
    "piles_by_slap": "piles_by_slap",
    "piles_by_challenge": "piles_by_challenge",
    "wrong_slaps": "wrong_slaps",
}
SQUARED = tuple(MEANS)
_PER_MINUTE = {"ms": 60_000}  # milliseconds are shown as minutes


@dataclass(slots=True)
class Tally:
    """Running totals over games: what the summary needs, not a record per game.

    Cards per game are kept as counts per value (at most one per card count up to the card limit), so
    the median and percentile stay exact in flat memory. Game lengths are counted per whole second
    (milliseconds hardly ever repeat, so counting those would keep about one entry per game; seconds are
    bounded by the longest game, a few thousand entries): the median time is the median of those seconds,
    taken at their middle, within half a second of the exact one. Sums are exact integers, and the minutes
    a Fraction, so the figures are the same whatever order the games are added in (and so whatever the
    number of worker processes).
    """

    players: int
    games: int = 0
    cards: Counter[int] = field(default_factory=Counter)
    seconds: Counter[int] = field(default_factory=Counter)  # game lengths in whole seconds (ms // 1000)
    minutes: Fraction = Fraction(0)  # the exact sum of every game's ms / 60000 as a float
    piles_by_slap: int = 0
    piles_by_challenge: int = 0
    wrong_slaps: int = 0
    wrong_slap_knockouts: int = 0  # games where a wrong slap knocked someone out
    wins: list[int] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "limit": 0, "loop": 0})
    # Sums of squares (and of milliseconds), exact integers, for the standard error of each mean.
    squares: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SQUARED, 0))
    ms_total: int = 0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players

    def add(self, s: GameStats) -> None:
        self.games += 1
        self.cards[s.cards] += 1
        self.seconds[s.ms // SECOND_MS] += 1
        self.minutes += Fraction(s.ms / 60_000)
        self.piles_by_slap += s.piles_by_slap
        self.piles_by_challenge += s.piles_by_challenge
        self.wrong_slaps += s.wrong_slaps
        self.wrong_slap_knockouts += 1 if s.out_by_wrong_slap else 0
        self.results[s.result] = self.results.get(s.result, 0) + 1
        if s.winner is not None:
            self.wins[s.winner] += 1
        self.ms_total += s.ms
        for key in SQUARED:
            value: int = getattr(s, key)
            self.squares[key] += value * value

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.cards.update(other.cards)
        self.seconds.update(other.seconds)
        self.minutes += other.minutes
        self.piles_by_slap += other.piles_by_slap
        self.piles_by_challenge += other.piles_by_challenge
        self.wrong_slaps += other.wrong_slaps
        self.wrong_slap_knockouts += other.wrong_slap_knockouts
        for key, count in other.results.items():
            self.results[key] = self.results.get(key, 0) + count
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.ms_total += other.ms_total
        for key in SQUARED:
            self.squares[key] += other.squares[key]


@dataclass(slots=True)
class Paired:
    """Running sums of the per-game differences between a cell of a grid and its first cell, over the same
    games (the same deals and random streams): exact integers, so they add up the same in any order."""

    players: int
    games: int = 0
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SQUARED, 0))
    squares: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SQUARED, 0))
    win_sums: list[int] = field(default_factory=list)
    win_squares: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.win_sums:
            self.win_sums = [0] * self.players
            self.win_squares = [0] * self.players

    def add(self, s: GameStats, first: GameStats) -> None:
        self.games += 1
        for key in SQUARED:
            d: int = getattr(s, key) - getattr(first, key)
            self.sums[key] += d
            self.squares[key] += d * d
        for seat in range(self.players):
            d = (s.winner == seat) - (first.winner == seat)
            self.win_sums[seat] += d
            self.win_squares[seat] += d * d

    def merge(self, other: Paired) -> None:
        self.games += other.games
        for key in SQUARED:
            self.sums[key] += other.sums[key]
            self.squares[key] += other.squares[key]
        self.win_sums = [a + b for a, b in zip(self.win_sums, other.win_sums, strict=True)]
        self.win_squares = [a + b for a, b in zip(self.win_squares, other.win_squares, strict=True)]

    def as_dict(self) -> dict[str, object]:
        """``vs_first``: each mean's paired difference from the first cell and its standard error."""
        n = self.games
        doc: dict[str, object] = {}
        for key, name in MEANS.items():
            scale = _PER_MINUTE.get(key, 1)
            se = mean_se(self.sums[key], self.squares[key], n) / scale
            doc[name] = {"diff": round(self.sums[key] / n / scale, 4), "se": round(se, 4)}
        doc["win_rate"] = [
            {"diff": round(total / n, 4), "se": round(mean_se(total, sq, n), 4)}
            for total, sq in zip(self.win_sums, self.win_squares, strict=True)
        ]
        return doc


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    players: int
    levels: tuple[str, ...]
    tally: Tally
    kernel: str = "python"  # what played the games: "c" (lab/kernel.py) or "python"
    kernel_fallback: str | None = None  # why Python played them, when it did

    def as_dict(self) -> dict[str, object]:
        t = self.tally
        n = t.games
        low, high = (SECOND_MS * second + SECOND_MS // 2 for second in middle(t.seconds))
        return {
            "games": n,
            "players": self.players,
            "levels": list(self.levels),
            "mean_cards": round(sum(c * k for c, k in t.cards.items()) / n, 2),
            "median_cards": median(t.cards),
            "p90_cards": percentile(t.cards, 0.9),
            "max_cards": max(t.cards),
            "mean_minutes": round(float(t.minutes) / n, 2),
            "median_minutes": round(median_of(low / 60_000, high / 60_000, n), 2),
            "piles_by_slap": round(t.piles_by_slap / n, 2),
            "piles_by_challenge": round(t.piles_by_challenge / n, 2),
            "wrong_slaps": round(t.wrong_slaps / n, 3),
            "games_with_wrong_slap_knockout": round(t.wrong_slap_knockouts / n, 4),
            "win_rate": [round(w / n, 4) for w in t.wins],
            # The standard error of each share, so a difference can be told from noise.
            "win_rate_se": [round(math.sqrt(w / n * (1 - w / n) / n), 4) for w in t.wins],
            "results": dict(t.results),
            **self.standard_errors(),
        }

    def standard_errors(self) -> dict[str, float]:
        """The standard error of each mean (``mean_cards_se``, ...), from the tally's exact sums."""
        t = self.tally
        totals = {
            "cards": sum(c * k for c, k in t.cards.items()),
            "ms": t.ms_total,
            "piles_by_slap": t.piles_by_slap,
            "piles_by_challenge": t.piles_by_challenge,
            "wrong_slaps": t.wrong_slaps,
        }
        return {
            f"{name}_se": round(mean_se(totals[key], t.squares[key], t.games) / _PER_MINUTE.get(key, 1), 4)
            for key, name in MEANS.items()
        }

    def histogram(self) -> dict[str, list[list[int]]]:
        """The game-length distribution as counts: [cards, games] and [whole seconds, games] pairs."""
        return {
            "cards": [[c, self.tally.cards[c]] for c in sorted(self.tally.cards)],
            "seconds": [[sec, self.tally.seconds[sec]] for sec in sorted(self.tally.seconds)],
        }


def game_seed(seed: int, index: int) -> int:
    return (seed * 0x1_0000_0001 + index * 0x9E37_79B9 + 1) & _MASK


def check_levels(levels: Sequence[str]) -> None:
    """Every name is a known computer player (bots/registry.py) and the seat count is playable."""
    resolve_all(levels)
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        raise MalformedInput(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(levels)}")


def guarded(rules: Rules) -> Rules:
    return rules if rules.end.max_cards else rules.with_changes({"end.max_cards": GUARD_MAX_CARDS})


@dataclass(slots=True)
class GridPart:
    """A chunk of games played in every cell of a grid: each cell's tally, and each cell's paired differences
    from the first cell (none for the first)."""

    tallies: list[Tally]
    paired: list[Paired]

    @property
    def games(self) -> int:
        return self.tallies[0].games

    def merge(self, other: GridPart) -> None:
        for mine, theirs in zip(self.tallies, other.tallies, strict=True):
            mine.merge(theirs)
        for p, q in zip(self.paired, other.paired, strict=True):
            p.merge(q)


def _empty_part(cells: int, players: int) -> GridPart:
    return GridPart([Tally(players) for _ in range(cells)], [Paired(players) for _ in range(cells - 1)])


def _play_chunk(rule_docs: list[dict[str, object]], levels: tuple[str, ...], seed: int, indices: range) -> GridPart:
    """Games ``indices`` in every cell: each game's seed, so its deal and random streams, is the same in all."""
    plays = [kernel.player(rules_from_mapping(doc), levels).play for doc in rule_docs]
    part = _empty_part(len(plays), len(levels))
    for i in indices:
        game = game_seed(seed, i)
        first = plays[0](game)
        part.tallies[0].add(first)
        for cell, play in enumerate(plays[1:], 1):
            stats = play(game)
            part.tallies[cell].add(stats)
            part.paired[cell - 1].add(stats, first)
    return part


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def play_grid(
    cells: Sequence[Rules],
    levels: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[Summary, Paired | None]]:
    """Play the same ``games`` games under each of ``cells`` (rule sets); ``progress`` is called with how many
    more games have finished in every cell. Returns each cell's summary and, after the first, its paired
    differences from the first.

    They are played in ``workers`` local processes (default: one per core), or on the Dask cluster whose
    scheduler is at ``scheduler``; the figures are the same either way.
    """
    check_levels(levels)
    if games < 1:
        raise MalformedInput(f"--games must be at least 1, got {games}")
    guarded_cells = [guarded(rules) for rules in cells]
    levels = tuple(levels)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    chosen = [kernel.player(rules, levels) for rules in guarded_cells]  # what this machine plays with
    docs = [rules_to_mapping(rules) for rules in guarded_cells]
    # A compiled game takes a fraction of a millisecond: its chunks are bigger, or sending them would cost more
    # than playing them.
    most = max(1, (2_000 if all(c.kernel == "c" for c in chosen) else 50) // len(cells))
    total = _empty_part(len(cells), len(levels))
    with open_runner(workers if games >= 4 else 1, scheduler) as runner:
        # Chunks small enough that every slot gets several (and progress moves), big enough to be worth sending.
        size = max(1, min(most, games // (runner.slots * 8) or 1))
        tasks = ((docs, levels, seed, chunk) for chunk in _chunks(games, size))
        for part in runner.unordered(_play_chunk, tasks):
            total.merge(part)
            if progress:
                progress(part.games)
    summaries = [
        Summary(games, len(levels), levels, tally, c.kernel, c.fallback)
        for tally, c in zip(total.tallies, chosen, strict=True)
    ]
    return [(summaries[0], None), *zip(summaries[1:], total.paired, strict=True)]


def simulate(
    rules: Rules,
    levels: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games under one rule set (a grid of one cell); see :func:`play_grid`."""
    [(summary, _)] = play_grid([rules], levels, games, seed, workers=workers, scheduler=scheduler, progress=progress)
    return summary
