"""The Play-now pools kept in Redis (``hosting/matchpool.py``), with a real redis-server, on virtual time:

- the same cases as the pools of one process (``harness/pool_cases.py``);
- two workers (two ``RedisMatchmaking`` with links of their own): people who joined on different workers are
  seated together, and either answers where they stand, their ticket included;
- many joins, leaves, seats and ends from both workers at once, both ticking at once: nobody is seated twice
  or lost, nobody is seated from a wait they had left, and every record agrees with the pools; a person
  taking computers as another worker seats them sits at one table;
- Redis stopped (SIGSTOP) and back: a worker of several pauses Play now (a join is refused, a waiting page
  told its place is kept), and whoever's page kept asking keeps their place; what was said meanwhile (a
  leave, a game's end) reaches Redis once back; the site's only worker seats people in its own pools
  meanwhile and moves those still waiting into Redis once back, keeping their wait;
- Redis killed and started again empty: nobody waits for a table that cannot come;
- values in Redis that this pool never wrote are dropped with a log line, and the others are seated.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import signal
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import redis

from harness.lookups import Redis, new_prefix, redis_server
from harness.pool_cases import ALL, CASES, DUEL, FEW, PATIENT_S, RATED, names, person, redis_pools, run
from harness.site import eventually_answers, free_ports, require_programs, start_redis
from ratscrew.errors import Conflict, NotFound
from ratscrew.hosting.link import TIMEOUT_S, RedisLink
from ratscrew.hosting.matchpool import FALLBACK_FIRST_TABLE, Chosen, PoolAway, RedisMatchmaking
from ratscrew.ladder.matching import Entrant, Pool, Waiting, groups
from ratscrew.ladder.matchmaker import GONE_AFTER_MS, AlreadyPlaying, Matchmaker, Placed, Seating, Ticket
from ratscrew.table.clock import VirtualClock


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.mark.parametrize("case", list(CASES))
def test_the_pools_in_redis_pass_the_cases_of_one_process(store: Redis, case: str) -> None:
    async def play() -> None:
        async with redis_pools(store.url, new_prefix(), VirtualClock(), steps=1000) as pools:
            await CASES[case](pools)

    run(play)


@asynccontextmanager
async def workers(
    url: str, clock: VirtualClock, count: int = 2, fallback: bool = False, patient: bool = True
) -> AsyncIterator[list[RedisMatchmaking]]:
    """``count`` workers' pools in one Redis, each through a link of its own, on one clock; ``patient`` links
    wait longer for a call before calling Redis away (where Redis going away is not what is tested)."""
    prefix = new_prefix()
    links = [RedisLink(url, timeout_s=PATIENT_S if patient else TIMEOUT_S) for _ in range(count)]
    try:
        yield [
            RedisMatchmaking(
                link,
                clock,
                prefix=prefix,
                fallback=Matchmaker(clock, FALLBACK_FIRST_TABLE) if fallback else None,
            )
            for link in links
        ]
    finally:
        for link in links:
            await link.close()


# ---------------------------------------------------------------------------------------- two workers


def test_people_who_reached_different_workers_are_seated_together_and_either_worker_says_where(
    store: Redis,
) -> None:
    async def play() -> None:
        clock = VirtualClock()
        async with workers(store.url, clock) as (one, other):
            await one.join(person("ann", 1500), RATED)
            clock.advance(2000)
            with pytest.raises(AlreadyPlaying, match="already waits"):
                await other.join(person("ann", 1500), DUEL)  # in one pool, whichever worker she asks
            await other.join(person("bob", 1550), RATED)
            assert await other.where("ann") == Waiting(person("ann", 1500), RATED, 0)
            assert [w.entrant.who for w in await one.waiting(RATED)] == ["ann", "bob"]
            (table,) = await other.tick()
            assert names([table]) == [["ann", "bob"]] and table.waited == (2000, 0) and table.rated
            assert await one.tick() == []  # seated once, by whichever ticked first
            assert await one.where("bob") == table
            with pytest.raises(AlreadyPlaying, match=f"already sits at table {table.table}"):
                await one.join(person("bob", 1550), RATED)
            # The worker that made the table opens its room; the other answers each person's ticket.
            tickets = {"ann": Ticket("ROOM01", 0, "t-ann"), "bob": Ticket("ROOM01", 1, "t-bob")}
            await other.place(table.table, tickets)
            assert await one.where("ann") == Placed(table, tickets["ann"])
            assert await one.where("bob") == Placed(table, tickets["bob"])
            await other.done(table.table)
            assert await one.where("ann") is None and await one.where("bob") is None
            await one.join(person("ann", 1500), RATED)  # free to play again, on any worker

    run(play)


def test_each_worker_answers_on_its_own_clock_what_redis_keeps_on_the_shared_one(store: Redis) -> None:
    shared, mine, yours = VirtualClock(10**12), VirtualClock(0), VirtualClock(777_000)

    def advance(ms: int) -> None:
        for clock in (shared, mine, yours):
            clock.advance(ms)

    async def play() -> None:
        one_link, other_link = RedisLink(store.url, timeout_s=PATIENT_S), RedisLink(store.url, timeout_s=PATIENT_S)
        prefix = new_prefix()
        try:
            one = RedisMatchmaking(one_link, mine, prefix=prefix, shared=shared)
            other = RedisMatchmaking(other_link, yours, prefix=prefix, shared=shared)
            ann = await one.join(Entrant("ann"), DUEL)
            assert ann.since == 0
            advance(3000)
            assert await other.where("ann") == Waiting(Entrant("ann"), DUEL, 777_000)  # its 0 is my 777,000
            await other.join(Entrant("bob"), DUEL)
            (table,) = await other.tick()
            assert table.at == 780_000 and table.waited == (3000, 0)
            assert await one.where("ann") == dataclasses.replace(table, at=3000)
        finally:
            await one_link.close()
            await other_link.close()

    run(play)


# ---------------------------------------------------------------------------------------- at once


class Ledger:
    """What the workers have answered: every table made, who sits at which (until its end is said), and when
    each person last began to wait."""

    def __init__(self) -> None:
        self.tables: dict[int, Seating] = {}
        self.at: dict[str, int] = {}
        self.count = 0
        self.numbers: set[int] = set()
        self.joined: dict[str, int] = {}

    def made(self, seating: Seating) -> None:
        assert seating.table not in self.numbers, f"table {seating.table} made twice"
        self.numbers.add(seating.table)
        self.tables[seating.table] = seating
        self.count += 1
        for entrant, waited in zip(seating.players, seating.waited, strict=True):
            assert entrant.who not in self.at, f"{entrant.who} seated at {seating.table}, still at {self.at}"
            self.at[entrant.who] = seating.table
            # Seated from their last wait, not from one they had left before it.
            assert seating.at - waited == self.joined[entrant.who], (entrant.who, seating, self.joined)

    def ended(self, table: int) -> None:
        for who in [who for who, at in self.at.items() if at == table]:
            del self.at[who]

    def left(self, who: str) -> None:
        self.at.pop(who, None)


def test_two_workers_joining_leaving_and_ticking_at_once_never_seat_anyone_twice_nor_lose_anyone(
    store: Redis,
) -> None:
    rng = random.Random(27)
    people = [person(f"p{i}", rng.uniform(1300, 1700), i) for i in range(20)]
    placed: dict[str, Ticket] = {}

    async def again(side: RedisMatchmaking, then: RedisMatchmaking, who: Entrant, pool: Pool) -> Waiting:
        await side.leave(who.who)
        return await then.join(who, pool)

    async def one_round(pools: list[RedisMatchmaking], ledger: Ledger) -> None:
        work: list[Awaitable[object]] = []
        ends: list[int] = []
        releases: list[str] = []
        for _ in range(rng.randrange(4, 12)):
            who, side = rng.choice(people), rng.choice(pools)
            action = rng.random()
            if action < 0.35:
                work.append(side.join(who, rng.choice(ALL)))
            elif action < 0.45:
                work.append(side.leave(who.who))
            elif action < 0.55:  # leaves the queue and presses again at once, maybe for another pool
                work.append(again(side, rng.choice(pools), who, rng.choice(ALL)))
            elif action < 0.65:
                work.append(side.seen(who.who))
            elif action < 0.72:
                work.append(side.take_computers(who.who))
            elif action < 0.85 and ledger.tables:
                table = rng.choice(list(ledger.tables))
                ends.append(table)
                work.append(side.done(table))
            elif action < 0.9:
                releases.append(who.who)
                work.append(side.release(who.who))
        work += [pools[0].tick(), pools[1].tick(), pools[1].tick()]
        rng.shuffle(work)
        answers = await asyncio.gather(*work, return_exceptions=True)
        for table in ends:  # ends first: a person freed in this round may be seated again in it
            ledger.ended(table)
            ledger.tables.pop(table, None)
        for name in releases:
            ledger.left(name)
        for answer in answers:
            if isinstance(answer, Waiting):
                ledger.joined[answer.entrant.who] = answer.since
        for answer in answers:
            if isinstance(answer, BaseException):
                assert isinstance(answer, AlreadyPlaying | Conflict | NotFound), repr(answer)
            for seating in answer if isinstance(answer, list) else [answer] if isinstance(answer, Seating) else []:
                ledger.made(seating)
                if rng.random() < 0.7:  # most rooms open at once; some are still opening at the round's end
                    tickets = {
                        e.who: Ticket(f"R{seating.table}", i, f"t{e.who}") for i, e in enumerate(seating.players)
                    }
                    await rng.choice(pools).place(seating.table, tickets)
                    placed.update(tickets)

    async def check(pools: list[RedisMatchmaking], ledger: Ledger, clock: VirtualClock) -> None:
        waiting = {pool: await pools[0].waiting(pool) for pool in ALL}
        everyone = [w.entrant.who for pool in ALL for w in waiting[pool]]
        assert len(everyone) == len(set(everyone)), everyone
        for pool in ALL:
            assert groups(pool, waiting[pool], clock.now()) == []  # the round's last tick left nobody to seat
        for who in people:
            where = await rng.choice(pools).where(who.who)
            if isinstance(where, Waiting):
                assert where in waiting[where.pool] and who.who not in ledger.at
            elif isinstance(where, Seating | Placed):
                seating = where if isinstance(where, Seating) else where.seating
                # Not lost: at a table a worker was told about, and the one it said.
                assert ledger.at.get(who.who) == seating.table and ledger.tables[seating.table] == seating
                assert not isinstance(where, Placed) or where.ticket == placed[who.who]
            else:
                assert who.who not in ledger.at and who.who not in everyone

    async def play() -> int:
        clock = VirtualClock()
        ledger = Ledger()
        async with workers(store.url, clock) as pools:
            for _ in range(300):
                await one_round(pools, ledger)
                for seating in await rng.choice(pools).tick():
                    ledger.made(seating)
                await check(pools, ledger, clock)
                clock.advance(rng.randrange(0, 4000))
        return ledger.count

    assert run(play) > 50  # enough tables made to mean something


class Between(RedisMatchmaking):
    """A worker that lets ``meanwhile`` happen between reading the pools, or where a person stands, and acting
    on what it read."""

    meanwhile: Callable[[], Awaitable[object]] | None = None
    later: asyncio.Future[object] | None = None

    async def _record(self, who: str) -> tuple[Waiting | Seating | Placed | None, str]:
        found = await super()._record(who)
        await self._meanwhile()
        return found

    def _pools(self, found: object) -> list[tuple[Pool, list[tuple[Waiting, str]]]]:
        pools = super()._pools(found)
        if self.meanwhile is not None:
            self.later = asyncio.ensure_future(self.meanwhile())
        return pools

    async def _seat_shared(self, chosen: Sequence[Chosen], now: int) -> list[int]:
        if self.later is not None:
            later, self.later = self.later, None
            await later
        return await super()._seat_shared(chosen, now)

    async def _meanwhile(self) -> None:
        if self.meanwhile is not None:
            await self.meanwhile()


def test_a_person_seated_by_another_worker_as_they_take_computers_sits_at_one_table(store: Redis) -> None:
    async def play() -> None:
        clock = VirtualClock()
        async with workers(store.url, clock) as (one, other):
            slow = Between(one.link, clock, prefix=one.prefix.removesuffix("playnow:"))
            await one.join(person("ann", 1500), RATED)
            clock.advance(20_000)
            await one.seen("ann")
            await other.join(person("bob", 1600), RATED)
            made: list[Seating] = []

            async def tick() -> None:
                made.extend(await other.tick())

            slow.meanwhile = tick
            with pytest.raises(NotFound, match="not waiting"):
                await slow.take_computers("ann")
            assert names(made) == [["ann", "bob"]]
            assert await slow.where("ann") == made[0]

    run(play)


def test_a_person_who_left_and_pressed_again_while_a_worker_decided_is_seated_from_their_new_wait(
    store: Redis,
) -> None:
    async def play() -> None:
        clock = VirtualClock()
        async with workers(store.url, clock) as (one, other):
            slow = Between(one.link, clock, prefix=one.prefix.removesuffix("playnow:"))
            await one.join(Entrant("ann"), DUEL)
            clock.advance(5000)
            await one.seen("ann")
            await other.join(Entrant("bob"), DUEL)

            async def again() -> None:
                assert await other.leave("ann")
                await other.join(Entrant("ann"), DUEL)

            slow.meanwhile = again
            assert await slow.tick() == []  # it read ann's first wait: that one is over
            (table,) = await other.tick()
            assert names([table]) == [["bob", "ann"]] and table.waited == (0, 0)

    run(play)


# ---------------------------------------------------------------------------------------- Redis away


@pytest.fixture
def paused_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test's own, which it may stop (SIGSTOP) or kill."""
    require_programs(("redis-server",))
    (port,) = free_ports(1)
    server = start_redis(tmp_path, port)
    try:
        eventually_answers(port)
        yield f"redis://127.0.0.1:{port}/0", server
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait()


