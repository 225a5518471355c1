"""Signing up and in through the account routes of an app in this process, as a page would, from an address
the test chooses (the app sees it as the request's client, as behind a trusted proxy)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from ratscrew import database
from ratscrew.web.app import Setup, create_app
from ratscrew.web.session import COOKIE

ADDRESS_HEADER = b"x-test-address"
PASSWORD = "correct horse"


class Addressed:
    """The app, with each request's client address taken from the ``x-test-address`` header when it has one."""

    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state  # the app's own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == ADDRESS_HEADER:
                    scope = {**scope, "client": (value.decode(), 40000)}
        await self.app(scope, receive, send)


@contextmanager
def account_client(data: Path, setup: Setup | None = None) -> Iterator[TestClient]:
    """A client of the app of ``ratscrew play`` (or of ``setup``), its data in ``data``."""
    app = create_app(data, setup=setup)
    with TestClient(Addressed(app, app.state)) as client:
        yield client


def app_state(client: TestClient) -> Any:
    """The state of the app ``client`` calls (its store, its origins)."""
    assert isinstance(client.app, Addressed)
    return client.app.state


@dataclass
class Browser:
    """One browser's cookie jar and the CSRF token its page read: what a page would send."""

    client: TestClient
    cookie: str | None = None
    csrf: str | None = None
    address: str = "192.0.2.1"

    def post(self, path: str, body: object, *, token: bool = True, headers: dict[str, str] | None = None) -> Any:
        sent = {"x-test-address": self.address, **(headers or {})}
        if token and self.csrf:
            sent["X-CSRF-Token"] = self.csrf
        self.client.cookies.clear()
        if self.cookie:
            self.client.cookies.set(COOKIE, self.cookie)
        response = self.client.post(path, json=body, headers=sent)
        if COOKIE in response.cookies:
            self.cookie = response.cookies[COOKIE] or None
        doc = response.json() if response.headers.get("content-type") == "application/json" else None
        if response.status_code == 200 and isinstance(doc, dict) and "csrf" in doc:  # an account route's answer
            self.csrf = doc["csrf"]
        return response

    def state(self) -> Any:
        self.client.cookies.clear()
        if self.cookie:
            self.client.cookies.set(COOKIE, self.cookie)
        return self.client.get("/api/account").json()

    def sign_up(self, name: str, password: str = PASSWORD) -> Any:
        return self.post("/api/account/sign-up", {"name": name, "password": password})

    def sign_in(self, name: str, password: str = PASSWORD) -> Any:
        return self.post("/api/account/sign-in", {"name": name, "password": password})


def numbered_accounts(path: Path, ids: Iterable[int]) -> None:
    """Accounts with the ids ``ids`` in the server's file at ``path`` (named ``p<id>``, no password anyone could
    use), for tests of the ladder's stores, which keep rows only for accounts that exist."""
    database.prepare(path)
    with database.transaction(path, write=True) as db:
        rows = [(i, f"p{i}") for i in ids]
        db.executemany("INSERT OR IGNORE INTO accounts (id, name, password, created) VALUES (?, ?, '', 0)", rows)
