"""Every lookup by a room code, a game id or a match id goes through its address's one budget of lookups.

A route that answers a live code or id differently from an unknown one (a 404 against anything else, a
history that lists the game, a socket that opens) is marked ``@looks_up`` and does each lookup inside
``looking_up``: it takes its lookups first (``limits.grants``: an unknown id costs one, a known one nothing),
and a ``NotFound`` raised inside counts as one unknown. With nothing left, the answer is 429 whatever the id,
so it tells nothing. ``tests/test_lookups_routes.py`` walks the route table and fails on a route that takes a
code or an id without being marked, or that tells a live id from an unknown one once the budget is spent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

from starlette.requests import HTTPConnection

from ratscrew.errors import NotFound
from ratscrew.limits import Grant, Limits

MARK = "looks_up"
E = TypeVar("E", bound=Callable[..., object])


def looks_up(endpoint: E) -> E:
    """Marks an endpoint that looks codes or ids up through ``looking_up`` (the route walk checks it)."""
    setattr(endpoint, MARK, True)
    return endpoint


def is_marked(endpoint: object) -> bool:
    return getattr(endpoint, MARK, False) is True


def client_of(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def limits_of(conn: HTTPConnection) -> Limits:
    limits: Limits = conn.app.state.limits
    return limits


@asynccontextmanager
async def looking_up(conn: HTTPConnection, wanted: int = 1) -> AsyncIterator[Grant]:
    """Up to ``wanted`` lookups for the request's address (TooMany if none is left); a NotFound raised inside
    uses one, and what is left is given back when the block ends."""
    grant = await limits_of(conn).lookups(client_of(conn), wanted)
    try:
        yield grant
    except NotFound:
        if grant.left:
            grant.use()
        raise
    finally:
        grant.settle()