async def back(pools: list[RedisMatchmaking]) -> None:
    """Each worker's link tries Redis again (its watch does, every second, live)."""
    for side in pools:
        assert await side.link.probe()


def test_with_redis_stopped_a_worker_of_several_pauses_play_now_and_whoever_waits_with_the_page_open_keeps_their_place(
    paused_redis: tuple[str, subprocess.Popen[bytes]],
) -> None:
    url, server = paused_redis

    async def play() -> None:
        clock = VirtualClock()
        async with workers(url, clock, patient=False) as (one, other):
            for who in ("ann", "cid", "hal"):
                await one.join(Entrant(who), FEW)
            await other.join(Entrant("bob"), DUEL)
            assert await one.tick() == []  # nobody to pair yet in either pool
            await one.join(Entrant("dan"), DUEL)
            (duel,) = await other.tick()
            await one.join(Entrant("fay"), DUEL)
            await other.join(Entrant("gil"), DUEL)
            (late,) = await one.tick()  # its room opens as Redis stops
            server.send_signal(signal.SIGSTOP)
            for side in (one, other):  # each waits once for Redis (a second), and finds it away
                with pytest.raises(PoolAway, match="your place is kept while this page stays open") as away:
                    await side.where("ann")
                assert away.value.extra == {"code": "queue_away"}
            with pytest.raises(PoolAway, match="try again in a few seconds"):
                await one.join(Entrant("eve"), DUEL)
            for who in ("cid", "hal"):
                assert await one.leave(who) is False  # not known to have waited: but said, and kept
            await other.done(duel.table)  # the duel's game ended meanwhile: kept too
            await one.place(late.table, {"fay": Ticket("ROOM02", 0, "t-fay"), "gil": Ticket("ROOM02", 1, "t-gil")})
            for second in range(12):  # longer than a closed page is given; ann's page keeps asking
                clock.advance(1000)
                await (one, other)[second % 2].seen("ann")
                assert await one.tick() == [] and await other.tick() == []
            server.send_signal(signal.SIGCONT)
            await back([one, other])
            # hal changes her mind before her leave reaches Redis: she presses again, and her page asks.
            with pytest.raises(AlreadyPlaying, match="already waits"):
                await other.join(Entrant("hal"), FEW)
            await other.seen("hal")
            # ann's page kept asking: she keeps her place; cid's leave and the duel's end reach Redis, at each
            # worker's next call; hal waits on.
            assert await one.tick() == []
            assert [w.entrant.who for w in await other.waiting(FEW)] == ["ann", "hal"]
            assert await other.where("ann") == Waiting(Entrant("ann"), FEW, 0)
            assert await other.where("bob") is None and await other.where("dan") is None
            assert await other.where("gil") == Placed(late, Ticket("ROOM02", 1, "t-gil"))  # their tickets came
            await other.join(Entrant("bob"), DUEL)

    run(play)


