"""The Play-now pools' behaviour, written once for both kinds: the pools of one process (``LocalMatchmaking``,
``tests/ladder/test_ladder_pools.py``) and the pools every worker shares in Redis (``RedisMatchmaking``,
``tests/hosting/test_hosting_matchpool.py``) pass the same cases, through the interface the web layer uses,
on virtual time.

Each case is an async function of :class:`Pools`; ``CASES`` names them, and ``run`` runs one on a thread of
its own (a browser test's event loop may hold the test's thread).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

import pytest

from ratscrew.errors import Conflict, Forbidden, NotFound
from ratscrew.hosting.link import RedisLink
from ratscrew.hosting.matchpool import RedisMatchmaking
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting, groups
from ratscrew.ladder.matchmaker import (
    GONE_AFTER_MS,
    AlreadyPlaying,
    LocalMatchmaking,
    Matchmaker,
    Matchmaking,
    Placed,
    Seating,
    Ticket,
)
from ratscrew.table.clock import VirtualClock

T = TypeVar("T")

DUEL = Pool(TableSize.TWO, rated=False, preset="standard")
RATED = Pool(TableSize.TWO, rated=True, preset="standard")
FEW = Pool(TableSize.THREE_OR_FOUR, rated=False, preset="standard")
RATED_FEW = Pool(TableSize.THREE_OR_FOUR, rated=True, preset="standard")
ALL = (DUEL, RATED, FEW, RATED_FEW)
# How long the Redis pools wait for Redis before calling it away where that is not what is tested: a loaded
# machine may answer a call late, and these cases are about who is seated, not about Redis going away.
PATIENT_S = 30.0


@dataclass
class Pools:
    """The pools under test, their clock, and who waits in a pool (in the order they came)."""

    mm: Matchmaking
    clock: VirtualClock
    waiting: Callable[[Pool], Awaitable[tuple[Waiting, ...]]]
    steps: int = 4000  # of the random comings and goings

    async def names(self, pool: Pool) -> list[str]:
        return [w.entrant.who for w in await self.waiting(pool)]

    async def wait(self, ms: int) -> None:
        """Let ``ms`` pass while every waiting page keeps asking where its person stands, once a second."""
        while ms > 0:
            step = min(ms, 1000)
            self.clock.advance(step)
            ms -= step
            for pool in ALL:
                for waiting in await self.waiting(pool):
                    await self.mm.seen(waiting.entrant.who)


def local_pools(clock: VirtualClock) -> Pools:
    matchmaker = Matchmaker(clock)

    async def waiting(pool: Pool) -> tuple[Waiting, ...]:
        return matchmaker.waiting(pool)

    return Pools(LocalMatchmaking(matchmaker), clock, waiting)


@asynccontextmanager
async def redis_pools(url: str, prefix: str, clock: VirtualClock, steps: int = 4000) -> AsyncIterator[Pools]:
    """Pools in the Redis at ``url``, under ``prefix``, for as long as the block runs (in this event loop)."""
    link = RedisLink(url, timeout_s=PATIENT_S)
    try:
        pools = RedisMatchmaking(link, clock, prefix=prefix)
        yield Pools(pools, clock, pools.waiting, steps)
    finally:
        await link.close()


def run(work: Callable[[], Awaitable[T]]) -> T:
    """``work()`` in an event loop of its own, on a thread of its own."""

    async def main() -> T:
        return await work()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(main())).result(timeout=600)


def person(who: str, points: float = 1500.0, player: int | None = None) -> Entrant:
    return Entrant(who, player if player is not None else sum(map(ord, who)), points)


def names(seatings: list[Seating]) -> list[list[str]]:
    return [[e.who for e in s.players] for s in seatings]


# ---------------------------------------------------------------------------------------- unrated


async def two_people_in_an_unrated_pool_are_seated_at_once_first_come_first_seated(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    assert await p.mm.tick() == []
    await p.wait(3000)
    await p.mm.join(Entrant("bob"), DUEL)
    await p.mm.join(Entrant("cid"), DUEL)
    (table,) = await p.mm.tick()
    assert [e.who for e in table.players] == ["ann", "bob"]
    assert table.waited == (3000, 0) and table.computers == 0 and not table.rated
    assert await p.names(DUEL) == ["cid"]


async def pools_of_other_presets_or_sizes_never_mix(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    await p.mm.join(Entrant("bob"), Pool(TableSize.TWO, rated=False, preset="bicycle"))
    await p.mm.join(Entrant("cid"), FEW)
    assert await p.mm.tick() == []


async def three_to_four_seats_four_at_once_and_three_after_five_seconds(p: Pools) -> None:
    for who in ("a", "b", "c"):
        await p.mm.join(Entrant(who), FEW)
    await p.wait(4999)
    assert await p.mm.tick() == []
    await p.mm.join(Entrant("d"), FEW)
    await p.mm.join(Entrant("e"), FEW)
    assert names(await p.mm.tick()) == [["a", "b", "c", "d"]]
    await p.wait(5000)
    await p.mm.join(Entrant("f"), FEW)
    assert await p.mm.tick() == []  # two are not a table of three
    await p.mm.join(Entrant("g"), FEW)
    assert names(await p.mm.tick()) == [["e", "f", "g"]]  # e has waited long enough for the three of them


# ---------------------------------------------------------------------------------------- rated


async def a_rated_pool_is_for_signed_in_people(p: Pools) -> None:
    with pytest.raises(Forbidden, match="sign in"):
        await p.mm.join(Entrant("guest"), RATED)
    assert await p.mm.where("guest") is None


async def rated_players_far_apart_are_seated_once_the_gap_has_grown_to_them(p: Pools) -> None:
    await p.mm.join(person("ann", 1500), RATED)
    await p.mm.join(person("bob", 1700), RATED)
    await p.wait(9999)
    assert await p.mm.tick() == []
    await p.wait(1)  # 10 s: 100 + 10 * 10 = 200 points
    (table,) = await p.mm.tick()
    assert table.rated and table.waited == (10_000, 10_000)


async def rated_pairing_prefers_the_closest_rating(p: Pools) -> None:
    await p.mm.join(person("ann", 1500), RATED)
    await p.wait(1000)
    await p.mm.join(person("far", 1590), RATED)
    await p.mm.join(person("near", 1480), RATED)
    await p.mm.join(person("other", 1560), RATED)
    assert names(await p.mm.tick()) == [["ann", "near"], ["far", "other"]]


async def someone_who_waited_long_accepts_a_newcomer_further_away(p: Pools) -> None:
    await p.mm.join(person("ann", 1500), RATED)
    await p.wait(30_000)  # 400 points by now
    assert await p.mm.tick() == []
    await p.mm.join(person("new", 1850), RATED)  # the newcomer alone would accept 100
    assert names(await p.mm.tick()) == [["ann", "new"]]


async def a_rated_table_of_three_keeps_everyone_within_the_gap_of_each_other(p: Pools) -> None:
    await p.mm.join(person("ann", 1500), RATED_FEW)
    await p.mm.join(person("low", 1410), RATED_FEW)
    await p.mm.join(person("high", 1590), RATED_FEW)  # each within 100 of ann, 180 from each other
    await p.wait(5000)  # ann accepts 150: not both
    assert await p.mm.tick() == []
    await p.mm.join(person("mid", 1520), RATED_FEW)
    assert names(await p.mm.tick()) == [["ann", "mid", "low"]]


# ---------------------------------------------------------------------------------------- computers


async def after_twenty_seconds_a_waiting_person_may_take_computers_and_the_game_is_unrated(p: Pools) -> None:
    await p.mm.join(person("ann", 1500), RATED)
    await p.mm.join(person("bob", 2500), RATED)
    await p.wait(19_999)
    with pytest.raises(Conflict, match="after 20 s"):
        await p.mm.take_computers("ann")
    await p.wait(1)
    table = await p.mm.take_computers("ann")
    assert [e.who for e in table.players] == ["ann"] and table.computers == 1
    assert not table.rated and table.waited == (20_000,)
    assert await p.mm.where("ann") == table
    assert await p.names(RATED) == ["bob"]
    with pytest.raises(NotFound):
        await p.mm.take_computers("nobody")


async def a_table_of_three_to_four_with_computers_has_three_seats(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), FEW)
    await p.wait(20_000)
    assert (await p.mm.take_computers("ann")).computers == 2


# ---------------------------------------------------------------------------------------- leaving, never twice


async def leaving_is_one_call_and_the_pool_forgets_them(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    assert await p.mm.leave("ann") is True
    assert await p.mm.where("ann") is None and await p.waiting(DUEL) == ()
    await p.mm.join(Entrant("bob"), DUEL)
    assert await p.mm.tick() == []
    assert await p.mm.leave("ann") is False


async def a_person_never_waits_in_two_pools_nor_sits_at_two_tables(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    with pytest.raises(AlreadyPlaying, match="already waits"):
        await p.mm.join(Entrant("ann"), FEW)
    with pytest.raises(AlreadyPlaying, match="already waits"):
        await p.mm.join(Entrant("ann"), DUEL)
    await p.mm.join(Entrant("bob"), DUEL)
    (table,) = await p.mm.tick()
    assert await p.mm.where("ann") == table
    assert await p.mm.leave("ann") is False  # seated: leaving the queue is over
    with pytest.raises(AlreadyPlaying, match=f"already sits at table {table.table}"):
        await p.mm.join(Entrant("ann"), DUEL)
    await p.mm.release("ann")  # left the table for good
    await p.mm.join(Entrant("ann"), DUEL)
    with pytest.raises(AlreadyPlaying, match="already sits"):
        await p.mm.join(Entrant("bob"), DUEL)
    await p.mm.done(table.table)
    assert await p.mm.where("bob") is None
    assert isinstance(await p.mm.where("ann"), Waiting)  # the old table's end does not unseat her new wait
    await p.mm.join(Entrant("bob"), DUEL)


async def random_comings_and_goings_keep_everyone_in_one_place_and_leave_nobody_who_could_be_seated(
    p: Pools,
) -> None:
    rng = random.Random(4)
    pools = list(ALL)
    people = [person(f"p{i}", rng.uniform(1000, 2000), i) for i in range(40)]
    tables: dict[int, Seating] = {}
    for _ in range(p.steps):
        who = rng.choice(people)
        action = rng.random()
        try:
            if action < 0.45:
                await p.mm.join(who, rng.choice(pools))
            elif action < 0.55:
                await p.mm.leave(who.who)
            elif action < 0.6:
                alone = await p.mm.take_computers(who.who)
                tables[alone.table] = alone
            elif action < 0.8 and tables:
                await p.mm.done(tables.pop(rng.choice(list(tables))).table)
            elif action < 0.85:
                await p.mm.release(who.who)
        except (Conflict, NotFound):
            pass
        p.clock.advance(rng.randrange(0, 3000))
        for table in await p.mm.tick():
            assert table.table not in tables
            tables[table.table] = table
        # Each person is in one place at most, and it is where the pools and the tables say.
        waiting = {pool: await p.waiting(pool) for pool in pools}
        everyone = [w.entrant.who for pool in pools for w in waiting[pool]]
        assert len(everyone) == len(set(everyone))
        for pool in pools:
            for w in waiting[pool]:
                assert await p.mm.where(w.entrant.who) == w
            # Nobody is left waiting whom the rules would seat now.
            assert groups(pool, waiting[pool], p.clock.now()) == []
        seated = [e.who for t in tables.values() for e in t.players if await p.mm.where(e.who) == t]
        assert len(seated) == len(set(seated))
        assert not set(seated) & set(everyone)


async def a_page_that_stops_asking_is_taken_out_of_its_pool(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    await p.mm.join(Entrant("bob"), FEW)
    for _ in range(3):
        p.clock.advance(GONE_AFTER_MS // 2)
        await p.mm.seen("ann")  # ann's page asks; bob's was closed
        await p.mm.tick()
    assert await p.names(DUEL) == ["ann"]
    assert await p.waiting(FEW) == () and await p.mm.where("bob") is None
    await p.mm.join(Entrant("cid"), DUEL)
    (table,) = await p.mm.tick()
    assert [e.who for e in table.players] == ["ann", "cid"]


async def a_table_placed_in_its_room_gives_each_person_their_own_ticket(p: Pools) -> None:
    await p.mm.join(Entrant("ann"), DUEL)
    await p.mm.join(Entrant("bob"), DUEL)
    (table,) = await p.mm.tick()
    assert await p.mm.where("ann") == table  # seated, its room not open yet
    await p.mm.place(table.table, {"ann": Ticket("ROOM01", 0, "t-ann"), "bob": Ticket("ROOM01", 1, "t-bob")})
    assert await p.mm.where("bob") == Placed(table, Ticket("ROOM01", 1, "t-bob"))
    with pytest.raises(NotFound):
        await p.mm.place(999, {})
    await p.mm.release("bob")
    assert await p.mm.where("bob") is None
    assert isinstance(await p.mm.where("ann"), Placed)
    await p.mm.done(table.table)
    assert await p.mm.where("ann") is None


async def a_ticket_goes_only_to_the_people_of_its_table(p: Pools) -> None:
    for who in ("ann", "bob", "cid", "dan"):
        await p.mm.join(Entrant(who), DUEL)
    first, second = await p.mm.tick()
    await p.mm.place(first.table, {"ann": Ticket("ROOM01", 0, "t-ann"), "cid": Ticket("ROOM01", 1, "t-cid")})
    assert await p.mm.where("ann") == Placed(first, Ticket("ROOM01", 0, "t-ann"))
    assert await p.mm.where("cid") == second  # not at that table: no ticket to it
    await p.mm.done(first.table)
    assert await p.mm.where("cid") == second  # nor unseated by its end


CASES: dict[str, Callable[[Pools], Awaitable[None]]] = {
    case.__name__: case
    for case in (
        two_people_in_an_unrated_pool_are_seated_at_once_first_come_first_seated,
        pools_of_other_presets_or_sizes_never_mix,
        three_to_four_seats_four_at_once_and_three_after_five_seconds,
        a_rated_pool_is_for_signed_in_people,
        rated_players_far_apart_are_seated_once_the_gap_has_grown_to_them,
        rated_pairing_prefers_the_closest_rating,
        someone_who_waited_long_accepts_a_newcomer_further_away,
        a_rated_table_of_three_keeps_everyone_within_the_gap_of_each_other,
        after_twenty_seconds_a_waiting_person_may_take_computers_and_the_game_is_unrated,
        a_table_of_three_to_four_with_computers_has_three_seats,
        leaving_is_one_call_and_the_pool_forgets_them,
        a_person_never_waits_in_two_pools_nor_sits_at_two_tables,
        random_comings_and_goings_keep_everyone_in_one_place_and_leave_nobody_who_could_be_seated,
        a_page_that_stops_asking_is_taken_out_of_its_pool,
        a_table_placed_in_its_room_gives_each_person_their_own_ticket,
        a_ticket_goes_only_to_the_people_of_its_table,
    )
}
