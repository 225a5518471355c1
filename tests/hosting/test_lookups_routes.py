"""Every route that takes a room code, a game id or a match id is behind the one limiter of lookups
(``web/lookups.py``), in the app of ``ratscrew play`` and in a worker of ``ratscrew serve`` (with a real
redis-server), found by walking Starlette's route table, not from a list kept by hand:

- each route with a parameter in its path (other than the few that name public things) is marked as looking
  up through the limiter;
- once the address's lookups are spent, every route, asked every way it answers (each method; the websocket;
  the id in the path, or in the query for routes without one), answers a live id exactly as it answers an
  unknown one. Before they are spent, the same walk sees the live ids told apart (so it is no walk that
  cannot see a difference).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from harness.lookups import FrozenPlay, Known, Redis, app_client, make_known, redis_server, spend
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.rooms import wire
from ratscrew.table.clock import ManualClock
from ratscrew.web.app import create_app
from ratscrew.web.lookups import is_marked

# Path parameters that name nothing private: every value gets the same kind of answer from anyone.
PUBLIC_PARAMS = {
    "lang": "a catalogue's language",
    "part": "a part of a catalogue (the Learn pages' words)",
    "kind": "a drill's kind",
    "path": "any page of the app: the same shell whatever the path",
}
KINDS = ("room", "game", "match")
QUERY_NAMES = ("ids", "id", "code", "game", "match")  # where a route without a path parameter could take one
Answer = tuple[object, ...]


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


def walkable(app: Starlette) -> list[Route | WebSocketRoute]:
    """The app's routes, the static files' mount left out (it serves files, and names none by an id)."""
    found: list[Route | WebSocketRoute] = []
    for route in app.routes:
        if isinstance(route, Route | WebSocketRoute):
            found.append(route)
        else:
            assert isinstance(route, Mount) and route.path == "/static", f"a route the walk does not know: {route}"
    return found


def shown(route: Route | WebSocketRoute) -> str:
    """The route's path with its parameters' names only (``/api/rooms/{code}``)."""
    return re.sub(r":[^}]*\}", "}", route.path)


def id_params(route: BaseRoute) -> set[str]:
    assert isinstance(route, Route | WebSocketRoute)
    return set(route.param_convertors) - set(PUBLIC_PARAMS)


@pytest.mark.parametrize("kind", ["play", "hosted"])
def test_every_route_that_takes_a_code_or_an_id_in_its_path_looks_it_up_through_the_limiter(
    tmp_path: Path, kind: str
) -> None:
    if kind == "play":
        app = create_app(tmp_path, setup=FrozenPlay(ManualClock()))
    else:  # the route table only: no Redis is asked until the app starts
        hosting = Hosting(ports=(8001,), data_dir=tmp_path, redis_url="redis://127.0.0.1:1/0")
        app = create_app(tmp_path, setup=Hosted(hosting, lambda: False))
    routes = walkable(app)
    taking = [route for route in routes if id_params(route)]
    unmarked = [shown(route) for route in taking if not is_marked(route.endpoint)]
    assert unmarked == [], f"routes that take a code or an id without the limiter of lookups: {unmarked}"
    # The walk saw what it should: every route of the app that names a room, a game or a match.
    paths = {shown(route) for route in taking}
    assert {"/api/rooms/{code}", "/ws/rooms/{code}", "/api/games/{game_id}/record", "/api/matches/{match_id}"} <= paths


def ask(client: TestClient, route: Route | WebSocketRoute, method: str, value: str) -> Answer | None:
    """How the route answers ``value``, the value written as ``<ID>`` wherever the answer repeats it; None if
    the route takes no id this way (a request with no parameter and no query to read it from)."""
    params = set(route.param_convertors)
    path = route.path
    for name in params:
        path = re.sub(r"\{" + name + r"(:[^}]*)?\}", value, path)
    if isinstance(route, WebSocketRoute):
        return _socket(client, path, value)
    if not params:
        if method != "GET":
            return None  # a creation or an action without an id: no id reaches it
        path += "?" + "&".join(f"{name}={value}" for name in QUERY_NAMES) + "&seed=1"
    response = client.request(method, path, json={} if method in ("POST", "PUT", "PATCH") else None)
    return (response.status_code, masked(response.text, value))


def masked(text: str, value: str) -> str:
    """``text`` with ``value`` written as ``<ID>``, and its beginnings too (messages cut what they quote)."""
    for end in range(len(value), 3, -1):
        text = text.replace(value[:end], "<ID>")
    return text


def _socket(client: TestClient, path: str, value: str) -> Answer:
    said: list[str] = []
    try:
        with client.websocket_connect(path) as ws:
            ws.send_text(json.dumps(wire.Hello(wire.VERSION, None, -1).to_json()))
            first = ws.receive_json()
            said.append(str(first.get("type")))
            if first.get("type") == "welcome":
                return ("welcome", tuple(said))
            closing = ws.receive()
            return (closing.get("code"), tuple(said), masked(json.dumps(first), value))
    except WebSocketDisconnect as closed:
        return (closed.code, tuple(said))


def told_apart(client: TestClient, known: Known, clock: ManualClock, refill: bool) -> set[tuple[str, str, str]]:
    """Every (path, method, kind of id) where the route answers the live id otherwise than the unknown one.
    With ``refill`` the address's lookups are full again before each question (a minute passes)."""
    found: set[tuple[str, str, str]] = set()
    for route in walkable(client.app):  # type: ignore[arg-type]
        methods = ["WS"] if isinstance(route, WebSocketRoute) else sorted(route.methods or ())
        for method in methods:
            for kind in KINDS:
                answers = []
                for value in (known.of(kind), Known.UNKNOWN[kind], known.of(kind), Known.UNKNOWN[kind]):
                    if refill:
                        clock.advance(60_000)
                    answers.append(ask(client, route, method, value))
                live, unknown, live_again, unknown_again = answers
                if live is None or live != live_again or unknown != unknown_again:
                    continue  # no id taken this way, or an answer that changes every time (/metrics)
                if live != unknown:
                    found.add((shown(route), method, kind))
    return found


@pytest.mark.parametrize("kind", ["play", "hosted"])
def test_once_the_lookups_are_spent_no_route_tells_a_live_id_from_an_unknown_one(
    tmp_path: Path, redis: Redis, kind: str
) -> None:
    clock = ManualClock()
    with app_client(kind, tmp_path, clock, redis) as client:
        known = make_known(client)
        before = told_apart(client, known, clock, refill=True)
        assert {
            ("/api/rooms/{code}", "GET", "room"),
            ("/ws/rooms/{code}", "WS", "room"),
            ("/api/games/{game_id}/again", "POST", "room"),
            ("/api/games/{game_id}/record", "GET", "game"),
            ("/api/history", "GET", "game"),
            ("/api/matches/{match_id}", "GET", "match"),
            ("/api/matches/{match_id}/rounds", "POST", "match"),
        } <= before
        clock.advance(60_000)
        assert spend(client) == 20
        assert told_apart(client, known, clock, refill=False) == set()
