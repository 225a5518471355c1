"""Limits per client address: a request rate for every HTTP request (websockets have their own, per message),
and the rooms' limits (rooms created, wrong codes asked for, sockets open) kept in Redis when several workers
share them.

The request rate is a token bucket per address in this process: ``RATE`` requests a second on average,
bursts up to ``BURST``; past that the answer is 429 with a JSON error and a log line. Pages load a dozen files
at once, so the burst is generous. Behind ``ratscrew serve``'s proxy the proxy limits the rate as a whole.

The rooms' limits are ``runner.ClientLimits`` (in this process, on the server's clock) or, across workers,
``SharedLimits`` below: the same calls and the same caps, counted in Redis on Redis's clock.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

from ratscrew.errors import NotFound, TooMany
from ratscrew.rooms import runner
from ratscrew.table.clock import Clock

if TYPE_CHECKING:
    import redis

log = logging.getLogger(__name__)

RATE = 30.0
BURST = 120.0
MAX_CLIENTS = 10_000  # addresses remembered; the quietest are forgotten first


class RateLimit:
    def __init__(self, app: ASGIApp, rate: float | None = None, burst: float | None = None) -> None:
        self.app = app
        self.rate = RATE if rate is None else rate
        self.burst = BURST if burst is None else burst
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when last counted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if not self._take(address):
            log.info("rate limit: %s refused on %s", address, scope.get("path", "")[:80])
            body = json.dumps({"error": f"too many requests: at most {self.rate:.0f} a second; try again shortly"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)

    def _take(self, address: str) -> bool:
        now = time.monotonic()
        tokens, then = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.buckets) >= MAX_CLIENTS and address not in self.buckets:
            quietest = max(self.buckets, key=lambda a: self.buckets[a][0])
            del self.buckets[quietest]
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True


# Drops a client's times older than the window and answers how many are left; with ARGV[3] = 1 it also adds
# one more (now) if that stays under the limit. One round trip, atomic across workers, on Redis's clock.
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
local n = redis.call('ZCARD', KEYS[1])
if ARGV[3] == '1' and n < tonumber(ARGV[2]) then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
"""

# Sockets open per client, summed over every worker's table (KEYS, this worker's first); one more unless
# that reaches the limit (-1). A worker's table is cleared when it starts: its sockets died with it.
_CONNECT = """
local total = 0
for _, key in ipairs(KEYS) do total = total + tonumber(redis.call('HGET', key, ARGV[1]) or '0') end
if total >= tonumber(ARGV[2]) then return -1 end
return redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
"""


AWAY_S = 5.0  # after Redis failed once, how long the limits are counted in the worker before trying again


class SharedLimits(runner.ClientLimits):
    """The rooms' limits counted in Redis, so that they hold across workers (and machines). Should Redis
    fail, the worker counts them itself for a few seconds (``AWAY_S``), with a log line, and then tries Redis
    again: a Redis that is away costs one timeout every few seconds, not one on every call."""

    def __init__(
        self,
        clock: Clock,
        client: redis.Redis,
        *,
        worker: int,
        workers: int,
        prefix: str = "ratscrew:",
        rooms_per_hour: int = runner.ROOMS_PER_CLIENT_PER_HOUR,
    ) -> None:
        super().__init__(clock)
        self.redis = client
        self.prefix = prefix
        self.rooms_per_hour = rooms_per_hour
        self._sockets = [f"{prefix}sockets:{i}" for i in range(workers)]
        self._sockets.insert(0, self._sockets.pop(worker))
        self._window = client.register_script(_WINDOW)
        self._connect = client.register_script(_CONNECT)
        self._local: set[str] = set()  # clients whose sockets were counted here because Redis failed
        self._away_until = 0.0  # time.monotonic() until which Redis is not asked

    def reset(self) -> None:
        """This worker starts: sockets it counted before it stopped are gone."""
        self.redis.delete(self._sockets[0])

    def create(self, client: str) -> None:
        try:
            made = self._count("created", client, 3_600_000, self.rooms_per_hour, add=True)
        except Exception as exc:  # redis.RedisError, a connection that went away, or Redis known to be away
            return self._fallen_back(exc, super().create, client)
        if made >= self.rooms_per_hour:
            raise TooMany(f"you created {made} rooms in the last hour: at most {self.rooms_per_hour}")

    @contextmanager
    def guessing(self, client: str) -> Iterator[None]:
        try:
            wrong = self._count("wrong", client, 60_000, runner.FAILED_LOOKUPS_PER_MINUTE, add=False)
        except Exception as exc:
            self._failed(exc, "counting wrong codes in this worker")
            with super().guessing(client):
                yield
            return
        if wrong >= runner.FAILED_LOOKUPS_PER_MINUTE:
            raise TooMany("too many wrong room codes: wait a minute and check the code")
        try:
            yield
        except NotFound:
            try:
                self._count("wrong", client, 60_000, runner.FAILED_LOOKUPS_PER_MINUTE + 1, add=True)
            except Exception as exc:
                self._failed(exc, "a wrong code not counted")
            raise

    def connect(self, client: str) -> None:
        try:
            self._present()
            opened = int(self._connect(keys=self._sockets, args=[client, runner.CONNECTIONS_PER_CLIENT]))
        except Exception as exc:
            self._local.add(client)
            return self._fallen_back(exc, super().connect, client)
        if opened < 0:
            raise TooMany(f"too many open connections from your address: at most {runner.CONNECTIONS_PER_CLIENT}")

    def disconnect(self, client: str) -> None:
        if client in self._local:
            super().disconnect(client)
            if client not in self.connections:
                self._local.discard(client)
            return
        try:
            self._present()
            if self.redis.hincrby(self._sockets[0], client, -1) <= 0:
                self.redis.hdel(self._sockets[0], client)
        except Exception as exc:
            self._failed(exc, "a closed socket not counted")

    def _count(self, book: str, client: str, window_ms: int, limit: int, *, add: bool) -> int:
        self._present()
        key = f"{self.prefix}{book}:{client}"
        return int(self._window(keys=[key], args=[window_ms, limit, "1" if add else "0", secrets.token_hex(8)]))

    def _present(self) -> None:
        if time.monotonic() < self._away_until:
            raise ConnectionError("Redis was away moments ago")

    def _failed(self, exc: Exception, doing: str) -> None:
        if time.monotonic() >= self._away_until:  # one line each time Redis is found away, not one a call
            log.warning("shared limits: %s; %s for %.0f s", exc, doing, AWAY_S)
            self._away_until = time.monotonic() + AWAY_S

    def _fallen_back(self, exc: Exception, local: Callable[[str], None], client: str) -> None:
        self._failed(exc, "counting in this worker")
        local(client)
