"""Play many games between computer players on virtual time and summarise them.

Each game's seed comes from the run's (or the replicate's) seed and the game's index alone, and the totals do
not depend on the order games are added in (lab/tally.py), so the figures are the same for the same seed
whatever the number of worker processes, and on a Dask cluster (executor.py).

A run is a design: cells (rule sets and line-ups) played on the same deals; with ``rotate``, every deal played
once in every rotation of the seats, so each player holds each hand once; with ``replicates``, the whole run
repeated on seeds of its own, derived from the run's seed and recorded.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ratscrew.bots.registry import resolve_all
from ratscrew.errors import MalformedInput
from ratscrew.executor import open_runner
from ratscrew.lab import kernel
from ratscrew.lab.game import GameStats
from ratscrew.lab.inputs import check_count, check_place, check_seed
from ratscrew.lab.stats import ci95, median, median_of, middle, percentile
from ratscrew.lab.tally import MEANS, SECOND_MS, Contrast, Cross, Estimate, Tally, contrast, deal_sums
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.shuffle import SeededRandom

__all__ = ["GUARD_MAX_CARDS", "CellSpec", "GameRow", "GridRun", "Summary", "Tally", "play_grid", "simulate"]

# Without a card limit a game with slaps can in principle go on for ever; the lab stops one at this many
# cards (result "limit") unless the rules set their own end.max_cards.
GUARD_MAX_CARDS = 50_000
_MASK = (1 << 64) - 1
_REPLICATE_MIX = 0x5851_F42D_4C95_7F2D
# How each mean is rounded in the summary.
_PLACES = {"mean_cards": 2, "mean_minutes": 2, "mean_tricks": 2, "piles_by_slap": 2, "piles_by_challenge": 2}
_PLACES["wrong_slaps"] = 3


def _rounded(pair: tuple[float, float], places: int = 4) -> list[float]:
    return [round(pair[0], places), round(pair[1], places)]


@dataclass(frozen=True, slots=True)
class Summary:
    """One cell's figures (over every replicate, or one): ``as_dict`` is what ``simulate --json`` prints."""

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
        shares = [t.win_share(seat) for seat in range(self.players)]
        doc: dict[str, object] = {
            "games": n,
            "players": self.players,
            "levels": list(self.levels),
            "mean_cards": round(t.sums["cards"] / n, 2),
            "median_cards": median(t.cards),
            "p90_cards": percentile(t.cards, 0.9),
            "max_cards": max(t.cards),
            "mean_minutes": round(float(t.minutes) / n, 2),
            "median_minutes": round(median_of(low / 60_000, high / 60_000, n), 2),
            "mean_tricks": round(t.sums["tricks"] / n, 2),
            "piles_by_slap": round(t.sums["piles_by_slap"] / n, 2),
            "piles_by_challenge": round(t.sums["piles_by_challenge"] / n, 2),
            "wrong_slaps": round(t.sums["wrong_slaps"] / n, 3),
            "games_with_wrong_slap_knockout": round(t.wrong_slap_knockouts / n, 4),
            "win_rate": [round(e.value, 4) for e in shares],
            # The standard error of each share, so a difference can be told from noise.
            "win_rate_se": [round(e.se, 4) for e in shares],
            "win_rate_ci95": [_rounded(e.ci95) for e in shares],
            "results": dict(t.results),
            **self.standard_errors(),
            "seat_piles_by_slap": [round(x / n, 2) for x in t.seat_slap_piles],
            "seat_piles_by_challenge": [round(x / n, 2) for x in t.seat_challenge_piles],
            "seat_wrong_slaps": [round(x / n, 3) for x in t.seat_wrong_slaps],
        }
        if t.rotations > 1:
            players = [t.win_share(p, by_player=True) for p in range(self.players)]
            doc |= {
                "rotate_seats": True,
                "deals": t.deals,
                # Player p is the p-th level of the line-up, whichever seat it held.
                "player_win_rate": [round(e.value, 4) for e in players],
                "player_win_rate_se": [round(e.se, 4) for e in players],
                "player_win_rate_ci95": [_rounded(e.ci95) for e in players],
            }
        return doc

    def estimates(self) -> dict[str, Estimate]:
        """Each mean of MEANS (by its summary name) with its standard error and 95% interval."""
        return {name: self.tally.mean(key) for key, name in MEANS.items()}

    def standard_errors(self) -> dict[str, object]:
        """The standard error of each mean (``mean_cards_se``, ...) and its 95% interval (``mean_cards_ci95``)."""
        doc: dict[str, object] = {}
        for name, e in self.estimates().items():
            doc[f"{name}_se"] = round(e.se, 4)
        for name, e in self.estimates().items():
            doc[f"{name}_ci95"] = _rounded(e.ci95)
        return doc

    def histogram(self) -> dict[str, list[list[int]]]:
        """The game-length distribution as counts: [cards, games] and [whole seconds, games] pairs."""
        return {
            "cards": [[c, self.tally.cards[c]] for c in sorted(self.tally.cards)],
            "seconds": [[sec, self.tally.seconds[sec]] for sec in sorted(self.tally.seconds)],
        }


