"""A worker's one way to Redis: its pool of connections, and whether Redis is there at all (a circuit breaker).

Everything the workers share goes through ``RedisLink.run``. While Redis answers, a call waits at most
``TIMEOUT_S`` for it (and at most ``POOL_WAIT_S`` for a free connection: under a burst calls queue for one
rather than fail). The first call that fails marks Redis away, with one log line: from then on every call
fails at once (``Away``) without trying, and the worker answers from what it knows (its share of each
limit, the lobbies it last saw). ``watch`` tries Redis every ``PROBE_S`` meanwhile; once it answers, one log
line says so and the ``on_back`` callbacks run (the limits write this worker's counts again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.asyncio
import redis.asyncio.retry
from redis.backoff import NoBackoff

log = logging.getLogger(__name__)

# Redis is on the same machine or network, and answers in a fraction of a millisecond; but a worker busy with
# hundreds of sockets at once can read an answer a few hundred ms late. Past this, Redis counts as away: the
# breaker pays it once an outage, not once a request, so it can afford to be generous.
TIMEOUT_S = 1.0
# Calls hold a connection for a round trip (a fraction of a millisecond), so 32 serve thousands of sockets
# opening or closing a second; beyond that, calls wait for a connection instead of failing.
POOL_SIZE = 32
POOL_WAIT_S = 0.5
PROBE_S = 1.0

T = TypeVar("T")


def _no_retry() -> redis.asyncio.retry.Retry:
    """One try: redis-py retries three times by default, with pauses, where the breaker should decide."""
    return redis.asyncio.retry.Retry(NoBackoff(), 0)


def _cancelled(exc: Exception | None = None) -> None:
    """Raises the cancellation of this task if redis-py let it go: it can answer normally, or with an error,
    when a cancel lands inside one of its calls (seen with its pipelines). Taken for an answer or for Redis
    away, the cancel would be lost, and a worker's background task would never end, nor the worker stop."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from exc


class Away(Exception):
    """Redis did not answer, or is known to be away: the caller answers from what this worker knows."""


class RedisLink:
    """``timeout_s``: how long a call waits for Redis before calling it away (tests that are not about Redis
    going away give a loaded machine longer)."""

    def __init__(self, url: str, timeout_s: float = TIMEOUT_S) -> None:
        self.url = url
        self.timeout_s = timeout_s
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=POOL_SIZE,
            timeout=POOL_WAIT_S,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            retry=_no_retry(),
        )
        self.client = redis.asyncio.Redis(connection_pool=pool, retry=_no_retry())
        self.up = True
        self.away_since: float | None = None  # time.monotonic() when it went away
        self.outages = 0
        self._on_back: list[Callable[[], None]] = []

    def on_back(self, callback: Callable[[], None]) -> None:
        self._on_back.append(callback)

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``'s answer, or Away (at once while Redis is known to be away)."""
        if not self.up:
            raise Away("Redis is away")
        try:
            answer = await call()
        except Exception as exc:  # redis.RedisError, a connection that went away, a timeout
            _cancelled(exc)
            self.lost(exc)
            raise Away(str(exc)) from exc
        _cancelled()
        return answer

    def lost(self, exc: Exception) -> None:
        if not self.up:
            return
        self.up = False
        self.away_since = time.monotonic()
        self.outages += 1
        log.warning(
            "Redis is away (%s): this worker counts each limit alone, at its share of the cap, and the open lobby "
            "lists what it last saw; trying Redis again every %.0f s",
            str(exc)[:200] or type(exc).__name__,
            PROBE_S,
        )

    async def probe(self) -> bool:
        """Whether Redis answers now (tried even while it is known away, on a connection of its own, so that
        nothing waits in the pool meanwhile); marks it back if so."""
        prober = redis.asyncio.Redis.from_url(
            self.url, socket_timeout=self.timeout_s, socket_connect_timeout=self.timeout_s, retry=_no_retry()
        )
        try:
            await prober.ping()
        except Exception as exc:
            _cancelled(exc)
            self.lost(exc)
            return False
        finally:
            with contextlib.suppress(Exception):
                await prober.aclose()
        _cancelled()
        if not self.up:
            # The pool's connections from before are broken, or were to a Redis that was restarted.
            with contextlib.suppress(Exception):
                await self.client.connection_pool.disconnect()
            away = time.monotonic() - (self.away_since or time.monotonic())
            self.up, self.away_since = True, None
            log.warning("Redis is back after %.1f s: the limits are counted across the workers again", away)
            for callback in self._on_back:
                callback()
        return True

    async def watch(self) -> None:
        """Until cancelled: while Redis is away, try it every ``PROBE_S``."""
        while True:
            await asyncio.sleep(PROBE_S)
            if not self.up:
                await self.probe()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()
            await self.client.connection_pool.disconnect()
