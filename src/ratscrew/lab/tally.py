"""Running totals over the games of one cell, and over the pairs of cells, that add up the same in any order.

The unit of a run is the deal: game ``i`` of a replicate, played once, or once in every rotation of the seats
(``--rotate-seats``). Medians and percentiles come from every game's length (counts per value); means come with
a standard error taken over deals, from exact sums of each deal's total and of its square, because the games of
one deal's rotations share its cards and are not independent of each other. Two cells are compared deal by deal
from the sums of the products of their deal totals (:class:`Cross`), which gives the paired difference's
standard error without keeping a list of deals. Every sum is an exact integer (the minutes a Fraction), so the
figures do not depend on the order the games were added in, and so on the number of worker processes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ratscrew.lab.game import GameStats
from ratscrew.lab.stats import ci95, mean_se, wilson95

# The per-game figures whose means the summary gives, by their GameStats names and their names in the summary.
MEANS = {
    "cards": "mean_cards",
    "ms": "mean_minutes",
    "tricks": "mean_tricks",
    "piles_by_slap": "piles_by_slap",
    "piles_by_challenge": "piles_by_challenge",
    "wrong_slaps": "wrong_slaps",
}
SCALE = {"ms": 60_000}  # milliseconds are shown as minutes
SECOND_MS = 1_000  # game lengths are counted per second for the median time


@dataclass(frozen=True, slots=True)
class DealSums:
    """One deal's totals in one cell, over its rotations: each figure of MEANS, each seat's wins, and each
    player's wins (player p of the line-up sits at seat (p - k) mod n in rotation k)."""

    figures: tuple[int, ...]  # in the order of MEANS
    seat_wins: tuple[int, ...]
    player_wins: tuple[int, ...]


def deal_sums(games: Sequence[GameStats]) -> DealSums:
    """``games[k]`` is the deal played in rotation k (one game when the seats do not rotate)."""
    n = len(games[0].seat_slap_piles)
    seats, players = [0] * n, [0] * n
    for k, game in enumerate(games):
        if game.winner is not None:
            seats[game.winner] += 1
            players[(game.winner + k) % n] += 1
    figures = tuple(sum(getattr(g, key) for g in games) for key in MEANS)
    return DealSums(figures, tuple(seats), tuple(players))