def game_seed(seed: int, index: int) -> int:
    return (seed * 0x1_0000_0001 + index * 0x9E37_79B9 + 1) & _MASK


def replicate_seed(seed: int, replicate: int) -> int:
    """The seed of replicate ``replicate`` of a run (replicate 0: the run's seed itself, so one replicate is a
    plain run): a draw of the project's seeded generator, far from the seeds a user types."""
    if replicate == 0:
        return seed
    return SeededRandom((seed + replicate * _REPLICATE_MIX) & _MASK).next_u64()


def check_levels(levels: Sequence[str]) -> None:
    """Every name is a known computer player (bots/registry.py) and the seat count is playable."""
    resolve_all(levels)
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        raise MalformedInput(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(levels)}")


def guarded(rules: Rules) -> Rules:
    return rules if rules.end.max_cards else rules.with_changes({"end.max_cards": GUARD_MAX_CARDS})


def rotated(levels: Sequence[str], k: int) -> tuple[str, ...]:
    """The line-up in rotation ``k``: seat i holds player (i + k) mod n."""
    return (*levels[k:], *levels[:k])


@dataclass(frozen=True, slots=True)
class CellSpec:
    """One cell of a design: the rules and the line-up (one level per seat, seat 1 first)."""

    rules: Rules
    levels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a run: cell, replicate, deal (its index in the replicate), rotation, the game's seed (which
    deals the cards and drives every random draw) and its figures."""

    cell: int
    replicate: int
    deal: int
    rotation: int
    seed: int
    stats: GameStats


@dataclass(slots=True)
class GridPart:
    """Deals played in every cell of a design: each cell's tally, the products of every pair of cells' deal
    totals (a before b), and each game's row when asked for."""

    tallies: list[Tally]
    cross: dict[tuple[int, int], Cross]
    rows: list[GameRow] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return self.tallies[0].deals

    def merge(self, other: GridPart) -> None:
        for mine, theirs in zip(self.tallies, other.tallies, strict=True):
            mine.merge(theirs)
        for pair, cross in self.cross.items():
            cross.merge(other.cross[pair])
        self.rows += other.rows


def _empty_part(seats: Sequence[int], rotate: bool) -> GridPart:
    tallies = [Tally(n, n if rotate else 1) for n in seats]
    pairs = {(a, b): Cross(min(seats[a], seats[b])) for a in range(len(seats)) for b in range(a + 1, len(seats))}
    return GridPart(tallies, pairs)


CellDoc = tuple[dict[str, object], tuple[str, ...]]  # a cell as sent to a worker: rules as a mapping, line-up


