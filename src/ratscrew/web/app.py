"""The web application: pages, the JSON API, websockets for live games, and the embedded store."""

from __future__ import annotations

import os
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

from ratscrew.accounts import AccountStore
from ratscrew.errors import NotFound
from ratscrew.ladder.matching import Pool
from ratscrew.ladder.matchmaker import LocalMatchmaking, Matchmaker, Matchmaking
from ratscrew.ladder.store import RatingStore
from ratscrew.limits import Limits, LocalLimits
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.rules.model import Rules
from ratscrew.web import accounts, games, history, learn, meta, online, playnow, profiles, referee, scores, summary
from ratscrew.web.errors import HANDLERS
from ratscrew.web.limits import RateLimit
from ratscrew.web.matched import Tables
from ratscrew.web.modules import module_graph, with_preloads
from ratscrew.web.store import Store
from ratscrew.web.tally import Tally

STATIC = resources.files("ratscrew.web").joinpath("static")


async def index(request: Request) -> Response:
    if request.url.path.startswith(("/api/", "/ws/")) or request.method not in ("GET", "HEAD"):
        raise NotFound(f"no such address: {request.url.path[:80]}")
    return HTMLResponse(request.app.state.shell, headers={"Cache-Control": "no-cache"})


def shell_page() -> str:
    """The page every address answers, read once, with its scripts' module graph (modules.py) so the browser
    fetches a page's modules at once; as it is on disk under RATSCREW_NO_PRELOAD=1 (bench/page_timing.py
    measures the difference)."""
    html = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    return html if os.environ.get("RATSCREW_NO_PRELOAD") == "1" else with_preloads(html, module_graph(STATIC / "js"))


class Setup:
    """How this server holds its rooms: alone, as ``ratscrew play`` does (this class), or as one of several
    workers behind a proxy (``hosting/site.py``), which adds its routes, middleware and shared store."""

    routes: tuple[BaseRoute, ...] = ()
    middleware: tuple[Middleware, ...] = ()

    def rooms(self, journal: SqliteJournal, tally: Tally) -> Rooms:
        return Rooms(journal)

    def limits(self, rooms: Rooms) -> Limits:
        """What each client address may do, counted on the rooms' clock."""
        return LocalLimits(rooms.clock)

    def matchmaking(self, rooms: Rooms) -> Matchmaking:
        """Play now's pools, on the rooms' clock: this process's own. A worker's tick that makes a table opens
        its room (``web/matched.py``, ``open_tables``), whichever worker its people asked."""
        return LocalMatchmaking(Matchmaker(rooms.clock))

    def table_rules(self, pool: Pool) -> Rules:
        """The rules a Play-now table of ``pool`` plays: its preset's, as the pool says."""
        return Rules.build(pool.preset)

    @asynccontextmanager
    async def running(self, app: Starlette) -> AsyncIterator[None]:
        """Around the time the server serves, with its rooms restored."""
        yield


def create_app(data_dir: Path, extra_routes: list[BaseRoute] | None = None, setup: Setup | None = None) -> Starlette:
    store = Store(data_dir / "ratscrew.sqlite3")
    setup = setup or Setup()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Rooms keep their journal in the same SQLite file; games that were being played when the server
        # stopped (SIGTERM or kill -9) are running again before the first request.
        journal = SqliteJournal(store.path)
        app.state.journal = journal
        app.state.rooms = setup.rooms(journal, app.state.tally)
        app.state.limits = setup.limits(app.state.rooms)
        app.state.matchmaking = setup.matchmaking(app.state.rooms)
        tables = app.state.tables = Tables(app.state.rooms, app.state.matchmaking, app.state.ratings, setup.table_rules)
        app.state.rooms.game_over = tables.game_over  # set before the rooms are restored: a game may end then
        app.state.rooms.restore_all()
        try:
            async with setup.running(app), tables.ticking():
                yield
        finally:
            await app.state.rooms.close()
            await tables.settled()
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
        *accounts.routes,
        *profiles.routes,
        *playnow.routes,
        *(extra_routes or []),
        *setup.routes,
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        # Every page of the app is the same shell (the script shows the right one); other methods get a JSON 404.
        Route("/{path:path}", index, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=dict(HANDLERS),
        middleware=[*setup.middleware, Middleware(RateLimit), Middleware(GZipMiddleware, minimum_size=800)],
    )
    app.state.store = store
    app.state.accounts = AccountStore(store.path)
    app.state.ratings = RatingStore(store.path)
    app.state.shell = shell_page()
    app.state.data_dir = data_dir
    app.state.tally = Tally()
    # Page origins allowed beyond the page's own host, for room websockets (None: not checked) and for what
    # acts for an account (web/session.py: the page's own host only, when None).
    app.state.origins = None
    app.state.lobbies = None  # the open lobbies of every worker (hosting), else this server's own
    return app
