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


# ---------------------------------------------------------------------- 95% confidence intervals
#
# Every interval the lab gives is estimate ± t·SE with t the 97.5% point of Student's t on ``df`` degrees of
# freedom, df being the independent units the SE was estimated from, less one: games, or deals when seats
# rotate (a deal's rotations are not independent of each other), or replicates for the spread between
# replicates. The t point, not the normal 1.96, because the SE is itself estimated from the same units: for
# thousands of games the two agree to two decimals (1.962 at df 1000), for five replicates t is 2.78.
# A share of independent games (a seat's wins, seats not rotating) takes Wilson's score interval instead: the
# interval p ± 1.96·sqrt(p(1-p)/n) shrinks to a point at 0% or 100% (20 wins in 20 games would read
# "100% to 100%"), where Wilson's, the set of shares a normal-approximation test would not reject, does not.

_Z975 = 1.959963984540054  # the normal distribution's 97.5% point
_EXACT_DF = 200  # up to here the t point is found from the exact distribution function, beyond by expansion


def _t_within(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t on ``df`` (a whole number of) degrees of freedom: the closed forms for whole
    df (Abramowitz and Stegun 26.7.3 and 26.7.4), a finite sum of powers of cos(atan(t / sqrt(df)))."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        term = total = math.cos(theta) if df > 1 else 0.0
        for k in range(3, df - 1, 2):
            term *= c2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        total += term
    return math.sin(theta) * total


def t975(df: int) -> float:
    """The 97.5% point of Student's t on ``df`` degrees of freedom (so ±t holds 95%).

    >>> round(t975(1), 3), round(t975(4), 3), round(t975(30), 3), round(t975(1000), 3)
    (12.706, 2.776, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError(f"a t point needs at least 1 degree of freedom, got {df}")
    if df > _EXACT_DF:
        # The Cornish-Fisher expansion of t in powers of 1/df about the normal point: beyond df 200 its first
        # terms agree with the exact point to better than 1e-7.
        z = _Z975
        return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
    low, high = 0.0, 20.0 if df > 1 else 100.0
    for _ in range(100):
        mid = (low + high) / 2
        if _t_within(mid, df) < 0.95:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def ci95(estimate: float, se: float, df: int) -> tuple[float, float]:
    """The 95% interval estimate ± t975(df)·se; the estimate alone when there is no spread to go on."""
    if df < 1 or se == 0:
        return estimate, estimate
    half = t975(df) * se
    return estimate - half, estimate + half


def wilson95(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval for a share ``p`` of ``n`` independent draws.

    >>> [round(x, 4) for x in wilson95(1.0, 20)]
    [0.8389, 1.0]
    """
    if n < 1:
        return p, p
    z2 = _Z975 * _Z975
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z975 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)