def _play_chunk(
    cells: list[CellDoc], rotate: bool, seed: int, replicate: int, indices: range, keep_rows: bool
) -> tuple[int, GridPart]:
    """Deals ``indices`` of one replicate in every cell (and rotation): each deal's seed, so its cards and
    random streams, is the same in all."""
    plays = [
        [kernel.player(rules_from_mapping(doc), rotated(levels, k)).play for k in range(len(levels) if rotate else 1)]
        for doc, levels in cells
    ]
    part = _empty_part([len(levels) for _, levels in cells], rotate)
    for i in indices:
        game = game_seed(seed, i)
        sums = []
        for c, cell_plays in enumerate(plays):
            games = [play(game) for play in cell_plays]
            cell_sums = deal_sums(games)
            part.tallies[c].add_deal(games, cell_sums)
            sums.append(cell_sums)
            if keep_rows:
                part.rows += [GameRow(c, replicate, i, k, game, stats) for k, stats in enumerate(games)]
        for (a, b), cross in part.cross.items():
            cross.add(sums[a], sums[b])
    return replicate, part


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


@dataclass(slots=True)
class GridRun:
    """A design as played: its cells, seeds (one per replicate), and per replicate each cell's totals and every
    pair of cells' products; ``rows`` holds every game (in replicate, deal, cell, rotation order) when kept."""

    cells: list[CellSpec]
    games: int  # deals per replicate
    seed: int
    seeds: list[int]
    rotate: bool
    parts: list[GridPart]
    kernels: list[kernel.Player]
    rows: list[GameRow] | None = None
    pooled: GridPart | None = None  # every replicate's totals added up, once asked for

    def _part(self, replicate: int | None) -> GridPart:
        if replicate is not None:
            return self.parts[replicate]
        if len(self.parts) == 1:
            return self.parts[0]
        if self.pooled is None:
            self.pooled = _empty_part([len(c.levels) for c in self.cells], self.rotate)
            for part in self.parts:
                self.pooled.merge(GridPart(part.tallies, part.cross))
        return self.pooled

    def summary(self, cell: int, replicate: int | None = None) -> Summary:
        """A cell's figures over every replicate (or over one)."""
        tally = self._part(replicate).tallies[cell]
        spec, played = self.cells[cell], self.kernels[cell]
        return Summary(tally.games, len(spec.levels), spec.levels, tally, played.kernel, played.fallback)

    def summaries(self) -> list[Summary]:
        pooled = self._part(None)
        return [
            Summary(t.games, len(spec.levels), spec.levels, t, k.kernel, k.fallback)
            for t, spec, k in zip(pooled.tallies, self.cells, self.kernels, strict=True)
        ]

    def contrast(self, a: int, b: int, replicate: int | None = None) -> Contrast:
        """Cell ``a`` minus cell ``b``, paired deal by deal (any two cells, either way round)."""
        if a == b or not (0 <= a < len(self.cells) and 0 <= b < len(self.cells)):
            raise ValueError(f"a contrast needs two different cells of 0 to {len(self.cells) - 1}, got {a} and {b}")
        part = self._part(replicate)
        return contrast(part.tallies[a], part.tallies[b], part.cross[(min(a, b), max(a, b))])

    def between_replicates(self, cell: int) -> dict[str, object]:
        """Each mean (and each seat's share, and with rotated seats each player's) over the replicates: their
        mean, the standard error of that mean from the replicates' spread, and its 95% interval on replicates - 1
        degrees of freedom. Beside the pooled figures' own standard error, a check of it: the two should agree."""
        summaries = [self.summary(cell, r) for r in range(len(self.parts))]
        per = [s.estimates() for s in summaries]
        doc: dict[str, object] = {}
        for name in per[0]:
            doc[name] = _spread([p[name].value for p in per])
        seats = len(self.cells[cell].levels)
        doc["win_rate"] = [_spread([s.tally.win_share(seat).value for s in summaries]) for seat in range(seats)]
        if self.rotate:
            doc["player_win_rate"] = [
                _spread([s.tally.win_share(p, by_player=True).value for s in summaries]) for p in range(seats)
            ]
        return doc

    def replicate_docs(self, cell: int) -> list[dict[str, object]]:
        """Each replicate's seed and means (with rotated seats, each player's share too)."""
        docs: list[dict[str, object]] = []
        for r, seed in enumerate(self.seeds):
            summary = self.summary(cell, r)
            doc: dict[str, object] = {"replicate": r, "seed": seed, "games": summary.games}
            for name, e in summary.estimates().items():
                doc[name] = round(e.value, 4)
                doc[f"{name}_se"] = round(e.se, 4)
            doc["win_rate"] = [round(summary.tally.win_share(s).value, 4) for s in range(summary.players)]
            if self.rotate:
                shares = [summary.tally.win_share(p, by_player=True) for p in range(summary.players)]
                doc["player_win_rate"] = [round(e.value, 4) for e in shares]
            docs.append(doc)
        return docs


