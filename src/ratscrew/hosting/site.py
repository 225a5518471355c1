"""One room worker of ``ratscrew serve``: the app of ``ratscrew play`` with the rooms it holds (by the proxy's
hash of their codes), the limits and open lobbies shared through Redis, and what an operator looks at:
``/healthz``, ``/readyz``, ``/metrics`` and a refusal to create rooms while the worker stops.

``/readyz`` answers whether this worker can serve games: 503 while it starts or stops, or while its journal
does not keep games; 200 otherwise, with ``degraded: true`` while Redis is away (games play on; the limits
are this worker's share, the lobby what it last saw). A load balancer probes ``/readyz`` and reads only its
status: Redis away on every worker at once must not take the whole site out of its pool."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratscrew import __version__, build
from ratscrew.hosting import metrics
from ratscrew.hosting.limits import SharedLimits
from ratscrew.hosting.link import RedisLink
from ratscrew.hosting.matchpool import FALLBACK_FIRST_TABLE, RedisMatchmaking, WallClock
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.shared import SharedLobbies
from ratscrew.ladder.matchmaker import Matchmaker, Matchmaking
from ratscrew.limits import Caps, Limits, LocalLimits
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.web.app import Setup
from ratscrew.web.limits import CREATING
from ratscrew.web.tally import Tally

STOP_WAIT_S = 5.0


class Hosted(Setup):
    def __init__(self, hosting: Hosting, stopping: Callable[[], bool]) -> None:
        self.hosting = hosting
        self.stopping = stopping
        self.ring = hosting.ring()
        self.link = RedisLink(hosting.redis_url) if hosting.redis_url else None
        self.shared: SharedLimits | None = None
        self.lobbies: SharedLobbies | None = None
        self.ready = False
        self.routes = (
            Route("/healthz", self.healthz),
            Route("/readyz", self.readyz),
            Route("/metrics", self.metrics),
        )
        self.middleware = (Middleware(Front, worker=hosting.worker, stopping=stopping),)

    def rooms(self, journal: SqliteJournal, tally: Tally) -> Rooms:
        hosting, ring, me = self.hosting, self.ring, self.hosting.worker
        owns = (lambda code: ring.owner(code) == me) if len(hosting.ports) > 1 else None
        rooms = Rooms(journal, owns=owns, on_verdict=tally.verdict)
        if self.link is not None:
            self.lobbies = SharedLobbies(hosting, rooms, self.link)
        return rooms

    def matchmaking(self, rooms: Rooms) -> Matchmaking:
        """Play now's pools in Redis, shared by every worker (``hosting/matchpool.py``); with no Redis, this
        worker's own. The site's only worker keeps seating people in its own pools while Redis is away."""
        if self.link is None:
            return super().matchmaking(rooms)
        alone = len(self.hosting.ports) == 1
        fallback = Matchmaker(rooms.clock, FALLBACK_FIRST_TABLE) if alone else None
        return RedisMatchmaking(
            self.link, rooms.clock, prefix=self.hosting.prefix, shared=WallClock(), fallback=fallback
        )

    def limits(self, rooms: Rooms) -> Limits:
        hosting = self.hosting
        caps = Caps(rooms_per_hour=hosting.rooms_per_hour)
        if self.link is None or self.lobbies is None:
            return LocalLimits(rooms.clock, caps)
        lobbies = self.lobbies
        self.shared = SharedLimits(
            self.link,
            rooms.clock,
            caps,
            worker=hosting.worker,
            workers=len(hosting.ports),
            prefix=hosting.prefix,
            alive=lambda: lobbies.alive,
            reconcile_s=hosting.reconcile_s,
        )
        return self.shared

    @asynccontextmanager
    async def running(self, app: Starlette) -> AsyncIterator[None]:
        app.state.origins = self.hosting.origins
        journal: SqliteJournal = app.state.journal
        # Journal backlog: the writes queued and not yet committed.
        link = self.link
        collector = metrics.WorkerCollector(
            self.hosting.worker,
            app.state.tally,
            lambda: app.state.rooms,
            lambda: journal.health().waiting,
            redis_away=None if link is None else lambda: not link.up,
        )
        self._registry = metrics.registry(collector)
        tasks: list[asyncio.Task[None]] = []
        if self.link is not None and self.shared is not None and self.lobbies is not None:
            app.state.lobbies = self.lobbies
            # This worker's sockets counted in Redis before it (re)started are gone; if Redis is away, the
            # worker starts degraded and writes them once Redis is back.
            await self.shared.reconcile()
            loop = asyncio.get_running_loop()
            tasks = [loop.create_task(job) for job in (self.link.watch(), self.shared.run(), self.lobbies.run())]
        self.ready = True
        try:
            yield
        finally:
            self.ready = False
            for task in tasks:
                task.cancel()
            if tasks:  # bounded: a worker stopping must not wait on Redis
                await asyncio.wait(tasks, timeout=STOP_WAIT_S)
            if self.lobbies is not None:
                await self.lobbies.close()
            if self.link is not None:
                await self.link.close()

    # ------------------------------------------------------------------ what the operator sees

    async def healthz(self, request: Request) -> Response:
        doc = {"ok": True, "worker": self.hosting.worker, "pid": os.getpid()}
        return JSONResponse({**doc, "version": __version__, "commit": build.commit()})

    async def readyz(self, request: Request) -> Response:
        """Ready to serve games: started, not stopping, its journal writing. Redis away is ``degraded``."""
        problems = []
        if not self.ready:
            problems.append("starting")
        if self.stopping():
            problems.append("stopping")
        journal: SqliteJournal | None = getattr(request.app.state, "journal", None)
        health = None if journal is None else journal.health()
        if health is None:
            problems.append("no journal")
        elif not health.ok:
            problems.append(f"the journal is not keeping games ({health.error or f'{health.waiting} writes waiting'})")
        doc: dict[str, object] = {"ready": not problems, "worker": self.hosting.worker, "degraded": False}
        if self.link is not None and not self.link.up:
            doc["degraded"] = True
            playnow = "Play now seats people here" if len(self.hosting.ports) == 1 else "Play now waits for it"
            doc["redis"] = (
                f"away: this worker counts its share of each limit alone; the lobby lists what it last saw; {playnow}"
            )
        if problems:
            return JSONResponse({"error": "not ready: " + "; ".join(problems), **doc}, status_code=503)
        return JSONResponse(doc)

    async def metrics(self, request: Request) -> Response:
        return Response(metrics.exposition(self._registry), media_type=metrics.CONTENT_TYPE)


class Front:
    """Says which worker answered (a header), counts refused requests by status for the metrics, and
    refuses new rooms once the worker is stopping (503: another worker, or this one restarted, takes them)."""

    def __init__(self, app: ASGIApp, worker: int, stopping: Callable[[], bool]) -> None:
        self.app = app
        self.worker = str(worker).encode()
        self.stopping = stopping

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tally: Tally = scope["app"].state.tally

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"x-ratscrew-worker", self.worker))
                if message["status"] >= 400:
                    tally.refusals[f"http_{message['status']}"] += 1
            await send(message)

        if scope["method"] == "POST" and self.stopping() and CREATING.match(scope["path"]):
            refusal = JSONResponse({"error": "this server is restarting: try again in a few seconds"}, 503)
            await refusal(scope, receive, marked)
            return
        await self.app(scope, receive, marked)
