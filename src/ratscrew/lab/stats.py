"""Small exact statistics over counts and running sums, shared by the lab's summaries.

Game lengths are kept as counts per value (a Counter), so medians and percentiles are exact in flat memory;
means come with their standard error from running sums of values and of their squares, which add up the
same in any order.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction


def nth(counts: Counter[int], index: int) -> int:
    """The value at ``index`` (from 0) of the sorted values that ``counts`` counts."""
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen > index:
            return value
    raise IndexError(index)


def middle(counts: Counter[int]) -> tuple[int, int]:
    """The two middle values (the same one twice for an odd count), as statistics.median picks them."""
    n = sum(counts.values())
    return nth(counts, (n - 1) // 2), nth(counts, n // 2)


def median_of(low: float, high: float, n: int) -> float:
    return high if n % 2 else (low + high) / 2


def median(counts: Counter[int]) -> int | float:
    low, high = middle(counts)
    n = sum(counts.values())
    return high if n % 2 else (low + high) / 2


def percentile(counts: Counter[int], q: float) -> int:
    """Nearest-rank percentile (``q`` from 0 to 1)."""
    rank = max(1, -(-sum(counts.values()) * q // 1))
    return nth(counts, int(rank) - 1)


def mean_se(total: int | Fraction, squares: int | Fraction, n: int) -> float:
    """The standard error of a mean from the exact sum of the values and of their squares over ``n`` of them
    (the sample standard deviation over the square root of n; 0 for fewer than two). Exact sums keep it the
    same whatever order the values were added in."""
    if n < 2:
        return 0.0
    variance = Fraction(squares * n - total * total, n * (n - 1))
    return math.sqrt(max(0.0, float(variance)) / n)


def share_se(count: int, n: int) -> float:
    """The standard error of a share ``count / n``."""
    p = count / n
    return math.sqrt(p * (1 - p) / n)