def test_the_sites_only_worker_seats_people_in_its_own_pools_while_redis_is_away_then_moves_them_back(
    paused_redis: tuple[str, subprocess.Popen[bytes]],
) -> None:
    url, server = paused_redis

    async def play() -> None:
        clock = VirtualClock()
        async with workers(url, clock, count=1, fallback=True, patient=False) as (only,):
            await only.join(Entrant("old"), DUEL)
            server.send_signal(signal.SIGSTOP)
            with pytest.raises(PoolAway, match="your place is kept"):
                await only.where("old")  # waits in Redis: paused
            ann = await only.join(Entrant("ann"), DUEL)
            await only.join(Entrant("bob"), DUEL)
            assert await only.where("ann") == ann
            (table,) = await only.tick()
            assert names([table]) == [["ann", "bob"]] and table.table >= FALLBACK_FIRST_TABLE
            await only.place(table.table, {"ann": Ticket("ROOM01", 0, "t-ann")})
            assert await only.where("ann") == Placed(table, Ticket("ROOM01", 0, "t-ann"))
            await only.join(Entrant("old"), DUEL)  # old presses again anyway: waits here meanwhile
            for _ in range(12):  # longer than a closed page is given; old's page keeps asking
                clock.advance(1000)
                await only.seen("old")
                assert await only.tick() == []
            cid = await only.join(Entrant("cid"), FEW)
            clock.advance(1000)
            server.send_signal(signal.SIGCONT)
            await back([only])
            assert await only.tick() == []  # old and cid move into Redis
            assert await only.waiting(DUEL) == (Waiting(Entrant("old"), DUEL, 0),)  # one wait: the first
            assert await only.waiting(FEW) == (cid,)  # keeping hers
            with pytest.raises(AlreadyPlaying, match="already sits"):
                await only.join(Entrant("ann"), DUEL)  # her table in this worker's own pools still holds her
            await only.done(table.table)
            await only.join(Entrant("ann"), DUEL)
            (duel,) = await only.tick()
            assert names([duel]) == [["old", "ann"]] and duel.table < FALLBACK_FIRST_TABLE

    run(play)


