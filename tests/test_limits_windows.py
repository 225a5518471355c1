"""The limits counted in the process (``limits/local.py``, Python) and across workers (``hosting/limits.py``,
Lua in a real redis-server) are one set of rules: the same steps, on the same virtual clock, get the same
answers from both, to the millisecond at the edge of each window."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from harness.lookups import Redis, new_prefix, redis_server
from ratscrew.errors import TooMany
from ratscrew.hosting.limits import SharedLimits
from ratscrew.hosting.link import RedisLink
from ratscrew.limits import Caps, Grant, Lease, Limits, LocalLimits
from ratscrew.table.clock import ManualClock

CAPS = Caps(rooms_per_hour=3, misses_per_minute=20, sockets=4)


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


async def steps(limits: Limits, clock: ManualClock, settled: Callable[[], Awaitable[None]]) -> list[object]:
    """The same steps on either limits; what each answered (TooMany as 'refused')."""
    said: list[object] = []

    async def answer(call: Awaitable[object]) -> object:
        try:
            found = await call
        except TooMany:
            found = "refused"
        await settled()
        return found

    a, b = "198.51.100.1", "198.51.100.2"
    # Unknown codes: 5, then 20 wanted with 15 left; then none left, known or not; another address is apart.
    said.append(await answer(limits.missed(a, 5)))
    clock.advance(10_000)
    said += [await answer(limits.missed(a, 20)), await answer(limits.missed(a, 0))]
    said.append(await answer(limits.missed(b, 0)))
    clock.advance(49_999)
    said.append(await answer(limits.missed(a, 0)))  # a millisecond before the first five expire
    clock.advance(1)
    said.append(await answer(limits.missed(a, 1)))  # they expire at the minute: five left, one taken
    # Rooms: three an hour; one taken and not made is given back.
    grants: list[object] = [await answer(limits.room(a)) for _ in range(3)]
    said.append([type(g).__name__ for g in grants])
    for grant in grants[:2]:
        assert isinstance(grant, Grant)
        grant.use()
    assert isinstance(grants[2], Grant)
    grants[2].settle()  # not made
    await settled()
    said.append(type(await answer(limits.room(a))).__name__)
    said.append(await answer(limits.room(a)))
    clock.advance(3_600_000)
    said.append(type(await answer(limits.room(a))).__name__)  # an hour later
    # Sockets: four at once; one closed makes room for one more.
    leases = [await answer(limits.socket(b)) for _ in range(5)]
    said.append([lease if lease == "refused" else type(lease).__name__ for lease in leases])
    assert isinstance(leases[0], Lease)
    leases[0].close()
    await settled()
    said.append(type(await answer(limits.socket(b))).__name__)
    return said


EXPECTED: list[object] = [
    20,
    15,
    "refused",
    20,
    "refused",
    5,
    ["Grant", "Grant", "Grant"],
    "Grant",
    "refused",
    "Grant",
    ["Lease", "Lease", "Lease", "Lease", "refused"],
    "Lease",
]


def run(work: Callable[[], Coroutine[Any, Any, list[object]]]) -> list[object]:
    with ThreadPoolExecutor(1) as pool:  # its own thread: Playwright's loop may hold this one
        return pool.submit(lambda: asyncio.run(work())).result(timeout=120)


def test_the_python_and_the_lua_windows_answer_the_same_steps_alike(tmp_path: Path, redis: Redis) -> None:
    async def here() -> list[object]:
        clock = ManualClock(1_000_000)
        return await steps(LocalLimits(clock, CAPS), clock, lambda: asyncio.sleep(0))

    async def shared() -> list[object]:
        clock = ManualClock(1_000_000)
        link = RedisLink(redis.url)
        limits = SharedLimits(link, clock, CAPS, worker=0, workers=1, prefix=new_prefix(), now=clock.now)
        try:
            return await steps(limits, clock, limits.flush)
        finally:
            await link.close()

    in_python, in_lua = run(here), run(shared)
    assert in_python == EXPECTED
    assert in_lua == in_python
