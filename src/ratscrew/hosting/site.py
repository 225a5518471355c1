"""One room worker of ``ratscrew serve``: the app of ``ratscrew play`` with the rooms it holds (by the proxy's
hash of their codes), the limits and open lobbies shared through Redis, and what an operator looks at:
``/healthz``, ``/readyz``, ``/metrics`` and a refusal to create rooms while the worker stops."""

from __future__ import annotations

import asyncio
import contextlib
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
from ratscrew.hosting import metrics, shared
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.shared import SharedLobbies
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.table.clock import LoopClock
from ratscrew.web.app import Setup
from ratscrew.web.limits import CREATING, AskFirst, SharedLimits
from ratscrew.web.tally import Tally


class Hosted(Setup):
    def __init__(self, hosting: Hosting, stopping: Callable[[], bool]) -> None:
        self.hosting = hosting
        self.stopping = stopping
        self.ring = hosting.ring()
        self.redis = shared.connect(hosting.redis_url) if hosting.redis_url else None
        self.limits: SharedLimits | None = None
        self.lobbies: SharedLobbies | None = None
        self.ready = False
        self.routes = (
            Route("/healthz", self.healthz),
            Route("/readyz", self.readyz),
            Route("/metrics", self.metrics),
        )
        self.middleware = (
            Middleware(Front, worker=hosting.worker, stopping=stopping),
            Middleware(AskFirst, limits=lambda: self.limits),
        )

    def rooms(self, journal: SqliteJournal, tally: Tally) -> Rooms:
        hosting, ring, me = self.hosting, self.ring, self.hosting.worker
        clock = LoopClock()
        if self.redis is not None:
            self.limits = SharedLimits(
                clock,
                self.redis,
                worker=me,
                workers=len(hosting.ports),
                prefix=hosting.prefix,
                rooms_per_hour=hosting.rooms_per_hour,
            )
        owns = (lambda code: ring.owner(code) == me) if len(hosting.ports) > 1 else None
        return Rooms(journal, clock=clock, limits=self.limits, owns=owns, on_verdict=tally.verdict)

    @asynccontextmanager
    async def running(self, app: Starlette) -> AsyncIterator[None]:
        app.state.origins = self.hosting.origins
        journal: SqliteJournal = app.state.journal
        # Journal backlog: the writes queued and not yet committed.
        collector = metrics.WorkerCollector(
            self.hosting.worker, app.state.tally, lambda: app.state.rooms, lambda: journal.health().waiting
        )
        self._registry = metrics.registry(collector)
        publisher = None
        if self.limits is not None and self.redis is not None:
            with contextlib.suppress(Exception):  # Redis away: its lobbies' publisher says so in the log
                await self.limits.reset()
            self.lobbies = app.state.lobbies = SharedLobbies(self.hosting, app.state.rooms, self.redis)
            publisher = asyncio.get_running_loop().create_task(self.lobbies.run())
        self.ready = True
        try:
            yield
        finally:
            self.ready = False
            if publisher is not None:
                publisher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await publisher
            if self.lobbies is not None:
                await self.lobbies.close()
            if self.redis is not None:
                await self.redis.aclose()

    # ------------------------------------------------------------------ what the operator sees

    async def healthz(self, request: Request) -> Response:
        doc = {"ok": True, "worker": self.hosting.worker, "pid": os.getpid()}
        return JSONResponse({**doc, "version": __version__, "commit": build.commit()})

    async def readyz(self, request: Request) -> Response:
        """Ready to be sent rooms: started, not stopping, its journal writing, and Redis answering."""
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
        if self.lobbies is not None and not await self.lobbies.ping():
            problems.append("Redis does not answer")
        doc = {"ready": not problems, "worker": self.hosting.worker}
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
