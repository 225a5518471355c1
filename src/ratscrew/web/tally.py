"""What the server counts as it runs, in plain integers: cheap enough for every message, even when nobody
reads them. ``ratscrew serve`` shows them as Prometheus metrics (``hosting/metrics.py``)."""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Histogram:
    """Counts of observations at or under each bound (the last bucket, beyond every bound, is implicit)."""

    bounds: tuple[float, ...]
    counts: list[int] = field(default_factory=list)
    total: float = 0.0

    def __post_init__(self) -> None:
        self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        return sum(self.counts)


VERDICT_BOUNDS_MS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 75.0, 100.0, 150.0, 200.0, 300.0, 500.0, 1000.0, 2000.0)
WINDOW_BOUNDS_MS = (20.0, 30.0, 40.0, 50.0, 60.0, 75.0, 100.0, 150.0, 200.0, 300.0)


@dataclass
class Tally:
    sockets: int = 0  # open now
    messages_in: int = 0
    messages_out: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # by reason
    verdict_ms: Histogram = field(default_factory=lambda: Histogram(VERDICT_BOUNDS_MS))
    window_ms: Histogram = field(default_factory=lambda: Histogram(WINDOW_BOUNDS_MS))

    def verdict(self, waited_ms: int, window_ms: int) -> None:
        """A slap's verdict was published ``waited_ms`` after the slap arrived, in a room holding inputs
        ``window_ms`` (the decision window) before applying them."""
        self.verdict_ms.observe(waited_ms)
        self.window_ms.observe(window_ms)
