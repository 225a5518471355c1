"""Clocks the table can be given: virtual time for tests and the lab, the event loop's time when live.

The server shell (the rooms' owner tasks, their sockets and their limits) runs on one :class:`AlarmClock`
it is given: the event loop's (:class:`LoopClock`) when live, a :class:`ManualClock` in tests, which move
time themselves and never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol

from ratscrew.engine.actions import Millis


class Clock(Protocol):
    def now(self) -> Millis:
        """Milliseconds since the deal."""
        ...


class Alarm(Protocol):
    def cancel(self) -> None: ...


class AlarmClock(Clock, Protocol):
    """A clock that can also wake someone up at one of its times."""

    def call_at(self, t: Millis, callback: Callable[[], None]) -> Alarm:
        """Call ``callback`` once this clock reads ``t`` (at once, soon, if it already does)."""
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

    def call_at(self, t: Millis, callback: Callable[[], None]) -> Alarm:
        return self._loop.call_at(self.loop_time(t), callback)


class ManualClock(VirtualClock):
    """Virtual time with alarms, for the server shell's tests: moving it on fires every alarm due, in order,
    each with the clock reading its time. An alarm set for a time already past fires at the next move (by 0
    ms, if need be), where the event loop's would fire at once."""

    def __init__(self, start: Millis = 0) -> None:
        super().__init__(start)
        self._alarms: list[tuple[Millis, int, _ManualAlarm]] = []
        self._order = itertools.count()

    def call_at(self, t: Millis, callback: Callable[[], None]) -> Alarm:
        alarm = _ManualAlarm(callback)
        heapq.heappush(self._alarms, (t, next(self._order), alarm))
        return alarm

    def advance_to(self, t: Millis) -> None:
        while self._alarms and self._alarms[0][0] <= t:
            at, _order, alarm = heapq.heappop(self._alarms)
            super().advance_to(max(at, self.now()))
            alarm.fire()
        super().advance_to(t)

    def advance(self, ms: Millis) -> None:
        self.advance_to(self.now() + ms)


class _ManualAlarm:
    __slots__ = ("_callback",)

    def __init__(self, callback: Callable[[], None]) -> None:
        self._callback: Callable[[], None] | None = callback

    def cancel(self) -> None:
        self._callback = None

    def fire(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            callback()


class OffsetClock:
    """Another clock's time, shifted so that it reads ``start`` now: a game resumed after a restart goes
    on from the time of its last action."""

    def __init__(self, base: Clock, start: Millis = 0) -> None:
        self._base = base
        self._offset = start - base.now()

    def now(self) -> Millis:
        return self._base.now() + self._offset


class PausableClock:
    """Another clock's time that stands still while paused: a game paused for an hour resumes at the very
    millisecond it stopped, so every timer of its table (a computer's next card, a slap window, the time
    limit) keeps exactly the time it had left."""

    def __init__(self, base: Clock) -> None:
        self._base = base
        self._lost: Millis = 0  # base time spent paused, before the current pause
        self._paused_at: Millis | None = None

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def now(self) -> Millis:
        base = self._base.now() if self._paused_at is None else self._paused_at
        return base - self._lost

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self._base.now()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._lost += self._base.now() - self._paused_at
            self._paused_at = None