def test_redis_killed_and_started_again_empty_leaves_nobody_waiting_for_a_table_that_cannot_come(
    paused_redis: tuple[str, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    url, server = paused_redis
    port = int(url.rsplit(":", 1)[1].split("/")[0])

    async def play() -> None:
        clock = VirtualClock()
        async with workers(url, clock, patient=False) as (one, other):
            await one.join(Entrant("ann"), DUEL)
            server.kill()
            server.wait()
            for side in (one, other):
                with pytest.raises(PoolAway, match="your place is kept"):
                    await side.where("ann")
            again = start_redis(tmp_path, port)
            try:
                eventually_answers(port)
                await back([one, other])
                assert await other.where("ann") is None  # her page offers Play now again
                await other.join(Entrant("ann"), DUEL)
                await one.join(Entrant("bob"), DUEL)
                (table,) = await one.tick()
                assert names([table]) == [["ann", "bob"]] and table.table == 1
            finally:
                again.kill()
                again.wait()

    run(play)


# ---------------------------------------------------------------------------------------- unreadable values


def test_values_this_pool_never_wrote_are_dropped_with_a_log_line_and_the_others_are_seated(
    store: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="ratscrew.hosting.matchpool")
    raw = redis.Redis.from_url(store.url, decode_responses=True)

    async def play() -> None:
        clock = VirtualClock()
        async with workers(store.url, clock) as (one, other):
            keys = one.prefix
            for who in ("ann", "bad-entrant", "bad-since", "wrong-kind", "bob"):
                await one.join(Entrant(who), DUEL)
            raw.hset(f"{keys}who:bad-entrant", "entrant", '{"who": 3}')
            raw.hset(f"{keys}who:bad-since", "since", "yesterday")
            raw.delete(f"{keys}who:wrong-kind")
            raw.set(f"{keys}who:wrong-kind", "a string, not a record")
            raw.sadd(f"{keys}pools", "9/unrated/standard")  # a pool of no size this version knows
            raw.hset(f"{keys}pool:9/unrated/standard", "zed", "1")
            raw.hset(f"{keys}who:zed", mapping={"state": "w", "pool": "9/unrated/standard", "n": "1", "seen": "0"})
            raw.hset(f"{keys}who:odd", mapping={"state": "maybe"})
            raw.hset(f"{keys}who:bad-seat", mapping={"state": "s", "n": "1", "table": "5", "seating": "[]"})
            (table,) = await other.tick()
            assert names([table]) == [["ann", "bob"]]
            assert await other.tick() == []  # the unreadable entries are gone, not seated
            assert await one.where("odd") is None and await one.where("bad-seat") is None
            assert await one.where("bad-entrant") is None
            assert raw.exists(f"{keys}who:bad-entrant", f"{keys}who:bad-since", f"{keys}who:bad-seat") == 0
            assert raw.smembers(f"{keys}pools") == set() and raw.exists(f"{keys}pool:9/unrated/standard") == 0
            await one.join(Entrant("wrong-kind"), DUEL)  # their names are free again
            assert isinstance(await one.where("wrong-kind"), Waiting)

    try:
        run(play)
    finally:
        raw.close()
    said = "\n".join(record.getMessage() for record in caplog.records)
    for words in ("'bad-entrant' dropped", "'bad-since' dropped", "who:wrong-kind removed", "who:odd removed"):
        assert words in said, said
    assert "a pool dropped, its name cannot be read" in said
    assert "the record of 'bad-seat' dropped" in said


def test_gone_and_computers_decisions_read_the_clock_given_not_redis(store: Redis) -> None:
    async def play() -> None:
        clock = VirtualClock(10**12)  # far from Redis's own time, either way
        async with workers(store.url, clock) as (one, other):
            await one.join(Entrant("ann"), FEW)
            clock.advance(GONE_AFTER_MS - 1)
            assert await other.tick() == [] and isinstance(await other.where("ann"), Waiting)
            await one.seen("ann")
            clock.advance(GONE_AFTER_MS - 1)
            await other.tick()
            with pytest.raises(Conflict, match="after 20 s"):
                await other.take_computers("ann")
            await one.seen("ann")
            clock.advance(2)
            table = await other.take_computers("ann")
            assert table.computers == 2 and table.waited == (2 * GONE_AFTER_MS,)
            assert await one.where("ann") == table

    run(play)
