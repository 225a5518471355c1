"""The limits of ``limits/`` counted in Redis, so that they hold across workers (and machines).

Rooms created, unknown codes asked for and wrong passwords (by address and by account name): the same
sliding windows as ``limits.local.Window`` (one sorted set per client and window, an entry's score the time
it was taken), taken and trimmed in one Lua call on Redis's clock. A room taken and not made (or a password
found right) is given back in the background, in batches, tried again when Redis was away (at most
``SETTLE_TRIES`` times): one never given back only lasts its window.

Sockets: each worker keeps the truth (its live sockets by client, ``live``) and a copy in Redis (its table,
a hash from client to count). A socket taken is counted in the worker, then in its table in the same Lua
call that checks the client's total over every worker's table; a socket closed is taken off in the
background, in batches. Whatever is lost on the way (a call that failed, Redis stalled, a worker killed),
the table is written again whole from ``live`` every ``RECONCILE_S`` (and at start, and when Redis is back),
and it expires ``LEASE_S`` after it was last written: a count left behind lasts seconds, never for good.

While Redis is away (``hosting/link.py``) every limit is counted in this worker alone, at its share of each
cap (the cap over the workers alive), so that all of them together allow no more than the caps.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ratscrew.errors import TooMany
from ratscrew.hosting.link import Away, RedisLink
from ratscrew.limits import Caps, Grant, Lease, LocalLimits
from ratscrew.limits.caps import (
    GUESS_MS,
    HOUR_MS,
    MINUTE_MS,
    too_many_guesses,
    too_many_misses,
    too_many_rooms,
    too_many_sockets,
)
from ratscrew.limits.local import guess_keys
from ratscrew.table.clock import Clock

RECONCILE_S = 5.0
LEASE_S = 3 * RECONCILE_S
SETTLE_TRIES = 3
MAX_WAITING = 10_000  # entries waiting to be given back while Redis is away; beyond that they expire instead
BATCH = 500

# A window (limits.local.Window): KEYS[1] the client's entries. ARGV: the cap, the window in ms, how many
# are wanted, the request's ticket (entries are ticket:1, ticket:2...), and the time in ms (-1: Redis's
# clock). An entry taken at t counts while the time is below t + window. Answers how many were taken and
# how many were held before.
_TAKE = """
local now = tonumber(ARGV[5])
if now < 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local held = redis.call('ZCARD', KEYS[1])
local granted = math.max(0, math.min(tonumber(ARGV[3]), tonumber(ARGV[1]) - held))
for i = 1, granted do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
if granted > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {granted, held}
"""

# One socket more for ARGV[1] if its total over every worker's table (KEYS, this worker's first) is under
# the cap ARGV[2]; this worker's table then lives ARGV[3] ms more. Answers 1 if taken, 0 if not.
_OPEN = """
local total = 0
for i = 1, #KEYS do total = total + tonumber(redis.call('HGET', KEYS[i], ARGV[1]) or '0') end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS[1] this worker's table, KEYS[2..] windows to give entries back to. ARGV: how many clients closed
# sockets, then each client and how many; then, for each window, how many entries, then the entries.
_SETTLE = """
local i = 2
for _ = 1, tonumber(ARGV[1]) do
    if redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then
        redis.call('HDEL', KEYS[1], ARGV[i])
    end
    i = i + 2
end
for k = 2, #KEYS do
    local n = tonumber(ARGV[i])
    if n > 0 then redis.call('ZREM', KEYS[k], unpack(ARGV, i + 1, i + n)) end
    i = i + n + 1
end
"""

# This worker's table (KEYS[1]) written again whole: ARGV[1] its lease in ms, then each client and count.
_RECONCILE = """
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if #ARGV > 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
"""


@dataclass
class _Refund:
    key: str
    entries: list[str]
    tries: int = 0


