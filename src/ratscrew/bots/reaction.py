"""Human-like reaction times: the ex-Gaussian distribution.

Reaction times are right-skewed: a quick, fairly tight bulk and a long tail of slow responses. The
standard model for that shape is the ex-Gaussian, a normal component (``mu``, ``sigma``: perception and
movement) plus an exponential one (``tau``: the occasional lapse of attention), used throughout the
reaction-time literature (Ratcliff 1979; Luce 1986, *Response Times*; Whelan 2008). Nothing faster than
``floor`` is drawn: about 100-150 ms is the limit of a human's simple visual reaction.

>>> from ratscrew.shuffle import SeededRandom
>>> rt = ExGaussian(400.0, 50.0, 120.0)
>>> rt.mean
520.0
>>> 120 <= rt.sample(SeededRandom(3)) < 5000
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ratscrew.shuffle import SeededRandom

# Bound once: a computer player draws a reaction time for nearly every card.
_sqrt, _log, _cos = math.sqrt, math.log, math.cos
_TWO_PI = 2.0 * math.pi


@dataclass(frozen=True, slots=True)
class ExGaussian:
    mu: float
    sigma: float
    tau: float
    floor: float = 120.0

    @property
    def mean(self) -> float:
        return self.mu + self.tau

    def sample(self, rng: SeededRandom, shift: float = 0.0) -> int:
        """One reaction time in whole milliseconds (``shift`` adds a pattern's extra thinking time)."""
        draw = rng.random
        u1 = draw() or 1e-12
        u2 = draw()
        normal = _sqrt(-2.0 * _log(u1)) * _cos(_TWO_PI * u2)
        exponential = -self.tau * _log(1.0 - draw())
        return round(max(self.floor, self.mu + shift + self.sigma * normal + exponential))

    def pdf(self, x: float, shift: float = 0.0) -> float:
        """Density (ignoring the floor, which holds almost no mass for the levels used here)."""
        mu = self.mu + shift
        if self.tau <= 0:
            return math.exp(-0.5 * ((x - mu) / self.sigma) ** 2) / (self.sigma * math.sqrt(2 * math.pi))
        lam = 1.0 / self.tau
        arg = (mu + lam * self.sigma**2 - x) / (math.sqrt(2) * self.sigma)
        return 0.5 * lam * math.exp(0.5 * lam * (2 * mu + lam * self.sigma**2 - 2 * x)) * math.erfc(arg)

    def cdf(self, x: float, shift: float = 0.0) -> float:
        mu = self.mu + shift
        z = (x - mu) / self.sigma
        normal_cdf = 0.5 * math.erfc(-z / math.sqrt(2))
        if self.tau <= 0:
            return normal_cdf
        lam = 1.0 / self.tau
        u = lam * (x - mu)
        v = lam * self.sigma
        # Phi(z - v) * exp(-u + v^2/2), computed in log space to stay finite far in the tails.
        tail = 0.5 * math.erfc(-(z - v) / math.sqrt(2))
        if tail <= 0:
            return normal_cdf
        return normal_cdf - math.exp(-u + v * v / 2 + math.log(tail))

    @staticmethod
    def fit(samples: Sequence[float], floor: float = 120.0) -> ExGaussian:
        """Method-of-moments fit to measured reaction times (the ``match`` level); needs 3 or more."""
        n = len(samples)
        if n < 3:
            raise ValueError("fitting a reaction-time distribution needs at least 3 measurements")
        mean = sum(samples) / n
        var = sum((x - mean) ** 2 for x in samples) / (n - 1)
        sd = math.sqrt(var) if var > 0 else 1.0
        skew = sum((x - mean) ** 3 for x in samples) / n / (sd**3) if var > 0 else 0.0
        # For an ex-Gaussian, skewness = 2 tau^3 / sd^3; keep tau inside what the variance allows.
        tau = sd * (max(skew, 0.05) / 2) ** (1 / 3)
        tau = min(tau, 0.95 * sd)
        sigma = math.sqrt(max(var - tau**2, (0.05 * sd) ** 2))
        return ExGaussian(mean - tau, sigma, tau, floor)


@dataclass(frozen=True, slots=True)
class FixedTime:
    """A reaction that always takes ``ms`` milliseconds, whatever the pattern: the lab's ideal players.

    >>> FixedTime(150).sample(SeededRandom(3), shift=90.0)
    150
    """

    ms: int

    @property
    def mean(self) -> float:
        return float(self.ms)

    def sample(self, rng: SeededRandom, shift: float = 0.0) -> int:
        """Always ``ms``: draws nothing from ``rng`` and ignores a pattern's extra thinking time."""
        return self.ms


Reaction = ExGaussian | FixedTime


def probability_first(a: ExGaussian, b: ExGaussian, shift_a: float = 0.0, shift_b: float = 0.0) -> float:
    """P(a's reaction < b's reaction), by numerical integration: what a race between two levels should give."""
    lo = min(a.mu + shift_a, b.mu + shift_b) - 6 * max(a.sigma, b.sigma)
    hi = max(a.mean + shift_a, b.mean + shift_b) + 12 * max(a.tau, b.tau) + 6 * max(a.sigma, b.sigma)
    steps = 4000
    h = (hi - lo) / steps
    total = 0.0
    for i in range(steps + 1):
        x = lo + i * h
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += weight * a.pdf(x, shift_a) * (1.0 - b.cdf(x, shift_b))
    return total * h / 3
