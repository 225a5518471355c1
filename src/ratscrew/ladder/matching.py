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
    queue = sorted(waiting, key=lambda w: w.since)
    seated: set[str] = set()
    made: list[tuple[Waiting, ...]] = []
    for first in queue:
        if first.entrant.who in seated:
            continue
        others = [w for w in queue if w is not first and w.entrant.who not in seated]
        group = _table_for(pool, first, others, now)
        if group:
            made.append(group)
            seated.update(w.entrant.who for w in group)
    return made


def _table_for(pool: Pool, first: Waiting, others: list[Waiting], now: Millis) -> tuple[Waiting, ...]:
    """A table with ``first`` (the longest-waiting of those left), or none yet."""
    gap = accepted_gap(now - first.since)
    if pool.rated:
        centre = first.entrant.points
        near = [w for w in others if abs(w.entrant.points - centre) <= gap]
        others = sorted(near, key=lambda w: abs(w.entrant.points - centre))
    chosen = (first, *others[: pool.size.most - 1])
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
