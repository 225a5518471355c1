"""The OLD reference: ``ratscrew.ladder.matching.groups`` as it was before it was made fast, kept unchanged
for the tests and the benchmark only (``tests/ladder/test_ladder_matching.py`` checks the new one makes
the same decisions; ``bench/matching_groups.py`` times both). Nothing in ``src`` uses it.

It is roughly quadratic: for each person it rebuilds and filters the list of everyone else. Do not fix it
here; it is the readable statement of the rules the fast one must follow to the seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ratscrew.engine.actions import Millis
from ratscrew.ladder.matching import THREE_AFTER_MS, Pool, Waiting, accepted_gap


def old_groups(pool: Pool, waiting: Sequence[Waiting], now: Millis) -> list[tuple[Waiting, ...]]:
    """The tables to make now from the people waiting in ``pool`` (in the order they came), each in seat
    order (the longest-waiting first); those left out keep waiting."""
    queue = sorted(waiting, key=lambda w: w.since)
    seated: set[str] = set()
    made: list[tuple[Waiting, ...]] = []
    for first in queue:
        if first.entrant.who in seated:
            continue
        others = [w for w in queue if w is not first and w.entrant.who not in seated]
        group = _old_table_for(pool, first, others, now)
        if group:
            made.append(group)
            seated.update(w.entrant.who for w in group)
    return made


def _old_table_for(pool: Pool, first: Waiting, others: list[Waiting], now: Millis) -> tuple[Waiting, ...]:
    """A table with ``first`` (the longest-waiting of those left), or none yet."""
    gap = accepted_gap(now - first.since)
    if pool.rated:
        centre = first.entrant.points
        near = [w for w in others if abs(w.entrant.points - centre) <= gap]
        others = sorted(near, key=lambda w: abs(w.entrant.points - centre))
    chosen = (first, *others[: pool.size.most - 1])
    # At a rated table of three or four, everyone within the gap of each other, not only of the first: drop
    # the furthest from the first until they are.
    while pool.rated and len(chosen) > 2 and _old_spread(chosen) > gap:
        chosen = chosen[:-1]
    if len(chosen) == pool.size.most:
        return chosen
    if len(chosen) >= pool.size.fewest and now - first.since >= THREE_AFTER_MS:
        return chosen
    return ()


def _old_spread(group: Sequence[Waiting]) -> float:
    points = [w.entrant.points for w in group]
    return max(points) - min(points)
