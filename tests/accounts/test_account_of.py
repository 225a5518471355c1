"""``web.session.account_of``, the one way a route learns who is signed in: the account or None on a read, and
for anything else only from the site's own pages with the session's CSRF token, over HTTP and websockets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from harness.accounts import Addressed, Browser
from ratscrew.errors import Forbidden
from ratscrew.web.app import create_app
from ratscrew.web.session import COOKIE, account_of


async def whoami(request: Request) -> Response:
    account = account_of(request)
    return JSONResponse(None if account is None else {"id": account.id, "name": account.name})


async def whoami_socket(ws: WebSocket) -> None:
    try:
        account = account_of(ws)
    except Forbidden:
        await ws.close(code=4403)
        return
    await ws.accept()
    await ws.send_json(None if account is None else account.name)
    await ws.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    routes = [Route("/test/whoami", whoami, methods=["GET", "POST"]), WebSocketRoute("/test/whoami", whoami_socket)]
    app = create_app(tmp_path, extra_routes=routes)
    with TestClient(Addressed(app, app.state)) as made:
        yield made


def test_a_read_gets_the_account_or_none(client: TestClient) -> None:
    assert client.get("/test/whoami").json() is None
    ann = Browser(client)
    ann.sign_up("Ann_1")
    client.cookies.set(COOKIE, ann.cookie or "")
    found = client.get("/test/whoami").json()
    assert found["name"] == "Ann_1" and isinstance(found["id"], int)
    ann.post("/api/account/sign-out", {})
    assert client.get("/test/whoami").json() is None  # the cookie the browser kept signs nobody in


def test_a_change_needs_the_token_and_the_site_s_own_page(client: TestClient) -> None:
    ann = Browser(client)
    ann.sign_up("Ann_1")
    assert ann.post("/test/whoami", {}).json()["name"] == "Ann_1"
    refused = ann.post("/test/whoami", {}, token=False)
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    refused = ann.post("/test/whoami", {}, headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.json()["code"] == "cross_site"
    assert Browser(client).post("/test/whoami", {}).json() is None  # nobody signed in: nothing to guard


def test_a_websocket_from_another_site_is_not_the_player_s(client: TestClient) -> None:
    ann = Browser(client)
    ann.sign_up("Ann_1")
    client.cookies.set(COOKIE, ann.cookie or "")
    with client.websocket_connect("/test/whoami", headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json() == "Ann_1"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/test/whoami", headers={"Origin": "https://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4403
