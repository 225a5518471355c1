#!/usr/bin/env python3
"""What a Play-now tick costs with the pools in Redis (``hosting/matchpool.py``) against the pools of one
process (``LocalMatchmaking``), measured in the same run, on virtual time, with a redis-server of its own on
loopback.

Two scenes, each for both kinds of pools:

- **waiting**: ``--people`` (1,000) signed-in people wait in one rated two-player pool, their ratings 250
  points apart, so that no tick can pair anyone: every tick reads the whole pool and decides nothing.
- **rush**: ``--people`` join an unrated two-player pool at once; one tick seats them all, two by two.

Printed for each: the milliseconds a tick took (the median of ``--ticks`` ticks; for the rush, of as many
rushes), the round trips to Redis a tick made (calls through the worker's link: a script or a pipeline each)
and the commands Redis ran for it (from its ``INFO``), and the ratio of Redis's time to the local pools'.
A join and a ``where`` are timed too (a round trip each).

Usage: python bench/playnow_pool.py [--people 1000] [--ticks 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import redis

from ratscrew.hosting.link import RedisLink
from ratscrew.hosting.matchpool import RedisMatchmaking
from ratscrew.ladder.matching import Entrant, Pool, TableSize
from ratscrew.ladder.matchmaker import LocalMatchmaking, Matchmaker, Matchmaking
from ratscrew.table.clock import VirtualClock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # harness/
from harness.site import eventually_answers, free_ports, start_redis  # noqa: E402

RATED = Pool(TableSize.TWO, rated=True, preset="standard")
DUEL = Pool(TableSize.TWO, rated=False, preset="standard")
T = TypeVar("T")


@dataclass
class Figures:
    tick_ms: float
    trips: float  # round trips to Redis a tick
    commands: float  # commands Redis ran a tick
    join_ms: float
    where_ms: float


class Counted:
    """The calls made through a link, and the commands Redis ran, since the last ``reset``."""

    def __init__(self, link: RedisLink | None, url: str) -> None:
        self.trips = 0
        self.store = redis.Redis.from_url(url)
        self._before = 0
        if link is not None:
            run = link.run

            async def counted(call: Callable[[], Awaitable[T]]) -> T:
                self.trips += 1
                return await run(call)

            link.run = counted  # type: ignore[method-assign]

    def reset(self) -> None:
        self.trips = 0
        self._before = self._processed()

    def commands(self) -> int:
        return self._processed() - self._before - 1  # less the INFO that read it

    def _processed(self) -> int:
        info: dict[str, Any] = self.store.info("stats")
        return int(info["total_commands_processed"])


class Side:
    """One kind of pools under measure, and its figures."""

    def __init__(self, name: str, url: str, clock: VirtualClock, prefix: str) -> None:
        self.name = name
        self.clock = clock
        self.prefix = prefix
        self.link = RedisLink(url) if name == "redis" else None
        self.counted = Counted(self.link, url)
        self.times: dict[str, list[float]] = {"waiting": [], "rush": [], "join": [], "where": []}
        self.trips: dict[str, list[int]] = {"waiting": [], "rush": []}
        self.commands: dict[str, list[int]] = {"waiting": [], "rush": []}
        self.pools = self.new_pools()

    def new_pools(self) -> Matchmaking:
        if self.link is None:
            return LocalMatchmaking(Matchmaker(self.clock))
        return RedisMatchmaking(self.link, self.clock, prefix=f"{self.prefix}{time.monotonic_ns()}:")

    async def timed(self, what: str, work: Callable[[], Awaitable[T]]) -> T:
        self.counted.reset()
        start = time.perf_counter()
        answer = await work()
        self.times[what].append(1000 * (time.perf_counter() - start))
        if what in self.trips:
            self.trips[what].append(self.counted.trips)
            self.commands[what].append(self.counted.commands())
        return answer

    def figures(self, scene: str) -> Figures:
        return Figures(
            statistics.median(self.times[scene]),
            _mean(self.trips[scene]),
            _mean(self.commands[scene]),
            statistics.median(self.times["join"]),
            statistics.median(self.times["where"]),
        )

    async def close(self) -> None:
        self.counted.store.close()
        if self.link is not None:
            await self.link.close()


async def measure(url: str, people: int, ticks: int) -> dict[str, Side]:
    """Both kinds of pools, turn about, so that a busy moment of the machine falls on both alike."""
    clock = VirtualClock()
    sides = [Side("local", url, clock, "bench:"), Side("redis", url, clock, "bench:")]
    try:
        # Waiting: nobody can be paired, every tick reads everyone.
        for i in range(people):
            for side in sides:
                entrant = Entrant(f"w{i}", i + 1, 1000.0 + 250 * i)
                await side.timed("join", partial(side.pools.join, entrant, RATED))
        for i in range(0, people, max(1, people // 100)):
            for side in sides:
                await side.timed("where", partial(side.pools.where, f"w{i}"))
        for _ in range(ticks):
            for side in sides:
                assert await side.timed("waiting", side.pools.tick) == []
        # Rush: everyone seated by one tick.
        for rush in range(max(1, ticks // 4)):
            for side in sides:
                side.pools = side.new_pools()
                for i in range(people):
                    await side.pools.join(Entrant(f"r{rush}-{i}"), DUEL)
                assert len(await side.timed("rush", side.pools.tick)) == people // 2
    finally:
        for side in sides:
            await side.close()
    return {side.name: side for side in sides}


def _mean(values: list[int]) -> float:
    return sum(values) / len(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--ticks", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        (port,) = free_ports(1)
        server = start_redis(Path(folder), port)
        try:
            eventually_answers(port)
            url = f"redis://127.0.0.1:{port}/0"
            sides = asyncio.run(measure(url, args.people, args.ticks))
        finally:
            server.kill()
            server.wait()
    print(f"Play-now tick, {args.people} people, median of {args.ticks} ticks (rush: {max(1, args.ticks // 4)})")
    print(f"{'scene':<9} {'pools':<7} {'tick ms':>9} {'round trips':>12} {'commands':>9} {'vs local':>9}")
    print("(commands: what Redis ran for the tick, those inside its scripts included)")
    for scene in ("waiting", "rush"):
        base = sides["local"].figures(scene).tick_ms
        for name, side in sides.items():
            f = side.figures(scene)
            print(f"{scene:<9} {name:<7} {f.tick_ms:9.2f} {f.trips:12.1f} {f.commands:9.1f} {f.tick_ms / base:8.2f}x")
    for name, side in sides.items():
        f = side.figures("waiting")
        print(f"{name}: a join {f.join_ms:.3f} ms, a where {f.where_ms:.3f} ms (medians)")


if __name__ == "__main__":
    main()