def _spread(values: list[float]) -> dict[str, object]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean": round(mean, 4), "se": round(se, 4), "ci95": _rounded(ci95(mean, se, len(values) - 1))}


def play_grid(
    cells: Sequence[CellSpec],
    games: int,
    seed: int = 1,
    *,
    rotate: bool = False,
    replicates: int = 1,
    keep_rows: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> GridRun:
    """Play ``games`` deals of each replicate in every one of ``cells`` (and with ``rotate``, in every rotation
    of each cell's seats); ``progress`` is called with how many more deals have finished in every cell.

    They are played in ``workers`` local processes (default: one per core), or on the Dask cluster whose
    scheduler is at ``scheduler``; the figures (and the rows, sorted) are the same either way.
    """
    for cell in cells:
        check_levels(cell.levels)
    check_count("games", games)
    check_seed(seed)
    check_count("replicates", replicates)
    check_place(workers, scheduler)
    guarded_cells = [CellSpec(guarded(c.rules), tuple(c.levels)) for c in cells]
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    chosen = [kernel.player(c.rules, c.levels) for c in guarded_cells]  # what this machine plays with
    docs: list[CellDoc] = [(rules_to_mapping(c.rules), c.levels) for c in guarded_cells]
    per_deal = sum(len(c.levels) if rotate else 1 for c in guarded_cells)  # games a deal takes in every cell
    # A compiled game takes a fraction of a millisecond: its chunks are bigger, or sending them would cost more
    # than playing them.
    most = max(1, (2_000 if all(c.kernel == "c" for c in chosen) else 50) // per_deal)
    seeds = [replicate_seed(seed, r) for r in range(replicates)]
    seats = [len(c.levels) for c in guarded_cells]
    parts = [_empty_part(seats, rotate) for _ in seeds]
    total = games * replicates
    with open_runner(workers if total >= 4 else 1, scheduler) as runner:
        # Chunks small enough that every slot gets several (and progress moves), big enough to be worth sending.
        size = max(1, min(most, total // (runner.slots * 8) or 1))
        tasks = (
            (docs, rotate, replicate_seed_, r, chunk, keep_rows)
            for r, replicate_seed_ in enumerate(seeds)
            for chunk in _chunks(games, size)
        )
        for r, part in runner.unordered(_play_chunk, tasks):
            parts[r].merge(part)
            if progress:
                progress(part.deals)
    rows = None
    if keep_rows:
        rows = sorted(
            (row for part in parts for row in part.rows), key=lambda g: (g.replicate, g.deal, g.cell, g.rotation)
        )
        for part in parts:
            part.rows = []
    return GridRun(list(cells), games, seed, seeds, rotate, parts, chosen, rows)


def simulate(
    rules: Rules,
    levels: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    rotate: bool = False,
    replicates: int = 1,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games under one rule set (a design of one cell); see :func:`play_grid`."""
    run = play_grid(
        [CellSpec(rules, tuple(levels))],
        games,
        seed,
        rotate=rotate,
        replicates=replicates,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
    )
    return run.summaries()[0]
