"""The fast ``groups`` makes exactly the decisions of the old, readable one (``harness/old_matching.py``):
the same tables, each in the same seat order, and the same people left waiting, over random pools.

The pools are drawn to hit the ties: many equal ratings, ratings the same distance above and below someone,
gaps met exactly, people who came at the same millisecond, and waits on either side of each threshold (the
gap's growth, three at a table after ``THREE_AFTER_MS``, computers after ``COMPUTERS_AFTER_MS``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.old_matching import old_groups
from ratscrew.ladder.matching import (
    COMPUTERS_AFTER_MS,
    THREE_AFTER_MS,
    Entrant,
    Pool,
    TableSize,
    Waiting,
    groups,
)

NOW = 1_000_000
POOLS = [Pool(size, rated, "standard") for size in TableSize for rated in (True, False)]
# Ratings on a 50-point grid meet the gaps (100 at once, +10 a second) exactly and sit the same distance
# above and below one another; the free ones break the grid.
GRID = st.sampled_from([1350.0, 1400.0, 1450.0, 1500.0, 1550.0, 1600.0, 1650.0, 1800.0])
POINTS = st.one_of(GRID, GRID, st.floats(1000.0, 2000.0), st.floats(-1e6, 1e6))
EDGES = [0, 1, 4_999, THREE_AFTER_MS, 5_001, 10_000, 19_999, COMPUTERS_AFTER_MS, 20_001, 60_000]
WAITS = st.one_of(st.sampled_from(EDGES), st.integers(-2_000, 120_000))


def shape(made: Sequence[tuple[Waiting, ...]]) -> list[list[int]]:
    """The tables by the identity of each seat's object, so two people alike in every field still differ."""
    return [[id(w) for w in group] for group in made]


def agree(pool: Pool, waiting: list[Waiting], now: int) -> None:
    assert shape(groups(pool, waiting, now)) == shape(old_groups(pool, waiting, now))


@st.composite
def pools(draw: st.DrawFn) -> tuple[Pool, list[Waiting]]:
    pool = draw(st.sampled_from(POOLS))
    people = draw(st.lists(st.tuples(POINTS, WAITS), max_size=30))
    waiting = [Waiting(Entrant(f"p{n}", n, points), pool, since=NOW - wait) for n, (points, wait) in enumerate(people)]
    return pool, waiting


@settings(max_examples=600, deadline=None)
@given(pools())
def test_the_fast_groups_seat_as_the_old_ones_did(drawn: tuple[Pool, list[Waiting]]) -> None:
    pool, waiting = drawn
    agree(pool, waiting, NOW)


@settings(max_examples=200, deadline=None)
@given(pools(), st.data())
def test_they_agree_even_when_a_name_or_a_person_comes_twice(
    drawn: tuple[Pool, list[Waiting]], data: st.DataObject
) -> None:
    # Neither pool lets this happen (both key the waiting by ``who``), but the old code had an answer for it,
    # so the fast one keeps it: a name seated is seated everywhere, and a person is never their own partner.
    pool, waiting = drawn
    if not waiting:
        return
    again = data.draw(st.lists(st.sampled_from(waiting), max_size=4))
    twins = [
        Waiting(Entrant(w.entrant.who, w.entrant.player, data.draw(POINTS)), pool, since=NOW - data.draw(WAITS))
        for w in data.draw(st.lists(st.sampled_from(waiting), max_size=4))
    ]
    mixed = waiting + again + twins
    order = data.draw(st.permutations(range(len(mixed))))
    agree(pool, [mixed[n] for n in order], NOW)


def test_they_agree_on_large_pools() -> None:
    # Hypothesis keeps pools small; these are the sizes the fast one is for, with many people alike.
    rng = random.Random(7)
    for pool in POOLS:
        for people in (300, 800):
            waiting = [
                Waiting(
                    Entrant(f"p{n}", n, rng.choice([1500.0, rng.randrange(1000, 2000, 25), rng.uniform(1000, 2000)])),
                    pool,
                    since=NOW - rng.randrange(0, 60_000, 250),
                )
                for n in range(people)
            ]
            agree(pool, waiting, NOW)
