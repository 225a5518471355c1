"""Clocks the table can be given: virtual time for tests and the lab, the event loop's time when live."""

from __future__ import annotations

import asyncio
from typing import Protocol

from ratscrew.engine.actions import Millis


class Clock(Protocol):
    def now(self) -> Millis:
        """Milliseconds since the deal."""
        ...


class VirtualClock:
    """Time that moves only when told to: thousands of games a second, no sleeping."""

    def __init__(self, start: Millis = 0) -> None:
        self._now = start

    def now(self) -> Millis:
        return self._now

    def advance_to(self, t: Millis) -> None:
        if t < self._now:
            raise ValueError(f"virtual time cannot go back from {self._now} to {t}")
        self._now = t

    def advance(self, ms: Millis) -> None:
        self._now += ms


class LoopClock:
    """The running event loop's monotonic clock, counted from when this clock was made."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop or asyncio.get_running_loop()
        self._start = self._loop.time()

    def now(self) -> Millis:
        return int((self._loop.time() - self._start) * 1000)

    def loop_time(self, t: Millis) -> float:
        """The event loop's time at which this clock reads ``t`` (half a millisecond late, so it surely does)."""
        return self._start + (t + 0.5) / 1000


class OffsetClock:
    """Another clock's time, shifted so that it reads ``start`` now: a game resumed after a restart goes
    on from the time of its last action."""

    def __init__(self, base: Clock, start: Millis = 0) -> None:
        self._base = base
        self._offset = start - base.now()

    def now(self) -> Millis:
        return self._base.now() + self._offset
