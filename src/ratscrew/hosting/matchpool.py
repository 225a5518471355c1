"""The Play-now pools kept in Redis, shared by every worker of ``ratscrew serve``: people who reached different
workers wait together and are seated together. It answers ``ladder.matchmaker.Matchmaking`` exactly as the
pools of one process do (``LocalMatchmaking``), and decides with the same ``ladder.matching`` functions.

What Redis keeps, under the hosting prefix and ``playnow:``:

- ``who:WHO``, a hash per person: waiting (their pool, their join's number, since when, when their page last
  asked, who they are) or seated (the join's number, their table, its seating, and once its room is open
  their ticket). It is the one truth about a person, so a person is never in two pools nor at two tables.
  Tickets are secrets (the seat's token): they live only here, where nothing lists them, and every record
  expires: ``WAITING_TTL_MS`` after the page last asked, ``SEATED_TTL_MS`` after seating if the room is never
  opened (its worker died between), ``PLACED_TTL_MS`` after its room opened if no worker says the game ended.
- ``pool:POOL``, a hash of the people waiting in a pool (who to their join's number), and ``pools``, the set of
  pools someone waits in: what a tick reads.
- ``table:N``, the set of a table's people, for ``place`` and ``done``; ``tables`` and ``joins``, counters;
  ``resumed``, when Redis was last back after a worker found it away.

A tick is two round trips: one script reads every pool (taking out those whose page stopped asking, and any
entry whose person record expired), Python decides the tables with ``matching.groups``, and one script seats
them. Every worker ticks every second, so two may decide the same table at once: the seating script checks,
for each table, that each of its people still waits in that pool under the same join's number (not seated
by another worker, not gone and back), and seats the table only then. The loser's tables are skipped, to be
decided again at its next tick from what is then true. (``docs/decisions.md``, Play now, says why a check at
commit rather than a lock.) Times kept in Redis are on the ``shared`` clock the pool is given (the wall clock
live, which every worker reads alike; virtual time in tests), never Redis's own; every time it answers is on
the worker's own clock, which the web layer reads.

A value read from Redis is checked before it is believed: an entry that cannot be read is dropped with one
log line, never a traceback in a request; a key of a kind this pool never writes is removed (and logged) by
the scripts themselves.

While Redis is away (``hosting/link.py``) Play now pauses: a worker without a ``fallback`` refuses new joins
(``PoolAway``, 503: a person's requests reach any worker, and the others cannot be asked), and answers a
waiting page that its place is kept while it stays open. Once Redis is back, the first worker to reach it says
so (``resumed``), and every page is heard from afresh from then: a page still open asks within the
``GONE_AFTER_MS`` a closed one is given, and keeps its place. What else was said meanwhile is kept and told
to Redis once it is back: leaves, releases, tables placed and games over. The site's only worker, given a
``fallback``, seats newcomers in its own pools meanwhile, and moves whoever still waits there into Redis once
it is back, keeping their wait.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Sequence
from typing import Any, overload

import redis
from redis.commands.core import AsyncScript

from ratscrew.engine.actions import Millis
from ratscrew.errors import MalformedInput, NotFound, Unavailable
from ratscrew.hosting.link import Away, RedisLink
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting, groups
from ratscrew.ladder.matchmaker import (
    GONE_AFTER_MS,
    Matchmaker,
    Placed,
    Seating,
    Ticket,
    check_may_join,
    check_may_take_computers,
)
from ratscrew.shapes import from_json, to_json
from ratscrew.table.clock import Clock

log = logging.getLogger(__name__)

WAITING_TTL_MS = 10 * 60_000  # a waiting record, from when its page last asked (ticks take it out long before)
SEATED_TTL_MS = 2 * 60_000  # a table whose room never opened frees its people after this
PLACED_TTL_MS = 6 * 3600_000  # a table no worker said was over frees its people after this
KEEP_MS = 24 * 3600_000  # the pools, the set of pools and the counters, from when last written
FALLBACK_FIRST_TABLE = 1_000_000_000  # a worker's own tables while Redis is away, apart from the shared ones

KEPT = "the Play-now queue is out of reach for a moment: your place is kept while this page stays open"
TRY_AGAIN = "the Play-now queue is out of reach for a moment: try again in a few seconds"


class PoolAway(Unavailable):
    """The shared pools cannot be reached just now (``extra``'s code lets a page say it in its language)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.extra = {"code": "queue_away"}


class WallClock:
    """Milliseconds since 1970: the one clock every worker of a machine reads alike."""

    def now(self) -> Millis:
        return int(time.time() * 1000)


def pool_id(pool: Pool) -> str:
    """A pool as its keys name it.

    >>> pool_id(Pool(TableSize.TWO, rated=True, preset="standard"))
    '2/rated/standard'
    """
    return f"{pool.size.value}/{'rated' if pool.rated else 'unrated'}/{pool.preset}"


def parse_pool(text: str) -> Pool:
    """A pool from its name in the keys; a name this version cannot read is malformed.

    >>> parse_pool("3-4/unrated/bicycle")
    Pool(size=<TableSize.THREE_OR_FOUR: '3-4'>, rated=False, preset='bicycle')
    """
    size, rated, preset = [*text.split("/", 2), "", ""][:3]
    if size not in {s.value for s in TableSize} or rated not in ("rated", "unrated") or not preset:
        raise MalformedInput(f"a pool is SIZE/rated|unrated/PRESET, not {text[:80]!r}")
    return Pool(TableSize(size), rated == "rated", preset)


# ---------------------------------------------------------------------------------------- the scripts
# Each starts with this prelude. ARGV[1] is the prefix of every key (the scripts name the keys they touch
# from it, so they suit one Redis, as the rest of the hosting does, not a cluster). Each answers
# {answer, broken}: broken lists the keys it found of a kind this pool never writes, and removed.

_PRELUDE = """
local P = ARGV[1]
local broken = {}
local function kind(key, wanted)
    local found = redis.call('TYPE', key)['ok']
    if found == 'none' or found == wanted then return found end
    redis.call('DEL', key)
    broken[#broken + 1] = key
    return 'none'
end
local NOBODY = {false, false, false, false, false, false, false}
-- A person's state, pool, join number, table, since, last seen and entrant (false where absent), once their
-- record is one this pool could have written; a record that is not is removed.
local function person(who)
    local key = P .. 'who:' .. who
    local f = redis.pcall('HMGET', key, 'state', 'pool', 'n', 'table', 'since', 'seen', 'entrant')
    if not f['err'] then
        if (f[1] == 'w' and f[2] and f[3]) or (f[1] == 's' and f[3] and f[4]) then return f end
        if not f[1] and redis.call('EXISTS', key) == 0 then return NOBODY end
    end
    redis.call('DEL', key)
    broken[#broken + 1] = key
    return NOBODY
end
-- A counter that counts (one that does not is started again past any number it can have given: seconds
-- since 1970), kept for ``keep`` ms more.
local function counter(key)
    local found = redis.call('TYPE', key)['ok']
    if found ~= 'none' and not (found == 'string' and string.match(redis.call('GET', key), '^%d+$')) then
        redis.call('DEL', key)
        redis.call('SET', key, redis.call('TIME')[1])
        broken[#broken + 1] = key
    end
    redis.call('PEXPIRE', key, ARGV[2])
    return key
end
-- Out of their pool's list, and the pool out of the set of pools once empty.
local function unwait(who, id, n)
    local pool = P .. 'pool:' .. id
    if kind(pool, 'hash') == 'hash' and redis.call('HGET', pool, who) == n then redis.call('HDEL', pool, who) end
    if redis.call('EXISTS', pool) == 0 and kind(P .. 'pools', 'set') == 'set' then
        redis.call('SREM', P .. 'pools', id)
    end
end
"""

# ARGV: prefix, keep ms, who, pool, since, now, entrant, waiting ttl. Answers {'w'} (already waits), {'s',
# table} (already sits) or {'ok', join number}.
_JOIN = """
local who, id = ARGV[3], ARGV[4]
local st = person(who)
if st[1] == 'w' then return {{'w'}, broken} end
if st[1] == 's' then return {{'s', st[4]}, broken} end
local n = redis.call('INCR', counter(P .. 'joins'))
local key = P .. 'who:' .. who
redis.call('DEL', key)
redis.call('HSET', key, 'state', 'w', 'pool', id, 'n', n, 'since', ARGV[5], 'seen', ARGV[6], 'entrant', ARGV[7])
redis.call('PEXPIRE', key, ARGV[8])
local pool = P .. 'pool:' .. id
kind(pool, 'hash')
redis.call('HSET', pool, who, n)
redis.call('PEXPIRE', pool, ARGV[2])
kind(P .. 'pools', 'set')
redis.call('SADD', P .. 'pools', id)
redis.call('PEXPIRE', P .. 'pools', ARGV[2])
return {{'ok', n}, broken}
"""

# ARGV: prefix, waiting ttl, who, now.
_SEEN = """
if person(ARGV[3])[1] == 'w' then
    local key = P .. 'who:' .. ARGV[3]
    redis.call('HSET', key, 'seen', ARGV[4])
    redis.call('PEXPIRE', key, ARGV[2])
end
return {0, broken}
"""

# ARGV: prefix, who, and when the leave was said: a wait begun later, or whose page has asked since, goes on
# (a leave said while Redis was away, told once it is back, must not end a wait the person wants). Answers 1
# if they waited.
_LEAVE = """
local st = person(ARGV[2])
if st[1] ~= 'w' then return {0, broken} end
local key = P .. 'who:' .. ARGV[2]
local f = redis.call('HMGET', key, 'since', 'seen')
local said = tonumber(ARGV[3])
if (tonumber(f[1]) or 0) > said or (tonumber(f[2]) or 0) > said then return {0, broken} end
unwait(ARGV[2], st[2], st[3])
redis.call('DEL', key)
return {1, broken}
"""

# ARGV: prefix, now, gone after ms, keep ms. Takes out whoever's page has not asked for ``gone`` ms (counting
# from when Redis was last back, if later) and any entry whose record expired or moved on; answers, for each
# pool, its id and its people as one JSON list: who, join number, since and entrant, four items each.
_READ = """
local cutoff = tonumber(ARGV[2]) - tonumber(ARGV[3])
-- Redis was away until ``resumed``: no page could say it was there meanwhile, so each is heard from then.
local resumed = 0
if kind(P .. 'resumed', 'string') == 'string' then resumed = tonumber(redis.call('GET', P .. 'resumed')) or 0 end
local pools = P .. 'pools'
local out = {}
if kind(pools, 'set') == 'set' then
    redis.call('PEXPIRE', pools, ARGV[4])
    for _, id in ipairs(redis.call('SMEMBERS', pools)) do
        local pool = P .. 'pool:' .. id
        local rows = {}
        if kind(pool, 'hash') == 'hash' then
            local flat = redis.call('HGETALL', pool)
            for i = 1, #flat, 2 do
                local who, n = flat[i], flat[i + 1]
                local st = person(who)
                local seen = tonumber(st[6])
                if seen then seen = math.max(seen, resumed) end
                if st[1] ~= 'w' or st[2] ~= id or st[3] ~= n then
                    redis.call('HDEL', pool, who)
                elseif not seen or seen <= cutoff then
                    redis.call('HDEL', pool, who)
                    redis.call('DEL', P .. 'who:' .. who)
                else
                    rows[#rows + 1] = who
                    rows[#rows + 1] = n
                    rows[#rows + 1] = st[5] or ''
                    rows[#rows + 1] = st[7] or ''
                end
            end
        end
        if #rows == 0 then
            redis.call('DEL', pool)
            redis.call('SREM', pools, id)
        else
            redis.call('PEXPIRE', pool, ARGV[4])
            out[#out + 1] = id
            out[#out + 1] = cjson.encode(rows)
        end
    end
end
return {out, broken}
"""

# ARGV: prefix, keep ms, seated ttl, table ttl, now; then for each table: its pool, how many people, each
# person's who and join number, and its seating. A table is made only if each of its people still waits in
# that pool under that join number; answers each table's number, or 0 for one not made.
_SEAT = """
local out = {}
local tables = counter(P .. 'tables')
local i = 6
while i <= #ARGV do
    local id, k = ARGV[i], tonumber(ARGV[i + 1])
    local ok = true
    for j = 0, k - 1 do
        local st = person(ARGV[i + 2 + 2 * j])
        if st[1] ~= 'w' or st[2] ~= id or st[3] ~= ARGV[i + 3 + 2 * j] then ok = false end
    end
    local pool = P .. 'pool:' .. id
    if ok then
        local seating = ARGV[i + 2 + 2 * k]
        local t = redis.call('INCR', tables)
        local tkey = P .. 'table:' .. t
        redis.call('DEL', tkey)
        local pooled = kind(pool, 'hash') == 'hash'
        for j = 0, k - 1 do
            local who, n = ARGV[i + 2 + 2 * j], ARGV[i + 3 + 2 * j]
            if pooled then redis.call('HDEL', pool, who) end
            local key = P .. 'who:' .. who
            redis.call('DEL', key)
            redis.call('HSET', key, 'state', 's', 'n', n, 'table', t, 'at', ARGV[5], 'seating', seating)
            redis.call('PEXPIRE', key, ARGV[3])
            redis.call('SADD', tkey, who)
        end
        redis.call('PEXPIRE', tkey, ARGV[4])
        if redis.call('EXISTS', pool) == 0 and kind(P .. 'pools', 'set') == 'set' then
            redis.call('SREM', P .. 'pools', id)
        end
        out[#out + 1] = t
    else
        out[#out + 1] = 0
    end
    i = i + 3 + 2 * k
end
return {out, broken}
"""

# ARGV: prefix, table, placed ttl, then each person's who and ticket. Answers -1 if there is no such table.
_PLACE = """
local t = ARGV[2]
local tkey = P .. 'table:' .. t
if kind(tkey, 'set') == 'none' then return {-1, broken} end
for i = 4, #ARGV, 2 do
    local st = person(ARGV[i])
    if st[1] == 's' and st[4] == t and redis.call('SISMEMBER', tkey, ARGV[i]) == 1 then
        local key = P .. 'who:' .. ARGV[i]
        redis.call('HSET', key, 'ticket', ARGV[i + 1])
        redis.call('PEXPIRE', key, ARGV[3])
    end
end
redis.call('PEXPIRE', tkey, ARGV[3])
return {0, broken}
"""

# ARGV: prefix, table.
_DONE = """
local t = ARGV[2]
local tkey = P .. 'table:' .. t
if kind(tkey, 'set') == 'set' then
    for _, who in ipairs(redis.call('SMEMBERS', tkey)) do
        local st = person(who)
        if st[1] == 's' and st[4] == t then redis.call('DEL', P .. 'who:' .. who) end
    end
    redis.call('DEL', tkey)
end
return {0, broken}
"""

# ARGV: prefix, who, and a time: only a seat taken at or before it is given up.
_RELEASE = """
local st = person(ARGV[2])
local key = P .. 'who:' .. ARGV[2]
if st[1] == 's' and (tonumber(redis.call('HGET', key, 'at')) or 0) <= tonumber(ARGV[3]) then
    local tkey = P .. 'table:' .. st[4]
    if kind(tkey, 'set') == 'set' then redis.call('SREM', tkey, ARGV[2]) end
    redis.call('DEL', key)
end
return {0, broken}
"""

# ARGV: prefix, who. Answers the person's record as field, value, ... (empty: nowhere).
_WHERE = """
if not person(ARGV[2])[1] then return {{}, broken} end
return {redis.call('HGETALL', P .. 'who:' .. ARGV[2]), broken}
"""

# ARGV: prefix, who, join number: a record found unreadable, removed if it is still that one.
_DROP = """
local st = person(ARGV[2])
if st[3] == ARGV[3] then
    if st[1] == 'w' then unwait(ARGV[2], st[2], st[3]) end
    if st[1] == 's' and kind(P .. 'table:' .. st[4], 'set') == 'set' then
        redis.call('SREM', P .. 'table:' .. st[4], ARGV[2])
    end
    redis.call('DEL', P .. 'who:' .. ARGV[2])
end
return {0, broken}
"""

# ARGV: prefix, keep ms, now: Redis is back (a worker found it away); pages are heard from again from now.
_RESUME = """
local key = P .. 'resumed'
if kind(key, 'string') == 'none' or (tonumber(redis.call('GET', key)) or 0) < tonumber(ARGV[3]) then
    redis.call('SET', key, ARGV[3], 'PX', ARGV[2])
end
return {0, broken}
"""

# ARGV: prefix, pool: a pool whose name cannot be read (its people's records go once read).
_FORGET_POOL = """
redis.call('DEL', P .. 'pool:' .. ARGV[2])
if kind(P .. 'pools', 'set') == 'set' then redis.call('SREM', P .. 'pools', ARGV[2]) end
return {0, broken}
"""

# ARGV: prefix, pool. Answers the pool's people as _READ does, taking nobody out (for tests and the bench).
_WAITING = """
local pool = P .. 'pool:' .. ARGV[2]
local rows = {}
if kind(pool, 'hash') == 'hash' then
    local flat = redis.call('HGETALL', pool)
    for i = 1, #flat, 2 do
        local st = person(flat[i])
        if st[1] == 'w' and st[2] == ARGV[2] and st[3] == flat[i + 1] then
            local f = redis.call('HMGET', P .. 'who:' .. flat[i], 'since', 'entrant')
            rows[#rows + 1] = flat[i]
            rows[#rows + 1] = flat[i + 1]
            rows[#rows + 1] = f[1] or ''
            rows[#rows + 1] = f[2] or ''
        end
    end
end
if #rows == 0 then return {'[]', broken} end
return {cjson.encode(rows), broken}
"""


class _Refused(Exception):
    """Redis answered with an error (not the link's fault: Redis is there)."""


Record = Waiting | Seating | Placed | None
Chosen = tuple[tuple[tuple[str, str], ...], Seating]  # a table to make: its people (who, join number), its seating


class RedisMatchmaking:
    """:class:`~ratscrew.ladder.matchmaker.Matchmaking` in Redis, through ``link``, with keys under ``prefix``.

    ``clock`` is this worker's (the rooms', which the web layer reads: every time this answers is on it);
    ``shared`` is the clock every worker reads alike, on which the times kept in Redis are written (the wall
    clock live; by default ``clock``, as in tests whose workers share one virtual clock). ``fallback`` is the
    pools to use while Redis is away: give one only to a site's sole worker, since a person's requests reach
    any worker and another's pools cannot be asked."""

    def __init__(
        self,
        link: RedisLink,
        clock: Clock,
        *,
        prefix: str = "ratscrew:",
        shared: Clock | None = None,
        fallback: Matchmaker | None = None,
    ) -> None:
        self.link = link
        self.clock = clock
        self.shared = shared or clock
        self.prefix = prefix + "playnow:"
        self.fallback = fallback
        script = link.client.register_script
        self._join, self._seen, self._leave = (script(_PRELUDE + s) for s in (_JOIN, _SEEN, _LEAVE))
        self._read, self._seat, self._place = (script(_PRELUDE + s) for s in (_READ, _SEAT, _PLACE))
        self._done, self._release, self._where = (script(_PRELUDE + s) for s in (_DONE, _RELEASE, _WHERE))
        self._drop, self._forget_pool, self._waiting = (script(_PRELUDE + s) for s in (_DROP, _FORGET_POOL, _WAITING))
        self._resume = script(_PRELUDE + _RESUME)
        # Said while Redis was away, told to it once it is back (times on the shared clock): that it was away,
        # leaves and releases with when they were said, tables placed and games over; and records found
        # unreadable, to remove.
        self._was_away = False
        self._leaves: dict[str, Millis] = {}
        self._releases: dict[str, Millis] = {}
        self._places: dict[int, dict[str, Ticket]] = {}
        self._dones: set[int] = set()
        self._unreadable: list[tuple[str, str]] = []
        self._unreadable_pools: list[str] = []

    # ------------------------------------------------------------------ Matchmaking

    async def join(self, entrant: Entrant, pool: Pool) -> Waiting:
        check_may_join(entrant, pool, self._here(entrant.who))
        now = self.shared.now()
        try:
            args = (KEEP_MS, entrant.who, pool_id(pool), now, now, _text(entrant), WAITING_TTL_MS)
            state = _texts(await self._call(self._join, *args))
        except Away:
            if self.fallback is None:
                raise PoolAway(TRY_AGAIN) from None
            return self.fallback.join(entrant, pool)
        if state[:1] == ["w"]:
            check_may_join(entrant, pool, Waiting(entrant, pool, now))
        elif state[:1] == ["s"]:
            table = int(state[1]) if state[1:2] and state[1].isdigit() else 0
            check_may_join(entrant, pool, Seating(table, pool, (), 0, (), now))
        self._leaves.pop(entrant.who, None)  # a leave said while Redis was away is older than this wait
        return Waiting(entrant, pool, self.clock.now())

    async def seen(self, who: str) -> None:
        if self.fallback is not None and isinstance(self.fallback.where(who), Waiting):
            self.fallback.seen(who)
            return
        # With Redis away, nothing to keep: once it is back every page is heard from afresh (_RESUME).
        with contextlib.suppress(Away, PoolAway):
            await self._call(self._seen, WAITING_TTL_MS, who, self.shared.now())

    async def leave(self, who: str) -> bool:
        if self.fallback is not None and self.fallback.leave(who):
            return True
        now = self.shared.now()
        try:
            return bool(await self._call(self._leave, who, now))
        except Away:
            self._leaves[who] = now
            return False

    async def tick(self) -> list[Seating]:
        made = self.fallback.tick() if self.fallback is not None else []
        with contextlib.suppress(Away, PoolAway):  # Redis away, or refusing (logged): the next tick tries again
            made += [self._local(seating) for seating in await self._tick_shared()]
        return made

    async def take_computers(self, who: str) -> Seating:
        if self.fallback is not None and isinstance(self.fallback.where(who), Waiting):
            return self.fallback.take_computers(who)
        try:
            where, n = await self._record(who)
            now = self.shared.now()
            check_may_take_computers(who, where, now)
            assert isinstance(where, Waiting)
            seating = Seating(0, where.pool, (where.entrant,), where.pool.size.fewest - 1, (now - where.since,), now)
            (number,) = await self._seat_shared([(((who, n),), seating)], now)
        except Away:
            raise PoolAway(KEPT) from None
        if not number:  # seated at a table meanwhile by another worker's tick, or gone
            raise NotFound(f"{who!r} is not waiting for a table")
        return self._local(dataclasses.replace(seating, table=number))

    async def place(self, table: int, tickets: dict[str, Ticket]) -> None:
        if self.fallback is not None and self.fallback.has_table(table):
            self.fallback.place(table, tickets)
            return
        pairs = [item for who, ticket in tickets.items() for item in (who, _text(ticket))]
        try:
            found = await self._call(self._place, table, PLACED_TTL_MS, *pairs)
        except Away:  # the room is open: its people get their tickets once Redis is back
            self._places[table] = dict(tickets)
            return
        if found == -1:
            raise NotFound(f"no table {table}")

    async def done(self, table: int) -> None:
        if self.fallback is not None and self.fallback.has_table(table):
            self.fallback.done(table)
            return
        self._places.pop(table, None)
        try:
            await self._call(self._done, table)
        except (Away, PoolAway):
            self._dones.add(table)

    async def release(self, who: str) -> None:
        if self.fallback is not None and isinstance(self.fallback.where(who), Seating | Placed):
            self.fallback.release(who)
            return
        now = self.shared.now()
        try:
            await self._call(self._release, who, now)
        except (Away, PoolAway):
            self._releases[who] = now

    async def where(self, who: str) -> Waiting | Seating | Placed | None:
        here = self._here(who)
        if here is not None:
            return here
        try:
            return self._local((await self._record(who))[0])
        except Away:
            raise PoolAway(KEPT) from None

    async def waiting(self, pool: Pool) -> tuple[Waiting, ...]:
        """The people waiting in ``pool`` in Redis, in the order they came (for the tests and the bench)."""
        rows = await self._call(self._waiting, pool_id(pool))
        return tuple(self._local(waiting) for waiting, _n in self._people(pool, rows))

    # ------------------------------------------------------------------ inside

    @overload
    def _local(self, found: Waiting) -> Waiting: ...
    @overload
    def _local(self, found: Seating) -> Seating: ...
    @overload
    def _local(self, found: Record) -> Record: ...
    def _local(self, found: Record) -> Record:
        """``found`` (read from Redis, on the shared clock) with its times on this worker's clock."""
        offset = self.shared.now() - self.clock.now()
        if isinstance(found, Waiting):
            return dataclasses.replace(found, since=found.since - offset)
        if isinstance(found, Seating):
            return dataclasses.replace(found, at=found.at - offset)
        if isinstance(found, Placed):
            return Placed(dataclasses.replace(found.seating, at=found.seating.at - offset), found.ticket)
        return None

    def _here(self, who: str) -> Record:
        return self.fallback.where(who) if self.fallback is not None else None

    async def _tick_shared(self) -> list[Seating]:
        """The tables made, on the shared clock."""
        now = self.shared.now()
        found = await self._call(self._read, now, GONE_AFTER_MS, KEEP_MS)
        chosen: list[Chosen] = []
        for pool, rows in self._pools(found):
            numbers = {waiting.entrant.who: n for waiting, n in rows}
            for group in groups(pool, [waiting for waiting, _n in rows], now):
                people = tuple((w.entrant.who, numbers[w.entrant.who]) for w in group)
                waited = tuple(now - w.since for w in group)
                chosen.append((people, Seating(0, pool, tuple(w.entrant for w in group), 0, waited, now)))
        if not chosen:
            return []
        made = await self._seat_shared(chosen, now)
        return [dataclasses.replace(seating, table=n) for n, (_, seating) in zip(made, chosen, strict=True) if n]

    async def _seat_shared(self, chosen: Sequence[Chosen], now: Millis) -> list[int]:
        """Seats each table whose people all still wait as they were read: each table's number, 0 for one
        not made."""
        args: list[str | int] = [KEEP_MS, SEATED_TTL_MS, PLACED_TTL_MS, now]
        for people, seating in chosen:
            args += [pool_id(seating.pool), len(people), *(item for pair in people for item in pair), _text(seating)]
        answer = await self._call(self._seat, *args)
        numbers = _texts(answer)
        if len(numbers) != len(chosen) or not all(n.isdigit() for n in numbers):
            log.warning("the Play-now pool: Redis answered %r for %d tables; none taken as made", answer, len(chosen))
            return [0] * len(chosen)
        return [int(n) for n in numbers]

    async def _record(self, who: str) -> tuple[Record, str]:
        """Where ``who`` stands in Redis, and their join's number."""
        flat = _texts(await self._call(self._where, who))
        record = dict(zip(flat[::2], flat[1::2], strict=False))
        if not record:
            return None, ""
        try:
            return _read_record(who, record), record.get("n", "")
        except (MalformedInput, ValueError) as exc:
            log.warning("the Play-now pool: the record of %r dropped, it cannot be read: %s", who[:80], exc)
            await self._call(self._drop, who, record.get("n", ""))
            return None, ""

    def _pools(self, found: object) -> list[tuple[Pool, list[tuple[Waiting, str]]]]:
        """The pools a read answered, each with its people (and their join numbers) in the order they came;
        what cannot be read is left out, logged, and removed at the next call."""
        flat = found if isinstance(found, list) else []
        pools = []
        for raw_id, rows in zip(flat[::2], flat[1::2], strict=False):
            try:
                pool = parse_pool(_decoded(raw_id))
            except MalformedInput as exc:
                log.warning("the Play-now pool: a pool dropped, its name cannot be read: %s", exc)
                self._unreadable_pools.append(_decoded(raw_id))
                continue
            pools.append((pool, self._people(pool, rows)))
        return pools

    def _people(self, pool: Pool, rows: object) -> list[tuple[Waiting, str]]:
        """A pool's people from their rows (one JSON list of texts: cheaper to read than thousands of Redis
        replies), in the order they came, with their join numbers."""
        try:
            texts = json.loads(_decoded(rows))
        except ValueError:
            texts = None
        if not (isinstance(texts, list) and all(isinstance(text, str) for text in texts)):
            log.warning("the Play-now pool: %s left out of this tick, its list cannot be read", pool_id(pool))
            return []
        people: list[tuple[int, Waiting, str]] = []
        for who, n, since, entrant in zip(texts[::4], texts[1::4], texts[2::4], texts[3::4], strict=False):
            try:
                people.append((int(n), Waiting(_entrant(who, entrant), pool, int(since)), n))
            except (MalformedInput, ValueError) as exc:
                log.warning("the Play-now pool: %r dropped from %s, unreadable: %s", who[:80], pool_id(pool), exc)
                self._unreadable.append((who, n))
        people.sort(key=lambda row: row[0])
        return [(waiting, n) for _order, waiting, n in people]

    async def _catch_up(self) -> None:
        """Once Redis answers: tells it what was said while it was away, removes what was found unreadable,
        and moves the people waiting in this worker's own pools meanwhile into Redis, keeping their wait."""
        while self._unreadable:
            who, n = self._unreadable[-1]
            await self._send(self._drop, who, n)
            self._unreadable.pop()
        while self._unreadable_pools:
            await self._send(self._forget_pool, self._unreadable_pools[-1])
            self._unreadable_pools.pop()
        if self._was_away:  # first: the next tick must not take a page still open for a closed one
            await self._send(self._resume, KEEP_MS, self.shared.now())
            self._was_away = False
        for table, tickets in list(self._places.items()):
            pairs = [item for who, ticket in tickets.items() for item in (who, _text(ticket))]
            await self._send(self._place, table, PLACED_TTL_MS, *pairs)
            del self._places[table]
        for table in list(self._dones):
            await self._send(self._done, table)
            self._dones.discard(table)
        for who, said in list(self._leaves.items()):
            await self._send(self._leave, who, said)
            del self._leaves[who]
        for who, said in list(self._releases.items()):
            await self._send(self._release, who, said)
            del self._releases[who]
        fallback = self.fallback
        if fallback is None:
            return
        for pool in fallback.pools():
            for waiting in fallback.waiting(pool):
                who, now = waiting.entrant.who, self.shared.now()
                since = waiting.since + now - self.clock.now()
                args = (KEEP_MS, who, pool_id(pool), since, now, _text(waiting.entrant), WAITING_TTL_MS)
                await self._send(self._join, *args)
                # In Redis now, or there already (pressed again while it was away: that wait stands, heard from
                # afresh as every other since Redis is back), or seated since: either way, no longer here.
                fallback.leave(who)

    def _behind(self) -> bool:
        """Whether something waits to be told to Redis."""
        said = self._was_away or self._leaves or self._releases or self._places or self._dones
        fallback = self.fallback is not None and bool(self.fallback.pools())
        return bool(said or fallback or self._unreadable or self._unreadable_pools)

    async def _call(self, script: AsyncScript, *args: str | int) -> Any:
        """``_send``, once what waits to be told to Redis is told."""
        if self._behind():
            await self._catch_up()
        return await self._send(script, *args)

    async def _send(self, script: AsyncScript, *args: str | int) -> Any:
        """A script's answer, through the link (Away while Redis is away); the keys it removed are logged."""

        async def run() -> object:
            try:
                return await script(args=[self.prefix, *args])
            except redis.ResponseError as exc:  # Redis is there, and refused: no reason to call it away
                return _Refused(str(exc))

        try:
            reply = await self.link.run(run)
        except Away:
            self._was_away = True
            raise
        if isinstance(reply, _Refused):
            log.warning("the Play-now pool: Redis refused a call (%s)", str(reply)[:200])
            raise PoolAway(TRY_AGAIN)
        if not (isinstance(reply, list) and len(reply) == 2):
            log.warning("the Play-now pool: an answer of another shape than its script's: %r", str(reply)[:200])
            raise PoolAway(TRY_AGAIN)
        answer, broken = reply
        for key in _texts(broken):
            log.warning("the Play-now pool: %s removed, it was not a record this pool writes", key[:120])
        return answer


def _read_record(who: str, record: dict[str, str]) -> Waiting | Seating | Placed:
    if record.get("state") == "w":
        entrant = _entrant(who, record.get("entrant", ""))
        return Waiting(entrant, parse_pool(record.get("pool", "")), int(record.get("since", "")))
    seating = from_json(Seating, json.loads(record.get("seating", "")), where="a seating")
    seating = dataclasses.replace(seating, table=int(record.get("table", "")))
    if "ticket" not in record:
        return seating
    return Placed(seating, from_json(Ticket, json.loads(record["ticket"]), where="a ticket"))


def _text(value: object) -> str:
    return json.dumps(to_json(value), separators=(",", ":"))


def _decoded(raw: object) -> str:
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return str(raw)


def _texts(raw: object) -> list[str]:
    return [_decoded(item) for item in raw] if isinstance(raw, list) else []


def _entrant(who: str, text: str) -> Entrant:
    entrant = from_json(Entrant, json.loads(text), where="an entrant")
    if entrant.who != who:
        raise MalformedInput(f"the record of {who[:80]!r} names {entrant.who[:80]!r}")
    return entrant
