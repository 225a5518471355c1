"""``bmn --random``: random Beggar-my-neighbour deals on a time budget, and the figures a run gives.

A run of N deals (:func:`ratscrew.bmn.play_random`) deals them from a fixed sequence of streams: block ``b``
holds deals ``b * RANDOM_BLOCK`` onwards, from a stream of its own. A run on a time budget plays the same
sequence from the start, cut into chunks that may start part way through a block (the stream's state there is
found by dealing without playing, a few percent of the cost of playing), and stops at the first chunk it reads
once the time is up. What it has played is then always the first N deals of the sequence for some N, so its
figures are those of ``--random N`` with the same seed, to the last digit, whatever the machine, the workers or
the cluster: the seed and the count reproduce it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ratscrew import bmn
from ratscrew.bmn import RandomTally, block_seed, play_block, random_kernel, skip_deals, to_notation
from ratscrew.lab.stats import ci95, mean_se, percentile, share_se, wilson95

PERCENTILES = (0.5, 0.9, 0.99, 0.999, 0.9999)
CHUNK_SECONDS = 0.1  # what a chunk should take, so a run stops soon after its time is up
FIRST_CHUNK = {"c": 2_000, "python": 20}  # deals in the first chunk, before the speed is known

Chunk = tuple[int, int, int, bool, int, int, int]  # play_block's arguments


def play_random_for(
    seconds: float,
    seed: int,
    players: int = 2,
    *,
    games: int | None = None,
    accelerated: bool = True,
    workers: int = 1,
    scheduler: str | None = None,
    keep: int = 1,
    clock: Callable[[], float] = time.monotonic,
) -> RandomTally:
    """Random deals for ``seconds`` (and no more than ``games``, when given; one chunk at least, so a spent
    budget still says something): the first ``tally.games`` deals of the run ``play_random(tally.games, seed,
    players)`` plays, with the same figures. ``clock`` is injected so tests can run on virtual time."""
    from ratscrew.executor import open_runner  # here: the command line's plain deals need no process pool

    start = clock()
    kernel = random_kernel(players, accelerated=accelerated)
    tally = RandomTally(players, keep=keep)

    def time_left() -> bool:
        return clock() - start < seconds

    def chunks(slots: int) -> Iterator[Chunk]:
        dealt = 0  # deals handed out so far
        state = seed  # the stream's state at deal ``dealt``
        while (games is None or dealt < games) and (dealt == 0 or time_left()):  # one chunk at least
            elapsed = clock() - start
            rate = tally.games / elapsed / slots if tally.games and elapsed > 0 else 0.0
            size = int(rate * CHUNK_SECONDS) if rate else FIRST_CHUNK[kernel]  # its speed so far
            block, first = divmod(dealt, bmn.RANDOM_BLOCK)
            if first == 0:
                state = block_seed(seed, block)
            size = max(1, min(size, bmn.RANDOM_BLOCK - first, (games - dealt) if games is not None else size))
            yield state, size, players, accelerated, keep, block, first
            state = skip_deals(state, size, accelerated=accelerated)
            dealt += size

    with open_runner(workers, scheduler) as runner:
        results = runner.ordered(play_block, chunks(runner.slots))
        try:
            for part in results:
                tally.merge(part)
                if not time_left():
                    break
        finally:
            results.close()  # the chunks still running are dropped: what was read is a whole prefix
    return tally


@dataclass(frozen=True, slots=True)
class RandomRun:
    """A run of random deals: its tally, seed and time, and ``budget`` when a time budget is what stopped it
    (its figures are then those of the first ``tally.games`` deals, which :meth:`reproduce` plays again)."""

    tally: RandomTally
    seed: int
    seconds: float
    budget: float | None = None

    def figures(self) -> dict[str, object]:
        return random_figures(self.tally, self.seed, self.seconds, self.budget)

    def percentiles(self) -> dict[str, int]:
        return {mark(q): percentile(self.tally.lengths, q) for q in PERCENTILES}

    def reproduce(self) -> list[str]:
        """The command that plays exactly these deals again, with no time budget."""
        players = [] if self.tally.players == 2 else ["--players", str(self.tally.players)]
        return ["ratscrew", "bmn", "--random", str(self.tally.games), "--seed", str(self.seed), *players]


def rounded(interval: tuple[float, float], digits: int) -> list[float]:
    return [round(interval[0], digits), round(interval[1], digits)]


def random_figures(tally: RandomTally, seed: int, seconds: float, budget: float | None = None) -> dict[str, object]:
    """What ``bmn --random --json`` prints: every mean and share with its standard error and 95% confidence
    interval, as the lab gives them everywhere (lab/stats.py: Student's t on the deals less one for a mean,
    Wilson's score interval for a share), over the deals that ended; the endless ones are counted apart."""
    ended = tally.ended
    doc: dict[str, object] = {"games": tally.games, "seed": seed, "seconds": round(seconds, 4)}
    if budget is not None:  # the time budget stopped the run
        doc["budget_seconds"] = budget
    doc["games_per_s"] = round(tally.games / seconds, 1) if seconds > 0 else None
    if ended:
        cards = tally.total_cards
        squares = sum(c * c * n for c, n in tally.lengths.items())
        cards_mean, cards_se = cards / ended, mean_se(cards, squares, ended)
        tricks_mean, tricks_se = tally.tricks / ended, mean_se(tally.tricks, tally.tricks_squared, ended)
        shares = [w / ended for w in tally.wins]
        shares_se = [share_se(w, ended) for w in tally.wins]
        doc |= {
            "mean_cards": round(cards_mean, 2),
            "mean_cards_se": round(cards_se, 4),
            "mean_cards_ci95": rounded(ci95(cards_mean, cards_se, ended - 1), 2),
            "max_cards": max(tally.lengths),
            "loops": tally.loops,
            "kernel": random_kernel(tally.players),
            "mean_tricks": round(tricks_mean, 2),
            "mean_tricks_se": round(tricks_se, 4),
            "mean_tricks_ci95": rounded(ci95(tricks_mean, tricks_se, ended - 1), 2),
            "winner_share": [round(s, 5) for s in shares],
            "winner_share_se": [round(se, 5) for se in shares_se],
            "winner_share_ci95": [rounded(wilson95(s, ended), 5) for s in shares],
            "percentiles": {mark(q): percentile(tally.lengths, q) for q in PERCENTILES},
        }
    else:
        doc |= {"mean_cards": None, "max_cards": None, "loops": tally.loops, "kernel": random_kernel(tally.players)}
        doc |= {"mean_tricks": None, "winner_share": None, "winner_share_se": None, "percentiles": None}
    doc["longest_deal"] = [to_notation(h) for h in tally.longest[0].hands] if tally.longest else None
    if tally.endless:
        doc["endless_deals"] = [[to_notation(h) for h in d.hands] for d in tally.endless]
    return doc


def mark(q: float) -> str:
    return f"{100 * q:g}"
