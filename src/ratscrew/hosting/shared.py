"""What the workers share through Redis besides the limits (``hosting/limits.py``): the open lobbies of every
worker, and the table of workers (the proxy's ``upstream`` is what routes; this says who is there and alive).

Each worker writes its own open lobbies under its own key every second (and before answering a list), with
an expiry, so a worker that died drops out of the list by itself; any worker answers ``GET /api/rooms``
from all of them. While Redis is away (``hosting/link.py``) a worker answers at once, without asking it, with
its own lobbies as they are and the other workers' as it last saw them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time

from ratscrew.errors import MalformedInput
from ratscrew.hosting.link import Away, RedisLink
from ratscrew.hosting.settings import Hosting
from ratscrew.rooms.runner import OpenRoom, Rooms
from ratscrew.shapes import from_json, to_json

log = logging.getLogger(__name__)

PUBLISH_EVERY_S = 1.0
LISTED_FOR_MS = 5000  # a worker silent this long is taken as gone
MAX_LISTED = 100


class SharedLobbies:
    def __init__(self, hosting: Hosting, rooms: Rooms, link: RedisLink) -> None:
        self.hosting = hosting
        self.rooms = rooms
        self.link = link
        prefix = hosting.prefix
        self._keys = [f"{prefix}lobbies:{i}" for i in range(len(hosting.ports))]
        self._workers = f"{prefix}workers"
        self.seen: dict[int, tuple[OpenRoom, ...]] = {}  # the other workers' lobbies, as last read
        self.alive = len(hosting.ports)  # workers heard from lately, as last read (each worker counts itself)

    async def exchange(self) -> None:
        """Write this worker's lobbies and its line in the table of workers; read everyone's, in one round trip."""
        me = self.hosting.worker
        about = {"address": self.hosting.servers[me], "pid": os.getpid(), "seen": time.time()}
        pipe = self.link.client.pipeline(transaction=False)
        pipe.set(self._keys[me], json.dumps(to_json(self.rooms.open_lobbies())), px=LISTED_FOR_MS)
        pipe.hset(self._workers, str(me), json.dumps({**about, "rooms": len(self.rooms.rooms)}))
        pipe.mget(self._keys)
        pipe.hgetall(self._workers)
        *_, found, workers = await pipe.execute()
        self.seen = {i: _lobbies(i, text) for i, text in enumerate(found) if text is not None and i != me}
        recent = time.time() - LISTED_FOR_MS / 1000
        self.alive = max(1, sum(1 for line in workers.values() if json.loads(line).get("seen", 0) >= recent))

    async def listed(self) -> list[OpenRoom]:
        """The open lobbies of every worker: this one's as they are now, the others' as Redis has them (or,
        with Redis away, as this worker last saw them)."""
        with contextlib.suppress(Away):
            await self.link.run(self.exchange)
        listed = self.rooms.open_lobbies()
        for _worker, lobbies in sorted(self.seen.items()):
            listed.extend(lobbies)
        return listed[:MAX_LISTED]

    async def run(self) -> None:
        """Publish this worker's lobbies every second until cancelled."""
        while True:
            with contextlib.suppress(Away):
                await self.link.run(self.exchange)
            await asyncio.sleep(PUBLISH_EVERY_S)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.link.client.delete(self._keys[self.hosting.worker])


def _lobbies(worker: int, text: str) -> tuple[OpenRoom, ...]:
    """A worker's open lobbies as it wrote them; a list that cannot be read (a worker of another version, say)
    is left out of the list, and logged."""
    try:
        return from_json(tuple[OpenRoom, ...], json.loads(text), where=f"worker {worker}'s lobbies")
    except (ValueError, MalformedInput) as exc:
        log.warning("the open lobby: %s", exc)
        return ()
