"""Who sits down with whom: the matchmaker's decisions, as pure functions of who waits and for how long.

Nothing here stores anything or reads a clock. The in-process matchmaker (``matchmaker.py``) and a pool kept
in Redis both hold the people waiting their own way, hand them here with the time, and carry out the answer,
so every worker decides exactly as a single process would.

The rules, for people:

- A pool is a table size (two players, or three to four), rated or not, and a preset. People waiting in it
  are looked at oldest first.
- Unrated: a table is made as soon as enough people wait; the first to come are the first seated.
- Rated: the longest-waiting person is seated with whoever is closest to their rating, if the gap is within
  what their wait allows: 100 points at once, widening by 10 points each second they have waited (300
  after 20 s, 700 after a minute, beyond any real gap within about three). Someone who waited long can so
  be given a newcomer further from them; the newcomer would have accepted it in their place, later.
- Three to four: four people make a table at once; three make one when the first of them has waited 5 s
  (a fourth may come meanwhile).
- After 20 s a waiting person may take computers in the empty seats instead; that game is unrated.

>>> pool = Pool(TableSize.TWO, rated=True, preset="standard")
>>> ann = Waiting(Entrant("ann", 1, 1500.0), pool, since=0)
>>> bob = Waiting(Entrant("bob", 2, 1650.0), pool, since=1000)
>>> groups(pool, [ann, bob], now=1000)  # 150 points apart: too far at first
[]
>>> [[w.entrant.who for w in group] for group in groups(pool, [ann, bob], now=6000)]
[['ann', 'bob']]
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ratscrew.engine.actions import Millis
from ratscrew.ladder.ratings import PlayerId

GAP_START = 100.0  # rating points accepted at once
GAP_PER_S = 10.0  # and more for each second waited
COMPUTERS_AFTER_MS = 20_000  # a waiting person may then take computers in the empty seats
THREE_AFTER_MS = 5_000  # a table of three starts once its first has waited this long; four start at once


class TableSize(StrEnum):
    """The size of table a person asks for."""

    TWO = "2"
    THREE_OR_FOUR = "3-4"

    @property
    def fewest(self) -> int:
        return 2 if self is TableSize.TWO else 3

    @property
    def most(self) -> int:
        return 2 if self is TableSize.TWO else 4


@dataclass(frozen=True, slots=True)
class Pool:
    """Where people wait for the same kind of table."""

    size: TableSize
    rated: bool
    preset: str


@dataclass(frozen=True, slots=True)
class Entrant:
    """One person asking for a table.

    ``who`` names the person to the matchmaker, the same key on every worker (an account's, or a guest's
    own); ``player`` is their account, which a rated pool needs; ``points`` their rating's centre in the
    class the pool plays (``Rating.points``), what rated pairing compares; ``name`` what their seat is called
    at the table (the account's name, or the guest's), which travels with them to whichever worker opens it.
    """

    who: str
    player: PlayerId | None = None
    points: float = 0.0
    name: str = ""


@dataclass(frozen=True, slots=True)
class Waiting:
    entrant: Entrant
    pool: Pool
    since: Millis


def accepted_gap(waited: Millis) -> float:
    """The rating gap a person who has waited ``waited`` ms accepts.

    >>> accepted_gap(0), accepted_gap(20_000)
    (100.0, 300.0)
    """
    return GAP_START + GAP_PER_S * max(0, waited) / 1000


def may_take_computers(waiting: Waiting, now: Millis) -> bool:
    return now - waiting.since >= COMPUTERS_AFTER_MS


def groups(pool: Pool, waiting: Sequence[Waiting], now: Millis) -> list[tuple[Waiting, ...]]:
    """The tables to make now from the people waiting in ``pool`` (in the order they came), each in seat
    order (the longest-waiting first); those left out keep waiting."""
    # Each person, oldest first, takes the nearest of those still unseated. Rebuilding "everyone else" for
    # each was quadratic (60 ms a tick for 1,000 waiting); ``_Unseated`` keeps them sorted instead, so each
    # look costs a bisection and the few people it returns. The tie rules stay the readable version's, which
    # ``harness/old_matching.py`` keeps and ``tests/ladder/test_ladder_matching.py`` checks seat by seat.
    queue = sorted(waiting, key=lambda w: w.since)
    unseated = _Unseated(queue, by_points=pool.rated)
    places: dict[str, list[int]] = {}  # a name's places in the queue; gone once it is seated
    for n, w in enumerate(queue):
        places.setdefault(w.entrant.who, []).append(n)
    made: list[tuple[Waiting, ...]] = []
    for n, first in enumerate(queue):
        if first.entrant.who not in places:
            continue
        gap = accepted_gap(now - first.since)
        nearest = unseated.nearest(n, pool.size.most - 1, gap)
        group = _table_for(pool, first, nearest, gap, now) if nearest else ()  # alone, no table
        if group:
            made.append(group)
            for w in group:
                for seated in places.pop(w.entrant.who, ()):
                    unseated.remove(seated)
    return made


def _table_for(pool: Pool, first: Waiting, nearest: list[Waiting], gap: float, now: Millis) -> tuple[Waiting, ...]:
    """A table with ``first`` (the longest-waiting of those left) and the ``nearest`` others, or none yet."""
    chosen = (first, *nearest)
    # At a rated table of three or four, everyone within the gap of each other, not only of the first: drop
    # the furthest from the first until they are.
    while pool.rated and len(chosen) > 2 and _spread(chosen) > gap:
        chosen = chosen[:-1]
    if len(chosen) == pool.size.most:
        return chosen
    if len(chosen) >= pool.size.fewest and now - first.since >= THREE_AFTER_MS:
        return chosen
    return ()


def _spread(group: Sequence[Waiting]) -> float:
    points = [w.entrant.points for w in group]
    return max(points) - min(points)


class _Unseated:
    """The people of a queue not seated yet, by their place in it (``n``), sorted for ``nearest``.

    Unrated, sorted by place. Rated, by (points, place): people with equal points then lie together in
    queue order, so the first few of such a run are the longest-waiting. A rating that is not a number
    (NaN, infinite) is never within any gap, so its holder is left out and never seated at a rated table.
    """

    def __init__(self, queue: list[Waiting], *, by_points: bool) -> None:
        self._queue = queue
        self._by_points = by_points
        self._places = [] if by_points else list(range(len(queue)))
        self._keys = sorted(
            (w.entrant.points, n) for n, w in enumerate(queue) if by_points and math.isfinite(w.entrant.points)
        )

    def remove(self, n: int) -> None:
        if not self._by_points:
            del self._places[bisect_left(self._places, n)]
            return
        points = self._queue[n].entrant.points
        if math.isfinite(points):
            del self._keys[bisect_left(self._keys, (points, n))]

    def nearest(self, n: int, want: int, gap: float) -> list[Waiting]:
        """Up to ``want`` others for the person at ``n``: unrated, the first in the queue; rated, those within
        ``gap`` points, nearest first, the longest-waiting first among those as near."""
        first = self._queue[n]
        if not self._by_points:
            found: list[Waiting] = []
            for place in self._places:
                if len(found) == want:
                    break
                if self._queue[place] is not first:
                    found.append(self._queue[place])
            return found
        centre = first.entrant.points
        if not math.isfinite(centre):
            return []
        # Outward from the centre, one distance at a time: the runs below and above that lie that far (two or
        # more runs on a side only if float rounding makes different points as far) give their first few, and
        # those are ordered by place, as a stable sort by distance over the queue would.
        keys = self._keys
        size = len(keys)
        above = bisect_left(keys, (centre,))  # the run at the centre is the first above
        below = above - 1
        places: list[int] = []
        while len(places) < want:
            up = abs(keys[above][0] - centre) if above < size else math.inf
            down = abs(keys[below][0] - centre) if below >= 0 else math.inf
            far = up if up <= down else down
            if not far <= gap:
                break
            tied: list[int] = []
            while above < size and abs(keys[above][0] - centre) == far:
                end = bisect_left(keys, (keys[above][0], math.inf))
                tied += self._first_of_run(above, end, first, want - len(places))
                above = end
            while below >= 0 and abs(keys[below][0] - centre) == far:
                start = bisect_left(keys, (keys[below][0],))
                tied += self._first_of_run(start, below + 1, first, want - len(places))
                below = start - 1
            places += sorted(tied)[: want - len(places)]
        return [self._queue[place] for place in places]

    def _first_of_run(self, start: int, end: int, first: Waiting, want: int) -> list[int]:
        """The places of the first ``want`` people of ``keys[start:end]`` (one rating's run), not ``first``."""
        found: list[int] = []
        for k in range(start, end):
            if len(found) == want:
                break
            place = self._keys[k][1]
            if self._queue[place] is not first:
                found.append(place)
        return found