class SharedLimits:
    """``limits.Limits`` across the workers. ``alive`` says how many workers are alive (for the shares while
    Redis is away); ``now`` gives the windows a clock of their own instead of Redis's (tests: virtual time)."""

    def __init__(
        self,
        link: RedisLink,
        clock: Clock,
        caps: Caps,
        *,
        worker: int,
        workers: int,
        prefix: str = "ratscrew:",
        alive: Callable[[], int] | None = None,
        reconcile_s: float = RECONCILE_S,
        now: Callable[[], int] | None = None,
    ) -> None:
        self.link = link
        self.caps = caps
        self.prefix = prefix
        self.alive = alive or (lambda: workers)
        self.reconcile_s = reconcile_s
        self.lease_ms = round(3 * reconcile_s * 1000)
        self.now = now  # None: Redis's clock (TIME); tests give virtual time
        self.local = LocalLimits(clock, caps.share(workers))  # while Redis is away
        self.live: Counter[str] = Counter()  # this worker's sockets by client: what its table copies
        tables = [f"{prefix}sockets:{i}" for i in range(workers)]
        tables.insert(0, tables.pop(worker))
        self.tables = tables  # this worker's first
        client = link.client
        self._take = client.register_script(_TAKE)
        self._open = client.register_script(_OPEN)
        self._settle = client.register_script(_SETTLE)
        self._reconcile = client.register_script(_RECONCILE)
        self._closed: Counter[str] = Counter()  # sockets closed and not yet taken off this worker's table
        self._refunds: list[_Refund] = []
        self._wake = asyncio.Event()
        self._reconcile_at = 0.0  # the event loop's time of the next reconcile (0: at once)
        link.on_back(self._back)

    # ------------------------------------------------------------------ limits.Limits

    async def room(self, client: str) -> Grant:
        cap = self.caps.rooms_per_hour
        taken = await self._window(self._key("created", client), cap, HOUR_MS, 1)
        if taken is None:
            return self._share().take_room(client)
        granted, held, give_back = taken
        if not granted:
            raise too_many_rooms(held, cap)
        return Grant(1, give_back)

    async def missed(self, client: str, misses: int) -> int:
        cap = self.caps.misses_per_minute
        taken = await self._window(self._key("misses", client), cap, MINUTE_MS, misses)
        if taken is None:
            return self._share().take_misses(client, misses)
        _granted, held, _give_back = taken
        if held >= cap:
            raise too_many_misses(cap)
        return cap - held

    async def password(self, client: str, account: str) -> Grant:
        by_address, by_account = (self._key("guesses", key) for key in guess_keys(client, account))
        first = await self._window(by_address, self.caps.guesses_per_address, GUESS_MS, 1)
        if first is None:
            return self._share().take_password(client, account)
        if not first[0]:
            raise too_many_guesses()
        second = await self._window(by_account, self.caps.guesses_per_account, GUESS_MS, 1)
        if second is None:  # Redis went away between the two: this worker's share decides
            first[2](1)
            return self._share().take_password(client, account)
        if not second[0]:
            first[2](1)
            raise too_many_guesses()

        def give_back(left: int) -> None:
            first[2](left)
            second[2](left)

        return Grant(1, give_back)

    async def socket(self, client: str) -> Lease:
        self.live[client] += 1  # first: a reconcile while Redis is asked already counts it
        try:
            cap = self.caps.sockets
            try:
                opened = await self.link.run(lambda: self._open(keys=self.tables, args=[client, cap, self.lease_ms]))
            except Away:
                share = self._share().caps.sockets
                if self.live[client] > share:
                    raise too_many_sockets(share) from None
            else:
                if not int(opened):
                    raise too_many_sockets(cap)
        except TooMany:
            self._drop(client)
            raise
        return Lease(lambda: self._closing(client))

    # ------------------------------------------------------------------ the background

    async def run(self) -> None:
        """Until cancelled: give back what requests did not use, take closed sockets off this worker's table,
        and write the table again every ``reconcile_s`` (at once when Redis is back)."""
        loop = asyncio.get_running_loop()
        while True:
            delay = max(0.0, self._reconcile_at - loop.time()) if self.link.up else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            self._wake.clear()
            if not self.link.up:
                continue
            if loop.time() >= self._reconcile_at:
                await self.reconcile()
            await self.flush()

    async def reconcile(self) -> bool:
        """Write this worker's table again from its live sockets; whether Redis took it."""
        self._closed.clear()  # the live sockets already leave them out
        counts = [str(item) for pair in sorted(self.live.items()) for item in pair]
        try:
            await self.link.run(lambda: self._reconcile(keys=[self.tables[0]], args=[self.lease_ms, *counts]))
        except Away:
            return False
        self._reconcile_at = asyncio.get_running_loop().time() + self.reconcile_s
        return True

    async def flush(self) -> None:
        """Send what waits to be given back and taken off, in batches, while Redis answers."""
        while self.link.up and (self._closed or self._refunds):
            closed, self._closed = self._closed, Counter()
            refunds, self._refunds = self._refunds[:BATCH], self._refunds[BATCH:]
            args: list[str | int] = [len(closed)]
            for client, count in closed.items():
                args += [client, count]
            for refund in refunds:
                args += [len(refund.entries), *refund.entries]
            keys = [self.tables[0], *(refund.key for refund in refunds)]
            try:
                await self.link.run(lambda: self._settle(keys=keys, args=args))  # noqa: B023 (awaited at once)
            except Away:
                # Closed sockets: the next reconcile counts them right. Entries: tried again once Redis is back.
                kept = [r for r in refunds if r.tries + 1 < SETTLE_TRIES]
                for refund in kept:
                    refund.tries += 1
                self._refunds = (kept + self._refunds)[:MAX_WAITING]
                return

    # ------------------------------------------------------------------ inside

    async def _window(
        self, key: str, cap: int, span_ms: int, wanted: int
    ) -> tuple[int, int, Callable[[int], None]] | None:
        """Up to ``wanted`` entries of the window ``key``: (taken, held before, give back), or None if Redis
        is away."""
        ticket = secrets.token_hex(8)
        now = -1 if self.now is None else self.now()
        try:
            granted, held = await self.link.run(
                lambda: self._take(keys=[key], args=[cap, span_ms, wanted, ticket, now])
            )
        except Away:
            return None
        granted = int(granted)

        def give_back(count: int) -> None:
            entries = [f"{ticket}:{i}" for i in range(granted - count + 1, granted + 1)]
            if len(self._refunds) < MAX_WAITING:
                self._refunds.append(_Refund(key, entries))
                self._wake.set()

        return granted, int(held), give_back

    def _share(self) -> LocalLimits:
        """The limits counted here alone, at this worker's share of each cap."""
        self.local.caps = self.caps.share(self.alive())
        return self.local

    def _closing(self, client: str) -> None:
        self._drop(client)
        if self.link.up:
            self._closed[client] += 1
            self._wake.set()

    def _drop(self, client: str) -> None:
        self.live[client] -= 1
        if self.live[client] <= 0:
            del self.live[client]

    def _back(self) -> None:
        self._reconcile_at = 0.0
        self._wake.set()

    def _key(self, book: str, client: str) -> str:
        return f"{self.prefix}{book}:{client}"
