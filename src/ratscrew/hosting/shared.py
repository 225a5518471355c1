"""What the workers share through Redis besides the limits (``web/limits.py``): the open lobbies of every
worker, and the table of workers (the proxy's ``upstream`` is what routes; this says who is there and alive).

Each worker writes its own open lobbies under its own key every second (and before answering a list), with
an expiry, so a worker that died drops out of the list by itself; any worker answers ``GET /api/rooms``
from all of them. A worker that cannot reach Redis answers with its own lobbies and says so in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time

import redis.asyncio
import redis.asyncio.retry
from redis.backoff import NoBackoff

from ratscrew.hosting.settings import Hosting
from ratscrew.rooms.runner import Rooms

log = logging.getLogger(__name__)

PUBLISH_EVERY_S = 1.0
LISTED_FOR_MS = 5000  # a worker silent this long is taken as gone
MAX_LISTED = 100
TIMEOUT_S = 0.25  # Redis is on the same machine or network: anything slower counts as away


def connect(url: str) -> redis.asyncio.Redis:
    """The worker's client for the limits and the lobbies, awaited on the event loop (every room plays on
    while it waits): one try, a short timeout (redis-py retries three times by default, with pauses)."""
    return redis.asyncio.Redis.from_url(
        url,
        socket_timeout=TIMEOUT_S,
        socket_connect_timeout=TIMEOUT_S,
        retry=redis.asyncio.retry.Retry(NoBackoff(), 0),
    )


class SharedLobbies:
    def __init__(self, hosting: Hosting, rooms: Rooms, client: redis.asyncio.Redis) -> None:
        self.hosting = hosting
        self.rooms = rooms
        self.redis = client
        prefix = hosting.prefix
        self._keys = [f"{prefix}lobbies:{i}" for i in range(len(hosting.ports))]
        self._workers = f"{prefix}workers"
        self.healthy = False  # whether the last exchange with Redis went through

    async def publish(self) -> None:
        mine = json.dumps(self.rooms.open_lobbies())
        me = self.hosting.worker
        about = {"address": self.hosting.servers[me], "pid": os.getpid(), "seen": time.time()}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._keys[me], mine, px=LISTED_FOR_MS)
            pipe.hset(self._workers, str(me), json.dumps({**about, "rooms": len(self.rooms.rooms)}))
            await pipe.execute()

    async def listed(self) -> list[dict[str, object]]:
        """The open lobbies of every worker (this one's as they are now)."""
        try:
            await self.publish()
            found = await self.redis.mget(self._keys)
        except Exception as exc:  # redis.RedisError, a lost connection, a timeout
            self.healthy = False
            log.warning("shared lobbies: %s; listing this worker's own", exc)
            return self.rooms.open_lobbies()
        self.healthy = True
        listed: list[dict[str, object]] = []
        for text in found:
            if text is not None:
                listed.extend(json.loads(text))
        return listed[:MAX_LISTED]

    async def ping(self) -> bool:
        try:
            self.healthy = bool(await self.redis.ping())
        except Exception:
            self.healthy = False
        return self.healthy

    async def run(self) -> None:
        """Publish this worker's lobbies every second until cancelled."""
        while True:
            try:
                await self.publish()
                self.healthy = True
            except Exception as exc:
                if self.healthy:
                    log.warning("shared lobbies: %s; will keep trying", exc)
                self.healthy = False
            await asyncio.sleep(PUBLISH_EVERY_S)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.delete(self._keys[self.hosting.worker])