@dataclass(slots=True)
class Tally:
    """One cell's running totals. ``rotations`` is how many games each deal is played as (1, or the number
    of seats when they rotate)."""

    players: int
    rotations: int = 1
    games: int = 0
    deals: int = 0
    cards: Counter[int] = field(default_factory=Counter)
    seconds: Counter[int] = field(default_factory=Counter)  # game lengths in whole seconds (ms // 1000)
    minutes: Fraction = Fraction(0)  # the exact sum of every game's ms / 60000 as a float
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MEANS, 0))
    squares: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MEANS, 0))  # of each deal's total
    wrong_slap_knockouts: int = 0  # games where a wrong slap knocked someone out
    wins: list[int] = field(default_factory=list)  # by seat
    win_squares: list[int] = field(default_factory=list)  # of each deal's wins by seat
    player_wins: list[int] = field(default_factory=list)
    player_squares: list[int] = field(default_factory=list)
    seat_slap_piles: list[int] = field(default_factory=list)
    seat_challenge_piles: list[int] = field(default_factory=list)
    seat_wrong_slaps: list[int] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "limit": 0, "loop": 0})

    def __post_init__(self) -> None:
        for name in (
            "wins",
            "win_squares",
            "player_wins",
            "player_squares",
            "seat_slap_piles",
            "seat_challenge_piles",
            "seat_wrong_slaps",
        ):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, game: GameStats) -> None:
        """One deal played once (no rotation)."""
        self.add_deal((game,), deal_sums((game,)))

    def add_deal(self, games: Sequence[GameStats], sums: DealSums) -> None:
        self.deals += 1
        for game in games:
            self.games += 1
            self.cards[game.cards] += 1
            self.seconds[game.ms // SECOND_MS] += 1
            self.minutes += Fraction(game.ms / 60_000)
            self.wrong_slap_knockouts += 1 if game.out_by_wrong_slap else 0
            self.results[game.result] = self.results.get(game.result, 0) + 1
            for seat in range(self.players):
                self.seat_slap_piles[seat] += game.seat_slap_piles[seat]
                self.seat_challenge_piles[seat] += game.seat_challenge_piles[seat]
                self.seat_wrong_slaps[seat] += game.seat_wrong_slaps[seat]
        for key, value in zip(MEANS, sums.figures, strict=True):
            self.sums[key] += value
            self.squares[key] += value * value
        for seat in range(self.players):
            self.wins[seat] += sums.seat_wins[seat]
            self.win_squares[seat] += sums.seat_wins[seat] ** 2
            self.player_wins[seat] += sums.player_wins[seat]
            self.player_squares[seat] += sums.player_wins[seat] ** 2

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.deals += other.deals
        self.cards.update(other.cards)
        self.seconds.update(other.seconds)
        self.minutes += other.minutes
        self.wrong_slap_knockouts += other.wrong_slap_knockouts
        for key in MEANS:
            self.sums[key] += other.sums[key]
            self.squares[key] += other.squares[key]
        for key, count in other.results.items():
            self.results[key] = self.results.get(key, 0) + count
        for name in (
            "wins",
            "win_squares",
            "player_wins",
            "player_squares",
            "seat_slap_piles",
            "seat_challenge_piles",
            "seat_wrong_slaps",
        ):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])

    # ------------------------------------------------------------------ estimates

    def mean(self, key: str) -> Estimate:
        """The mean per game of a figure of MEANS (minutes for ``ms``), its standard error over deals and its
        95% interval (t on deals - 1 degrees of freedom)."""
        r, scale = self.rotations, SCALE.get(key, 1)
        value = self.sums[key] / self.games / scale
        se = mean_se(self.sums[key], self.squares[key], self.deals) / r / scale
        return Estimate(value, se, self.deals - 1)

    def win_share(self, seat: int, *, by_player: bool = False) -> Estimate:
        """A seat's (or with ``by_player``, a player's) share of the games. Without rotation each game is one
        independent draw: the standard error is sqrt(p(1-p)/n) and the interval Wilson's; with rotation the
        standard error is taken over deals (each deal's share over its rotations) and the interval is t's."""
        wins = (self.player_wins if by_player else self.wins)[seat]
        squares = (self.player_squares if by_player else self.win_squares)[seat]
        p = wins / self.games
        if self.rotations == 1:
            return Estimate(p, (p * (1 - p) / self.games) ** 0.5, self.games - 1, clip=True, draws=self.games)
        se = mean_se(wins, squares, self.deals) / self.rotations
        return Estimate(p, se, self.deals - 1, clip=True)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure, its standard error, and the degrees of freedom of its 95% interval (``ci95``)."""

    value: float
    se: float
    df: int
    clip: bool = False  # a share: the interval is kept within 0 and 1
    draws: int | None = None  # a share of this many independent games: Wilson's interval

    @property
    def ci95(self) -> tuple[float, float]:
        if self.draws is not None:
            return wilson95(self.value, self.draws)
        low, high = ci95(self.value, self.se, self.df)
        return (max(0.0, low), min(1.0, high)) if self.clip else (low, high)


@dataclass(slots=True)
class Cross:
    """The sums of the products of two cells' deal totals, deal by deal: with each cell's own sums of squares,
    what the paired difference's standard error needs. Kept for every pair of cells (a before b)."""

    seats: int  # the seats both cells have
    figures: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MEANS, 0))
    seat_wins: list[int] = field(default_factory=list)
    player_wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.seats
            self.player_wins = [0] * self.seats

    def add(self, a: DealSums, b: DealSums) -> None:
        for key, x, y in zip(MEANS, a.figures, b.figures, strict=True):
            self.figures[key] += x * y
        for seat in range(self.seats):
            self.seat_wins[seat] += a.seat_wins[seat] * b.seat_wins[seat]
            self.player_wins[seat] += a.player_wins[seat] * b.player_wins[seat]

    def merge(self, other: Cross) -> None:
        for key in MEANS:
            self.figures[key] += other.figures[key]
        self.seat_wins = [x + y for x, y in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.player_wins = [x + y for x, y in zip(self.player_wins, other.player_wins, strict=True)]


def _paired(
    sum_a: int, sq_a: int, r_a: int, sum_b: int, sq_b: int, r_b: int, cross: int, deals: int, scale: int
) -> Estimate:
    """The mean over deals of (a's deal mean - b's deal mean) and its standard error, from exact sums."""
    total = Fraction(sum_a, r_a) - Fraction(sum_b, r_b)
    squares = Fraction(sq_a, r_a * r_a) + Fraction(sq_b, r_b * r_b) - 2 * Fraction(cross, r_a * r_b)
    return Estimate(float(total / deals) / scale, mean_se(total, squares, deals) / scale, deals - 1)


@dataclass(frozen=True, slots=True)
class Contrast:
    """Cell a minus cell b, paired deal by deal: each mean's difference, and each seat's (and with rotation,
    each player's) difference in share of wins, over the seats both cells have."""

    figures: dict[str, Estimate]  # by the summary's names (mean_cards, mean_minutes, ...)
    win_rate: list[Estimate]
    player_win_rate: list[Estimate] | None

    def as_dict(self, *, with_ci: bool = True) -> dict[str, object]:
        def one(e: Estimate) -> dict[str, object]:
            doc: dict[str, object] = {"diff": round(e.value, 4), "se": round(e.se, 4)}
            if with_ci:
                doc["ci95"] = [round(x, 4) for x in e.ci95]
            return doc

        doc: dict[str, object] = {name: one(e) for name, e in self.figures.items()}
        doc["win_rate"] = [one(e) for e in self.win_rate]
        if self.player_win_rate is not None:
            doc["player_win_rate"] = [one(e) for e in self.player_win_rate]
        return doc


def contrast(a: Tally, b: Tally, cross: Cross) -> Contrast:
    """``a - b``, for two cells played on the same deals (``cross`` holds their products)."""
    deals = a.deals
    figures = {
        name: _paired(
            a.sums[key],
            a.squares[key],
            a.rotations,
            b.sums[key],
            b.squares[key],
            b.rotations,
            cross.figures[key],
            deals,
            SCALE.get(key, 1),
        )
        for key, name in MEANS.items()
    }
    seats = range(cross.seats)

    def shares(wins_a: list[int], sq_a: list[int], wins_b: list[int], sq_b: list[int], xs: list[int]) -> list[Estimate]:
        return [
            _paired(wins_a[s], sq_a[s], a.rotations, wins_b[s], sq_b[s], b.rotations, xs[s], deals, 1) for s in seats
        ]

    win_rate = shares(a.wins, a.win_squares, b.wins, b.win_squares, cross.seat_wins)
    by_player = None
    if a.rotations > 1 and b.rotations > 1:
        by_player = shares(a.player_wins, a.player_squares, b.player_wins, b.player_squares, cross.player_wins)
    return Contrast(figures, win_rate, by_player)
