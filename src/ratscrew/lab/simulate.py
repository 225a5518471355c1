"""Play many games between computer players on virtual time and summarise them.

Each game's seed comes from the run's seed and the game's index alone, and the totals do not depend on the
order games are added in, so the figures are the same for the same seed whatever the number of worker
processes, and on a Dask cluster (lab/executor.py).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ratscrew.bots.registry import resolve_all
from ratscrew.engine.game import Game
from ratscrew.errors import MalformedInput
from ratscrew.lab import kernel
from ratscrew.lab.executor import open_runner
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, TableEvent, run_virtual

# Without a card limit a game with slaps can in principle go on for ever; the lab stops one at this many
# cards (result "limit") unless the rules set their own end.max_cards.
GUARD_MAX_CARDS = 50_000
_MASK = (1 << 64) - 1
SECOND_MS = 1_000  # game lengths are counted per second for the median time


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
        low, high = (SECOND_MS * second + SECOND_MS // 2 for second in _middle(t.seconds))
        return {
            "games": n,
            "players": self.players,
            "levels": list(self.levels),
            "mean_cards": round(sum(c * k for c, k in t.cards.items()) / n, 2),
            "median_cards": _median(t.cards),
            "p90_cards": _percentile(t.cards, 0.9),
            "max_cards": max(t.cards),
            "mean_minutes": round(float(t.minutes) / n, 2),
            "median_minutes": round(_median_of(low / 60_000, high / 60_000, n), 2),
            "piles_by_slap": round(t.piles_by_slap / n, 2),
            "piles_by_challenge": round(t.piles_by_challenge / n, 2),
            "wrong_slaps": round(t.wrong_slaps / n, 3),
            "games_with_wrong_slap_knockout": round(t.wrong_slap_knockouts / n, 4),
            "win_rate": [round(w / n, 4) for w in t.wins],
            # The standard error of each share, so a difference can be told from noise.
            "win_rate_se": [round(math.sqrt(w / n * (1 - w / n) / n), 4) for w in t.wins],
            "results": dict(t.results),
        }


def _nth(counts: Counter[int], index: int) -> int:
    """The value at ``index`` (from 0) of the sorted values that ``counts`` counts."""
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen > index:
            return value
    raise IndexError(index)


def _middle(counts: Counter[int]) -> tuple[int, int]:
    """The two middle values (the same one twice for an odd count), as statistics.median picks them."""
    n = sum(counts.values())
    return _nth(counts, (n - 1) // 2), _nth(counts, n // 2)


def _median_of(low: float, high: float, n: int) -> float:
    return high if n % 2 else (low + high) / 2


def _median(counts: Counter[int]) -> int | float:
    low, high = _middle(counts)
    n = sum(counts.values())
    return high if n % 2 else (low + high) / 2


def _percentile(counts: Counter[int], q: float) -> int:
    """Nearest-rank percentile."""
    rank = max(1, -(-sum(counts.values()) * q // 1))
    return _nth(counts, int(rank) - 1)


def game_seed(seed: int, index: int) -> int:
    return (seed * 0x1_0000_0001 + index * 0x9E37_79B9 + 1) & _MASK


def check_levels(levels: Sequence[str]) -> None:
    """Every name is a known computer player (bots/registry.py) and the seat count is playable."""
    resolve_all(levels)
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        raise MalformedInput(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(levels)}")


def guarded(rules: Rules) -> Rules:
    return rules if rules.end.max_cards else rules.with_changes({"end.max_cards": GUARD_MAX_CARDS})


def play_one(
    rules: Rules, levels: Sequence[str], seed: int, *, on_event: Callable[[TableEvent], None] | None = None
) -> GameStats:
    """One complete game between bots at ``levels`` (seat order), on virtual time; ``on_event`` hears
    every event the table publishes."""
    game = Game.from_seed(rules, len(levels), seed)
    clock = VirtualClock()
    table = Table(
        game,
        [SeatSpec(f"bot {i + 1}", level) for i, level in enumerate(levels)],
        clock,
        seed=seed,
        config=TableConfig(),
    )
    if on_event is not None:
        table.listeners.append(on_event)
    run_virtual(table, clock)
    assert game.outcome is not None
    piles = table.piles_won()
    knocked = table.wrong_slap_knockouts()
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


def _play_chunk(rules_doc: dict[str, object], levels: tuple[str, ...], seed: int, indices: range) -> Tally:
    rules = rules_from_mapping(rules_doc)
    tally = Tally(len(levels))
    play = kernel.player(rules, levels).play
    for i in indices:
        tally.add(play(game_seed(seed, i)))
    return tally


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
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games; ``progress`` is called with how many more have finished.

    They are played in ``workers`` local processes (default: one per core), or on the Dask cluster whose
    scheduler is at ``scheduler``; the figures are the same either way.
    """
    check_levels(levels)
    if games < 1:
        raise MalformedInput(f"--games must be at least 1, got {games}")
    rules = guarded(rules)
    levels = tuple(levels)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    tally = Tally(len(levels))
    chosen = kernel.player(rules, levels)  # what this machine plays with (each worker chooses the same way)
    doc = rules_to_mapping(rules)
    # A compiled game takes a fraction of a millisecond: its chunks are bigger, or sending them would cost more
    # than playing them.
    most = 2_000 if chosen.kernel == "c" else 50
    with open_runner(workers if games >= 4 else 1, scheduler) as runner:
        # Chunks small enough that every slot gets several (and progress moves), big enough to be worth sending.
        size = max(1, min(most, games // (runner.slots * 8) or 1))
        tasks = ((doc, levels, seed, chunk) for chunk in _chunks(games, size))
        for part in runner.unordered(_play_chunk, tasks):
            tally.merge(part)
            if progress:
                progress(part.games)
    return Summary(games, len(levels), levels, tally, chosen.kernel, chosen.fallback)
