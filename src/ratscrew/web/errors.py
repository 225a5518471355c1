"""The one place where errors become HTTP answers: every error is ``{"error": "one readable line"}``.

Endpoints raise from the project's error tree (``ratscrew.errors``) and never build error answers
themselves; the handlers registered here pick the status from the error's branch.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ratscrew.errors import (
    Conflict,
    Forbidden,
    IllegalAction,
    MalformedInput,
    NotFound,
    RatscrewError,
    TooMany,
    Unavailable,
    by_branch,
)

log = logging.getLogger(__name__)

# Most specific first is not needed: an error belongs to exactly one branch.
STATUS: dict[type[RatscrewError], int] = {
    MalformedInput: 400,
    IllegalAction: 400,
    NotFound: 404,
    Conflict: 409,
    Forbidden: 403,
    TooMany: 429,
    Unavailable: 503,
}


def status_for(exc: RatscrewError) -> int:
    """The HTTP status of an error, found by its branch of the tree (400 for the bare root)."""
    return by_branch(exc, STATUS, 400)


def error_response(message: str, status: int, extra: Mapping[str, object] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, **(extra or {})}, status_code=status)


def refused(request: Request, status: int, message: str) -> None:
    """One log line for a refused request, at info (``--log-level info``; busy at hundreds of rooms): who, what,
    and the answer it got. The metrics count refusals at any level."""
    client = request.client.host if request.client else "unknown"
    log.info("refused %s %s from %s (%d): %s", request.method, request.url.path[:80], client, status, message)


async def ratscrew_error(request: Request, exc: Exception) -> Response:
    """An error from the tree: its own message, and any fields it carries for the page (``exc.extra``)."""
    assert isinstance(exc, RatscrewError)
    extra = getattr(exc, "extra", None)
    status = status_for(exc)
    refused(request, status, str(exc))
    return error_response(str(exc), status, extra if isinstance(extra, Mapping) else None)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (a method a route does not take, a missing static file), as JSON like the rest."""
    assert isinstance(exc, HTTPException)
    message = f"{request.method} is not allowed here" if exc.status_code == 405 else str(exc.detail)
    refused(request, exc.status_code, message)
    response = error_response(message, exc.status_code)
    response.headers.update(exc.headers or {})
    return response


async def store_error(request: Request, exc: Exception) -> Response:
    """The SQLite file is locked or unreadable: nothing was written, so the page may simply try again."""
    log.error("store failed on %s %s: %r", request.method, request.url.path, exc)
    return error_response(
        f"the store could not be used ({exc.__class__.__name__}); nothing was changed, try again in a moment", 503
    )


async def internal_error(request: Request, exc: Exception) -> Response:
    """A bug: answered with one line, never the traceback (the server logs that, as for any crash)."""
    return error_response("internal error; nothing was changed", 500)


HANDLERS = {
    RatscrewError: ratscrew_error,
    HTTPException: http_error,
    sqlite3.Error: store_error,
    Exception: internal_error,
}
