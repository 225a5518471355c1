"""Who is signed in on a request, and the guards on a request that acts for them.

A session travels in one cookie (``COOKIE``): HttpOnly (no script reads it), SameSite=Lax (another site's
page cannot send it with a POST, a fetch or a frame), Secure whenever the page was served over HTTPS, which
the app reads from the request's scheme: behind ``ratscrew serve``'s proxy that is the proxy's
X-Forwarded-Proto, believed only from the trusted proxies (``web/serve.py``, ``server_config``).

A request that changes something for the signed-in account must also come from the page's own site and carry
the session's CSRF token (docs/decisions.md says why both):

- its ``Origin`` is the page's own host or one of the site's ``--origin`` addresses (the rule the room
  websockets follow); without ``Origin``, a browser's ``Sec-Fetch-Site`` must say the same origin;
- its ``X-CSRF-Token`` header is the token stored with the session, which the page reads from
  ``GET /api/account`` (another site's page cannot read that answer, nor set the header without asking).

``account_of`` is the one way a route learns who is signed in; it applies both guards to any request that is
not a read.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ratscrew.accounts import Account, AccountStore, Session
from ratscrew.accounts.store import SESSION_S, Opened
from ratscrew.errors import Forbidden

COOKIE = "ratscrew_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_TOKEN = 100  # a cookie's token is 43 characters; anything much longer is not one


class Refused(Forbidden):
    """A request refused on behalf of an account; ``extra`` gives the page the reason's code."""

    def __init__(self, message: str, code: str, field: str | None = None) -> None:
        super().__init__(message)
        self.extra = {"code": code, **({"field": field} if field else {})}


def not_signed_in() -> Refused:
    return Refused("you are not signed in (or your session has ended): sign in first", "signed_out")


@dataclass(frozen=True, slots=True)
class Current:
    """The live session of a request, and its cookie's token."""

    token: str
    session: Session


def accounts_of(conn: HTTPConnection) -> AccountStore:
    store: AccountStore = conn.app.state.accounts
    return store


def current(conn: HTTPConnection) -> Current | None:
    """The request's live session, with no guard applied (the account routes apply them themselves)."""
    token = conn.cookies.get(COOKIE, "")
    if not token or len(token) > MAX_TOKEN:
        return None
    session = accounts_of(conn).session(token)
    return None if session is None else Current(token, session)


def account_of(conn: HTTPConnection) -> Account | None:
    """The account signed in on this request (a page, a JSON call or a websocket), or None: nobody signed in,
    or the session ended. Any request but a read must come from the site's own pages and, over HTTP, carry the
    session's CSRF token: otherwise Forbidden, so that another site's page can never act as the player.
    A route that finds None goes on as for anyone (unrated play stays open to all)."""
    found = current(conn)
    if found is None:
        return None
    if conn.scope["type"] == "websocket" or conn.scope.get("method") not in SAFE_METHODS:
        guard(conn, found.session)
    return found.session.account


def guard(conn: HTTPConnection, session: Session | None) -> None:
    """Refuses a request from another site, and (with a session, over HTTP) one without its CSRF token."""
    if not same_site(conn):
        raise Refused("refused: this request came from another site's page", "cross_site")
    if session is None or conn.scope["type"] == "websocket":
        return  # a websocket cannot carry a header from the page: its Origin is its guard
    sent = conn.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode()):
        raise Refused(
            f"refused: the request lacks this session's CSRF token (the {CSRF_HEADER} header): reload the page",
            "csrf",
        )


def same_site(conn: HTTPConnection) -> bool:
    """Whether the request came from the page's own site: its Origin is this host or one of the site's
    ``--origin`` addresses; without an Origin, the browser's Sec-Fetch-Site says so (a program that is no
    browser sends neither, and carries no cookie it was not given)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return conn.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    return origin_matches(origin, conn.headers.get("host"), conn.app.state.origins)


def origin_matches(origin: str, host: str | None, allowed: tuple[str, ...] | None) -> bool:
    """An Origin header is the page's own host's, or one of ``allowed``.

    >>> origin_matches("https://ers.example", "ers.example", None), origin_matches("null", "ers.example", None)
    (True, False)
    """
    return origin in (allowed or ()) or (host is not None and urlsplit(origin).netloc == host)


def set_session_cookie(response: Response, conn: HTTPConnection, opened: Opened) -> None:
    response.set_cookie(
        COOKIE,
        opened.token,
        max_age=SESSION_S,
        path="/",
        httponly=True,
        samesite="lax",
        secure=conn.url.scheme in ("https", "wss"),
    )


def clear_session_cookie(response: Response, conn: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=conn.url.scheme in ("https", "wss"))
