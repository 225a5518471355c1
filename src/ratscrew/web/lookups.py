"""Every lookup by a room code, a game id or a match id goes through its address's one budget of lookups.

A route that answers a live code or id differently from an unknown one (a 404 against anything else, a
history that lists the game, a socket that opens) is marked ``@looks_up`` and looks each code up through
``found`` (or counts its unknown ids with ``missed``, as the history does): once the answer is known and
before it is told, an unknown code costs one and a known one nothing (``limits/grants.py``), and an address
with nothing left is answered 429 whatever it asked for, which tells nothing. ``tests/test_lookups_routes.py``
walks the route table and fails on a route that takes a code or an id without being marked, or that tells a
live id from an unknown one once the budget is spent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from starlette.requests import HTTPConnection

from ratscrew.errors import NotFound
from ratscrew.limits import Limits

MARK = "looks_up"
E = TypeVar("E", bound=Callable[..., object])
T = TypeVar("T")


def looks_up(endpoint: E) -> E:
    """Marks an endpoint that looks codes or ids up through this module (the route walk checks it)."""
    setattr(endpoint, MARK, True)
    return endpoint


def is_marked(endpoint: object) -> bool:
    return getattr(endpoint, MARK, False) is True


def client_of(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def limits_of(conn: HTTPConnection) -> Limits:
    limits: Limits = conn.app.state.limits
    return limits


async def missed(conn: HTTPConnection, misses: int) -> int:
    """Counts up to ``misses`` unknown codes or ids for the request's address; how many it had left before
    (TooMany if none: then nothing may be told, known or not)."""
    return await limits_of(conn).missed(client_of(conn), misses)


async def found(conn: HTTPConnection, find: Callable[[], Awaitable[T]]) -> T:
    """What ``find`` answers for one code or id, told only if the request's address has lookups left: a
    NotFound costs one; anything else (a room, a record, a refusal that only a live id gets) costs nothing."""
    try:
        result = await find()
    except NotFound:
        await missed(conn, 1)
        raise
    except Exception:
        await missed(conn, 0)
        raise
    await missed(conn, 0)
    return result
