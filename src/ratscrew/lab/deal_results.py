"""What random Beggar-my-neighbour deals and the record hunt give a notebook: totals, and one row per deal (or
per new best), as plain Python or as pandas and Arrow tables (lab/tables.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ratscrew.bmn import RandomTally, block_seed, play_bmn, random_deal, to_notation
from ratscrew.lab.bmn_search import Find, SearchState
from ratscrew.lab.stats import mean_se
from ratscrew.lab.tables import Table, to_arrow, to_pandas
from ratscrew.lab.tally import Estimate
from ratscrew.shuffle import SeededRandom

DealRow = tuple[int, int, str, int, int, int | None, bool]  # block, index, deal, cards, tricks, winner, endless
DEAL_COLUMNS = ("block", "index", "deal", "cards", "tricks", "winner", "endless")


def deal_rows(seed: int, games: int, players: int, block: int) -> list[DealRow]:
    """Every deal of one block of a ``play_random`` run, from the block's own stream (the same deals, in the
    same order, as the run plays): its hands in the records' notation, first hand first, and how it went.
    ``winner`` counts hands from 1; an endless deal has no winner, and its cards and tricks are 0."""
    rng = SeededRandom(block_seed(seed, block))
    rows: list[DealRow] = []
    for index in range(games):
        hands = random_deal(rng, players)
        result = play_bmn(hands)
        deal = " ".join(to_notation(h) for h in hands)
        if result.loop is not None:
            rows.append((block, index, deal, 0, 0, None, True))
        else:
            assert result.winner is not None
            rows.append((block, index, deal, result.cards, result.tricks, result.winner + 1, False))
    return rows


@dataclass(frozen=True)
class Deals:
    """A run of random deals (``ratscrew.lab.api.random_deals``): the totals ``bmn --random`` prints, and
    with ``rows`` one row per deal, in dealing order."""

    seed: int
    tally: RandomTally
    rows: tuple[DealRow, ...] | None

    def __repr__(self) -> str:
        """The call and what it gave, in a line (the dataclass's repr printed every deal)."""
        rows = "" if self.rows is not None else ", rows=False"
        call = f"random_deals({self.games}, seed={self.seed}, players={self.tally.players}{rows})"
        longest = "none ended" if self.max_cards is None else f"longest {self.max_cards:,} cards"
        return f"<Deals of {call}: {self.games:,} deals, {self.loops:,} endless, {longest}>"

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def loops(self) -> int:
        """Endless deals: counted here, left out of every mean."""
        return self.tally.loops

    @property
    def max_cards(self) -> int | None:
        return max(self.tally.lengths) if self.tally.ended else None

    @property
    def mean_cards(self) -> Estimate:
        """The mean length of the deals that ended, with its standard error and 95% interval (t)."""
        t = self.tally
        squares = sum(c * c * n for c, n in t.lengths.items())
        return Estimate(t.total_cards / t.ended, mean_se(t.total_cards, squares, t.ended), t.ended - 1)

    @property
    def mean_tricks(self) -> Estimate | None:
        """The mean tricks of the deals that ended, with its standard error (which needs the rows: None
        without them)."""
        t = self.tally
        if self.rows is None:
            return None
        squares = sum(row[4] ** 2 for row in self.rows)
        return Estimate(t.tricks / t.ended, mean_se(t.tricks, squares, t.ended), t.ended - 1)

    def winner_share(self, hand: int) -> Estimate:
        """Hand ``hand``'s (from 1) share of the deals that ended, with Wilson's interval."""
        n, wins = self.tally.ended, self.tally.wins[hand - 1]
        p = wins / n
        return Estimate(p, (p * (1 - p) / n) ** 0.5, n - 1, clip=True, draws=n)

    def table(self) -> Table:
        if self.rows is None:
            raise ValueError("this run kept no per-deal rows: play it with rows=True")
        return {name: [row[i] for row in self.rows] for i, name in enumerate(DEAL_COLUMNS)}

    def to_pandas(self) -> Any:
        """One row per deal as a pandas DataFrame (needs pip install 'ratscrew[lab]')."""
        return to_pandas(self.table())

    def to_arrow(self) -> Any:
        """One row per deal as a pyarrow Table (needs pip install 'ratscrew[lab]')."""
        return to_arrow(self.table())


def find_row(find: Find, seconds: float | None = None) -> dict[str, Any]:
    return {
        "seconds": seconds,
        "batch": find.batch,
        "cards": find.cards,
        "tricks": find.tricks,
        "endless": find.loop,
        "deal": " ".join(to_notation(h) for h in find.deal),
        "above": find.above,
    }


@dataclass(frozen=True)
class Hunt:
    """A record hunt (``ratscrew.lab.api.hunt``): where it ended (``state``: batches, deals dealt, positions
    searched, the pool of its 32 longest deals, the cycles met) and every new best with the seconds it took.
    ``table()`` gives the bests, ``table("pool")`` the pool."""

    state: SearchState
    bests: tuple[tuple[float, Find], ...]

    def __repr__(self) -> str:
        """Where the hunt ended and its best, in a line (the dataclass's repr printed the whole pool)."""
        best = self.best
        found = "nothing found" if best is None else f"best {'endless' if best.loop else f'{best.cards:,} cards'}"
        state = self.state
        batches = f"{state.next_batch:,} batch{'es' if state.next_batch != 1 else ''}"
        return f"<Hunt of seed {state.seed}: {batches}, {state.played:,} deals dealt, {found}>"

    @property
    def best(self) -> Find | None:
        return self.state.best

    def table(self, name: str = "bests") -> Table:
        if name == "bests":
            rows = [find_row(f, seconds) for seconds, f in self.bests]
        elif name == "pool":
            rows = [find_row(f) for f in self.state.pool]
        else:
            raise ValueError(f"no table {name!r}: bests or pool")
        names = list(find_row(Find(("", ""), 0, 0)))
        return {key: [row[key] for row in rows] for key in names}

    def to_pandas(self, table: str = "bests") -> Any:
        return to_pandas(self.table(table))

    def to_arrow(self, table: str = "bests") -> Any:
        return to_arrow(self.table(table))
