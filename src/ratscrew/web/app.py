"""The web application: pages, the JSON API, websockets for live games, and the embedded store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ratscrew.errors import NotFound
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.web import games, history, learn, meta, online, referee, scores, summary
from ratscrew.web.errors import HANDLERS
from ratscrew.web.limits import RateLimit
from ratscrew.web.store import Store

STATIC = resources.files("ratscrew.web").joinpath("static")


async def index(request: Request) -> Response:
    if request.url.path.startswith(("/api/", "/ws/")) or request.method not in ("GET", "HEAD"):
        raise NotFound(f"no such address: {request.url.path[:80]}")
    html = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


def create_app(data_dir: Path, extra_routes: list[BaseRoute] | None = None) -> Starlette:
    store = Store(data_dir / "ratscrew.sqlite3")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Rooms keep their journal in the same SQLite file; games that were being played when the server
        # stopped (SIGTERM or kill -9) are running again before the first request.
        journal = SqliteJournal(store.path)
        app.state.rooms = Rooms(journal)
        app.state.rooms.restore_all()
        try:
            yield
        finally:
            await app.state.rooms.close()
            journal.close()

    routes: list[BaseRoute] = [
        *meta.routes,
        *referee.routes,
        *games.routes,
        *online.routes,
        *learn.routes,
        *summary.routes,
        *scores.routes,
        *history.routes,
        *(extra_routes or []),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        # Every page of the app is the same shell (the script shows the right one); other methods get a JSON 404.
        Route("/{path:path}", index, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=dict(HANDLERS),
        middleware=[Middleware(RateLimit), Middleware(GZipMiddleware, minimum_size=800)],
    )
    app.state.store = store
    app.state.data_dir = data_dir
    return app
